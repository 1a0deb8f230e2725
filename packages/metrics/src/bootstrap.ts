/**
 * Seeded bootstrap confidence intervals over per-item scores. Deterministic for a seed (mulberry32
 * PRNG), percentile method with linear interpolation (numpy's default quantile).
 * @module
 */
import { mulberry32 } from '@faun/kit/random';

export { mulberry32 };

/** Linear-interpolated quantile `q` ∈ [0, 1] of an ascending array. */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const pos = (n - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** Rearranges `a` so that a[k] holds the k-th smallest value (quickselect, median-of-three pivots). */
function selectInPlace(a: Float64Array, k: number, from = 0, to = a.length - 1): number {
  let lo = from;
  let hi = to;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < a[lo]!) swap(a, mid, lo);
    if (a[hi]! < a[lo]!) swap(a, hi, lo);
    if (a[hi]! < a[mid]!) swap(a, hi, mid);
    const pivot = a[mid]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) swap(a, i++, j--);
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k]!;
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

/** Ranks this close to either end are found with a small sorted buffer instead of selection. */
const TAIL = 64;

/** The `m` smallest values of `a` in ascending order (one pass, a sorted buffer of `m`). */
function smallest(a: Float64Array, m: number): Float64Array {
  const buf = new Float64Array(m);
  let count = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (count === m && !(x < buf[m - 1]!)) continue;
    let j = count < m ? count++ : m - 1;
    while (j > 0 && buf[j - 1]! > x) {
      buf[j] = buf[j - 1]!;
      j--;
    }
    buf[j] = x;
  }
  return buf;
}

/** The `m` largest values of `a` in ascending order. */
function largest(a: Float64Array, m: number): Float64Array {
  const buf = new Float64Array(m); // descending while filled
  let count = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (count === m && !(x > buf[m - 1]!)) continue;
    let j = count < m ? count++ : m - 1;
    while (j > 0 && buf[j - 1]! < x) {
      buf[j] = buf[j - 1]!;
      j--;
    }
    buf[j] = x;
  }
  return buf.reverse();
}

/** The values of rank `lo` and `lo + 1` (0-based, ascending; the second capped at the last rank). */
function ranks(a: Float64Array, lo: number): [number, number] {
  const n = a.length;
  const hi = Math.min(lo + 1, n - 1);
  if (hi < TAIL) {
    const s = smallest(a, hi + 1);
    return [s[lo]!, s[hi]!];
  }
  if (n - lo <= TAIL) {
    const l = largest(a, n - lo);
    return [l[0]!, l[hi - lo]!];
  }
  const vlo = selectInPlace(a, lo);
  let vhi = vlo;
  if (hi > lo) {
    vhi = Number.POSITIVE_INFINITY;
    for (let i = lo + 1; i < n; i++) if (a[i]! < vhi) vhi = a[i]!;
  }
  return [vlo, vhi];
}

/**
 * The linear-interpolated quantiles `q` ∈ [0, 1] of unsorted values — the same numbers as
 * `quantileSorted` of the sorted array, found without sorting: ranks near either end (a 95% interval's)
 * with one pass over a small buffer, others by selection in O(n). May reorder `a`.
 */
export function quantilesInPlace(a: Float64Array, qs: readonly number[]): number[] {
  const n = a.length;
  if (n === 0) return qs.map(() => Number.NaN);
  return qs.map((q) => {
    const pos = (n - 1) * q;
    const lo = Math.floor(pos);
    const [vlo, vhi] = ranks(a, lo);
    if (lo + 1 >= n || pos === lo) return vlo;
    return vlo + (vhi - vlo) * (pos - lo);
  });
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
  return bootstrapCiMany([scores], opts)[0]!;
}

let scratchBuf = new Float64Array(0);

/**
 * A reused buffer of at least `size` values for the resampled means (a call finishes with it before
 * returning, and the module runs on one thread): no fresh 8 KB per interval for the collector to sweep.
 */
function scratch(size: number): Float64Array {
  if (scratchBuf.length < size) scratchBuf = new Float64Array(Math.max(size, scratchBuf.length * 2));
  return scratchBuf;
}

/** True when two columns hold the same values in the same order. */
function sameColumn(a: readonly number[], b: readonly number[]): boolean {
  if (a === b) return true;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * `bootstrapCi` of several score columns at once. Columns of the same length share one stream of
 * resampled indices (the same seed draws the same indices), so the result equals calling `bootstrapCi`
 * on each column, at the cost of one set of random draws per length instead of one per column.
 * Identical columns (FL's match, top-k and reciprocal-rank columns often are) are resampled once, and
 * the two quantiles are found by selection rather than a sort: same numbers, a fraction of the work.
 */
export function bootstrapCiMany(
  columns: readonly (readonly number[])[],
  opts: BootstrapOptions = {},
): ConfidenceInterval[] {
  const out: ConfidenceInterval[] = new Array(columns.length);
  const byLength = new Map<number, number[]>();
  columns.forEach((c, k) => {
    const group = byLength.get(c.length);
    if (group) group.push(k);
    else byLength.set(c.length, [k]);
  });
  const iterations = opts.iterations ?? 1000;
  const alpha = 1 - (opts.level ?? 0.95);
  const qs = [alpha / 2, 1 - alpha / 2];
  for (const [n, ks] of byLength) {
    if (n === 0) {
      for (const k of ks) out[k] = { mean: Number.NaN, low: Number.NaN, high: Number.NaN, n: 0 };
      continue;
    }
    // distinct columns, and for each column of the group the distinct one it equals
    const cols: (readonly number[])[] = [];
    const which = ks.map((k) => {
      const col = columns[k]!;
      let u = cols.findIndex((c) => sameColumn(c, col));
      if (u < 0) u = cols.push(col) - 1;
      return u;
    });
    const all = scratch(cols.length * iterations);
    const means = cols.map((_, c) => all.subarray(c * iterations, (c + 1) * iterations));
    const idx = new Int32Array(n);
    // mulberry32 (see above) inlined, the same draws as `Math.floor(mulberry32(seed)() * n)`: the state
    // kept as int32 has the same bits, and u · n · 2⁻³² rounds exactly as (u / 2³²) · n (powers of two)
    let state = (opts.seed ?? 0) | 0;
    for (let b = 0; b < iterations; b++) {
      for (let i = 0; i < n; i++) {
        state = (state + 0x6d2b79f5) | 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        idx[i] = (((t ^ (t >>> 14)) >>> 0) * n * 2.3283064365386963e-10) | 0;
      }
      for (let c = 0; c < cols.length; c++) {
        const col = cols[c]!;
        let s = 0;
        for (let i = 0; i < n; i++) s += col[idx[i]!]!;
        means[c]![b] = s / n;
      }
    }
    const intervals = cols.map((col, c) => {
      let sum = 0;
      for (const v of col) sum += v;
      const [low, high] = quantilesInPlace(means[c]!, qs) as [number, number];
      return { mean: sum / n, low, high, n };
    });
    ks.forEach((k, j) => {
      out[k] = { ...intervals[which[j]!]! };
    });
  }
  return out;
}

/**
 * Paired bootstrap test of mean(a) vs mean(b) over the same items (Koehn 2004): `diff` is
 * mean(a − b); the two-sided p-value is twice the share of resamples in which the difference does not
 * keep the observed sign (capped at 1).
 */
export function pairedBootstrapP(
  a: readonly number[],
  b: readonly number[],
  seed: number,
  resamples = 1000,
): { diff: number; p: number } {
  if (a.length !== b.length) throw new Error(`paired test needs equal lengths (${a.length} vs ${b.length})`);
  const n = a.length;
  if (n === 0) return { diff: Number.NaN, p: Number.NaN };
  const d = a.map((x, i) => x - (b[i] ?? 0));
  let sum = 0;
  for (const v of d) sum += v;
  const diff = sum / n;
  if (diff === 0) return { diff, p: 1 };
  const rand = mulberry32(seed);
  let flips = 0;
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += d[Math.floor(rand() * n)] ?? 0;
    if ((diff > 0 && s <= 0) || (diff < 0 && s >= 0)) flips++;
  }
  return { diff, p: Math.min(1, (2 * flips) / resamples) };
}
