/**
 * Run reports: outcome counts and headline metrics with confidence intervals. Text-metric aggregates come
 * from `scoreTask` unchanged; this module only reshapes them into `{ value, lo, hi }` for the leaderboard.
 */

export interface Interval {
  value: number;
  lo: number | null;
  hi: number | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Reads one aggregate entry in the shapes scoreTask may use: a number, {value|mean, lo, hi}, {ci: [lo, hi]}. */
export function intervalOf(v: unknown): Interval | null {
  if (typeof v === 'number') return Number.isFinite(v) ? { value: v, lo: null, hi: null } : null;
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  const value = num(o.value) ?? num(o.mean) ?? num(o.score) ?? num(o.point);
  if (value === null) return null;
  const ci = Array.isArray(o.ci) ? o.ci : null;
  const lo = num(o.lo) ?? num(o.low) ?? num(o.ci_low) ?? num(o.ciLow) ?? num(ci?.[0]);
  const hi = num(o.hi) ?? num(o.high) ?? num(o.ci_high) ?? num(o.ciHigh) ?? num(ci?.[1]);
  return { value, lo, hi };
}

/** The metric → interval map inside a scoreTask result. */
export function metricsOf(result: unknown): Record<string, Interval> {
  const r = (result ?? {}) as Record<string, unknown>;
  const agg = (r.aggregates ?? r.aggregate ?? r.metrics ?? r.summary ?? {}) as Record<string, unknown>;
  const out: Record<string, Interval> = {};
  for (const k of Object.keys(agg).sort()) {
    const iv = intervalOf(agg[k]);
    if (iv) out[k] = iv;
  }
  return out;
}

/** Wilson score interval (95%) for `k` successes out of `n`. */
export function wilson(k: number, n: number, z = 1.959964): Interval {
  if (n === 0) return { value: 0, lo: null, hi: null };
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { value: p, lo: Math.max(0, c - h), hi: Math.min(1, c + h) };
}

/** Items per outcome; `scored` counts QA/CE items that got metric scores (they have no pass/fail). */
export type OutcomeCounts = Record<'pass' | 'fail' | 'error' | 'timeout' | 'skipped' | 'scored', number>;

export function emptyCounts(): OutcomeCounts {
  return { pass: 0, fail: 0, error: 0, timeout: 0, skipped: 0, scored: 0 };
}
