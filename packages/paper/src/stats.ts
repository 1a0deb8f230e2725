/**
 * Seeded statistics for the paper tables: bootstrap percentile intervals of any per-item statistic and
 * the paired bootstrap significance test (Koehn 2004), on @faun/metrics' PRNG and quantiles — the same
 * method as `faun score`. Every cell gets its own seed, derived from the table seed and what the cell
 * shows, so adding a model or a table never changes another cell's numbers; intervals therefore differ
 * slightly from `faun score --seed N`'s (different resamples), while means are identical.
 */
import { bootstrapCi, mulberry32, pairedBootstrapP, quantileSorted } from '@faun/metrics';
import { lengthBuckets } from '@faun/models';

/** A 32-bit seed from a base seed and a label (FNV-1a over the label). */
export function deriveSeed(seed: number, label: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export interface Interval {
  value: number;
  lo: number;
  hi: number;
  n: number;
}

/**
 * Bootstrap 95% percentile interval of `stat` over `n` items: `stat` receives the resampled item indices.
 */
export function bootstrap(
  n: number,
  stat: (idx: readonly number[]) => number,
  opts: { seed: number; resamples?: number; level?: number },
): Interval {
  const all = Array.from({ length: n }, (_, i) => i);
  const value = stat(all);
  if (n === 0) return { value, lo: Number.NaN, hi: Number.NaN, n };
  const B = opts.resamples ?? 1000;
  const rand = mulberry32(opts.seed);
  const stats: number[] = [];
  const idx = new Array<number>(n);
  for (let b = 0; b < B; b++) {
    for (let i = 0; i < n; i++) idx[i] = Math.floor(rand() * n);
    const s = stat(idx);
    if (Number.isFinite(s)) stats.push(s);
  }
  stats.sort((x, y) => x - y);
  const alpha = (1 - (opts.level ?? 0.95)) / 2;
  return { value, lo: quantileSorted(stats, alpha), hi: quantileSorted(stats, 1 - alpha), n };
}

/** Bootstrap interval of the mean of `values` (@faun/metrics' `bootstrapCi`). */
export function bootstrapMean(values: readonly number[], seed: number, resamples?: number): Interval {
  const ci = bootstrapCi(values, { seed, iterations: resamples ?? 1000 });
  return { value: ci.mean, lo: ci.low, hi: ci.high, n: ci.n };
}

/** The paired bootstrap test lives in @faun/metrics (the API's comparison pages use it too). */
export { pairedBootstrapP };

/** Tercile thresholds (the 1/3 and 2/3 quantiles) of a list of lengths (@faun/models' default buckets). */
export function terciles(values: readonly number[]): [number, number] {
  const [t1 = Number.NaN, t2 = Number.NaN] = lengthBuckets(values).thresholds;
  return [t1, t2];
}

export type Bucket = 'short' | 'medium' | 'long';
export const BUCKETS: Bucket[] = ['short', 'medium', 'long'];

/** The bucket of a length; a length equal to a threshold goes to the lower bucket (as in @faun/models). */
export function bucketOf(length: number, [t1, t2]: readonly [number, number]): Bucket {
  return length <= t1 ? 'short' : length <= t2 ? 'medium' : 'long';
}
