/**
 * Run reports: outcome counts and headline metrics with confidence intervals. Text-metric aggregates come
 * from `scoreTask` unchanged; this module only reshapes them into `{ value, lo, hi }` for the leaderboard.
 */
import { type TaskScore, wilsonInterval } from '@faun/metrics';

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

/** A proportion with its Wilson 95% interval (`@faun/metrics`' `wilsonInterval`; none when n = 0). */
export function proportion(k: number, n: number): Interval {
  if (n === 0) return { value: 0, lo: null, hi: null };
  const [lo, hi] = wilsonInterval(k, n);
  return { value: k / n, lo, hi };
}

/** Items per outcome; `scored` counts QA/CE items that got metric scores (they have no pass/fail). */
export type OutcomeCounts = Record<'pass' | 'fail' | 'error' | 'timeout' | 'skipped' | 'scored', number>;

export function emptyCounts(): OutcomeCounts {
  return { pass: 0, fail: 0, error: 0, timeout: 0, skipped: 0, scored: 0 };
}
