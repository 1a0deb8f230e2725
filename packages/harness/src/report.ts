/**
 * Reports (pure): the per-instance `report.json` in SWE-bench's shape, and the run report (SWE-bench
 * `schema_version: 2` counts and id lists, plus infra failures, outcomes, per-language breakdown and the
 * resolved rate with a 95% Wilson interval).
 */

import { wilsonInterval } from '@faun/metrics/stats';
import type { ExecutionResult, Language } from '@faun/schema';

/** SWE-bench's per-instance report.json. */
export function instanceReport(r: ExecutionResult, patchEmpty: boolean) {
  const infra = r.outcome === 'infra_error';
  return {
    [r.instance_id]: {
      patch_is_None: false,
      patch_exists: !patchEmpty,
      patch_successfully_applied: r.applied_with !== null || (patchEmpty && r.outcome !== 'apply_failed'),
      resolved: r.outcome === 'resolved',
      resolved_status: r.resolved_status,
      outcome: r.outcome,
      infra_failure: infra,
      ...(infra ? { infra_failure_reason: r.error } : {}),
      tests_status: r.tests_status,
    },
  };
}

export interface ReportInput {
  runId: string;
  model: string;
  /** Every instance in scope, with its language. */
  instances: Array<{ instance_id: string; language: Language }>;
  /** Instance ids that had a prediction. */
  submitted: string[];
  /** Ids whose prediction patch was empty. */
  emptyPatch: string[];
  results: ExecutionResult[];
}

const sorted = (xs: Iterable<string>) => [...xs].sort();
const COMPLETED = new Set(['resolved', 'unresolved', 'invalid_log', 'timeout', 'empty_patch']);

export function runReport(input: ReportInput) {
  const byId = new Map(input.results.map((r) => [r.instance_id, r]));
  const ids = (pred: (r: ExecutionResult) => boolean) =>
    sorted(input.results.filter(pred).map((r) => r.instance_id));
  const completed = ids((r) => COMPLETED.has(r.outcome));
  const resolved = ids((r) => r.outcome === 'resolved');
  const errors = ids((r) => !COMPLETED.has(r.outcome));
  const infra = ids((r) => r.outcome === 'infra_error');
  const incomplete = sorted(input.submitted.filter((id) => !byId.has(id)));
  const outcomes: Record<string, number> = {};
  for (const r of input.results) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
  const perLanguage: Record<string, { total: number; resolved: number; resolved_rate: number }> = {};
  for (const i of input.instances) {
    const l = (perLanguage[i.language] ??= { total: 0, resolved: 0, resolved_rate: 0 });
    l.total++;
    if (byId.get(i.instance_id)?.outcome === 'resolved') l.resolved++;
  }
  for (const l of Object.values(perLanguage)) l.resolved_rate = l.total ? l.resolved / l.total : 0;
  const total = input.instances.length;
  return {
    schema_version: 2,
    run_id: input.runId,
    model: input.model,
    total_instances: total,
    submitted_instances: input.submitted.length,
    completed_instances: completed.length,
    resolved_instances: resolved.length,
    unresolved_instances: completed.length - resolved.length,
    empty_patch_instances: input.emptyPatch.length,
    error_instances: errors.length,
    infra_failure_instances: infra.length,
    completed_ids: completed,
    incomplete_ids: incomplete,
    empty_patch_ids: sorted(input.emptyPatch),
    submitted_ids: sorted(input.submitted),
    resolved_ids: resolved,
    unresolved_ids: ids((r) => COMPLETED.has(r.outcome) && r.outcome !== 'resolved'),
    error_ids: errors,
    infra_failure_ids: infra,
    apply_failed_ids: ids((r) => r.outcome === 'apply_failed'),
    timeout_ids: ids((r) => r.outcome === 'timeout'),
    invalid_log_ids: ids((r) => r.outcome === 'invalid_log'),
    partial_ids: ids((r) => r.resolved_status === 'RESOLVED_PARTIAL'),
    outcomes: Object.fromEntries(Object.entries(outcomes).sort()),
    per_language: Object.fromEntries(Object.entries(perLanguage).sort()),
    resolved_rate: total ? resolved.length / total : 0,
    resolved_rate_ci95: wilsonInterval(resolved.length, total),
  };
}
export type RunReport = ReturnType<typeof runReport>;
