/**
 * What `faun verify` prints at the end (pure): the one-line summary, where every outcome is counted
 * and the counts add up to the stated denominator, and a digest of infrastructure errors (the distinct
 * reasons, with counts and instance ids) so that a run that evaluated nothing says why.
 */
import type { RunReport } from './report.ts';

const pct = (x: number) => (100 * x).toFixed(1);

/**
 * `2/3 resolved (66.7%, 95% CI 20.8–93.9%); unresolved 1 (partial 1); empty patch 0; apply failed 0;
 * timeout 0; invalid log 0; errors 0 (infra 0); not run 0; reused 0`. The buckets are disjoint:
 * `errors` is every result that is none of the named outcomes (today: infrastructure errors), `not run`
 * the instances in scope without a result (no prediction, or the run was interrupted).
 */
export function summaryLine(r: RunReport, extra: { reused?: number; reportPath?: string } = {}): string {
  const o = r.outcomes as Record<string, number>;
  const n = (k: string) => o[k] ?? 0;
  const named = ['resolved', 'unresolved', 'empty_patch', 'apply_failed', 'timeout', 'invalid_log'];
  const results = Object.values(o).reduce((a, b) => a + b, 0);
  const errors = results - named.reduce((a, k) => a + n(k), 0);
  const partial = r.partial_ids.length;
  const [lo, hi] = r.resolved_rate_ci95;
  return [
    `${r.resolved_instances}/${r.total_instances} resolved (${pct(r.resolved_rate)}%, 95% CI ${pct(lo)}–${pct(hi)}%)`,
    `unresolved ${n('unresolved')} (partial ${partial})`,
    `empty patch ${n('empty_patch')}`,
    `apply failed ${n('apply_failed')}`,
    `timeout ${n('timeout')}`,
    `invalid log ${n('invalid_log')}`,
    `errors ${errors} (infra ${n('infra_error')})`,
    `not run ${r.total_instances - results}`,
    ...(extra.reused === undefined ? [] : [`reused ${extra.reused}`]),
    ...(extra.reportPath ? [`report: ${extra.reportPath}`] : []),
  ].join('; ');
}
