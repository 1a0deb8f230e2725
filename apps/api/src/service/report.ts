/**
 * Run reports: outcome counts and headline metrics with confidence intervals. Text-metric aggregates come
 * from `scoreTask` unchanged; this module only reshapes them into `{ value, lo, hi }` for the leaderboard.
 */
import type { TaskScore } from '@faun/metrics';

export interface Interval {
  value: number;
  lo: number | null;
  hi: number | null;
}

const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);

/** Metric → `{ value, lo, hi }` from a scoreTask result's aggregate (metrics without a mean are left out). */
export function metricsOf(result: Pick<TaskScore, 'aggregate'>): Record<string, Interval> {
  const out: Record<string, Interval> = {};
  for (const k of Object.keys(result.aggregate).sort()) {
    const a = result.aggregate[k]!;
    const value = finite(a.mean);
    if (value !== null) out[k] = { value, lo: finite(a.low), hi: finite(a.high) };
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
