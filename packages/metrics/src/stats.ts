/**
 * Small statistics shared across faun (dependency-free; `@faun/metrics/stats`): the arithmetic mean with
 * an explicit value for an empty list, and the Wilson score interval of a proportion.
 * @module
 */

/** Arithmetic mean of `values`; `empty` when there are none (each caller says what that means). */
export function mean(values: readonly number[], empty: number): number {
  if (values.length === 0) return empty;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

/**
 * Wilson score interval for `k` successes in `n` trials (z = 1.959964, 95%), bounds rounded to 4
 * decimals and clamped to [0, 1]; [0, 0] when n = 0.
 */
export function wilsonInterval(k: number, n: number, z = 1.959964): [number, number] {
  if (n === 0) return [0, 0];
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  const r = (x: number) => Math.round(x * 10000) / 10000;
  return [r(Math.max(0, c - h)), r(Math.min(1, c + h))];
}
