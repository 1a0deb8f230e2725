/**
 * Seeded bootstrap confidence intervals over per-item scores. Deterministic for a seed (mulberry32
 * PRNG), percentile method with linear interpolation (numpy's default quantile).
 * @module
 */

/** mulberry32: a small, fast 32-bit PRNG; returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Linear-interpolated quantile `q` ∈ [0, 1] of an ascending array. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const pos = (n - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

export interface BootstrapOptions {
  /** PRNG seed (default 0). */
  seed?: number;
  /** Resamples (default 1000). */
  iterations?: number;
  /** Confidence level (default 0.95). */
  level?: number;
}

export interface ConfidenceInterval {
  mean: number;
  low: number;
  high: number;
  n: number;
}

/** Mean of `scores` with a percentile bootstrap interval; an empty list gives NaNs with n = 0. */
export function bootstrapCi(scores: readonly number[], opts: BootstrapOptions = {}): ConfidenceInterval {
  const n = scores.length;
  if (n === 0) return { mean: Number.NaN, low: Number.NaN, high: Number.NaN, n: 0 };
  let sum = 0;
  for (const s of scores) sum += s;
  const mean = sum / n;
  const iterations = opts.iterations ?? 1000;
  const rand = mulberry32(opts.seed ?? 0);
  const means = new Float64Array(iterations);
  for (let b = 0; b < iterations; b++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += scores[Math.floor(rand() * n)]!;
    means[b] = s / n;
  }
  means.sort();
  const alpha = 1 - (opts.level ?? 0.95);
  return { mean, low: quantileSorted(means, alpha / 2), high: quantileSorted(means, 1 - alpha / 2), n };
}
