/**
 * Reports (pure): the per-instance `report.json` in SWE-bench's shape, and the run report (SWE-bench
 * `schema_version: 2` counts and id lists, plus infra failures, outcomes, per-language breakdown and the
 * resolved rate with a 95% Wilson interval).
 */

import { wilsonInterval } from '@faun/metrics/stats';
import { type DeterminismContract, type ExecutionResult, type Language, stableStringify } from '@faun/schema';
import { SWE_GRADED, swebenchRunReport } from './report-formats.ts';

/** SWE-bench's per-instance report.json. */
export function instanceReport(r: ExecutionResult, patchEmpty: boolean) {
  const infra = r.outcome === 'infra_error';
  return {
    [r.instance_id]: {
      patch_is_None: false,
      patch_exists: !patchEmpty,
      // As SWE-bench: the patch applied and the log could be graded.
      patch_successfully_applied: SWE_GRADED.has(r.outcome) && r.outcome !== 'invalid_log',
      resolved: r.outcome === 'resolved',
      resolved_status: r.resolved_status,
      outcome: r.outcome,
      infra_failure: infra,
      ...(infra ? { infra_failure_reason: r.error } : {}),
      tests_status: r.tests_status,
      ...((r.flags ?? []).length ? { flags: r.flags } : {}),
      ...((r.tampered ?? []).length ? { tampered: r.tampered } : {}),
      ...((r.dropped_files ?? []).length ? { dropped_files: r.dropped_files } : {}),
      ...(r.contract ? { contract: r.contract } : {}),
      ...((r.flaky_tests ?? []).length ? { flaky_tests: r.flaky_tests, test_runs: r.test_runs } : {}),
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

/**
 * The run report: SWE-bench's `make_run_report` keys with its semantics (report-formats.ts), plus faun's
 * extras (apply failures, timeouts, unusable logs, partial resolutions, outcomes, per-language breakdown,
 * resolved rate with a 95% Wilson interval).
 */
export function runReport(input: ReportInput) {
  const byId = new Map(input.results.map((r) => [r.instance_id, r]));
  const ids = (pred: (r: ExecutionResult) => boolean) =>
    sorted(input.results.filter(pred).map((r) => r.instance_id));
  const empty = new Set(input.emptyPatch);
  const swe = swebenchRunReport({
    runId: input.runId,
    model: input.model,
    instances: input.instances.map((i) => i.instance_id),
    predictions: input.submitted.map((id) => ({ instance_id: id, empty: empty.has(id) })),
    results: input.results,
  });
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
    ...swe,
    run_id: input.runId,
    model: input.model,
    apply_failed_ids: ids((r) => r.outcome === 'apply_failed'),
    timeout_ids: ids((r) => r.outcome === 'timeout'),
    invalid_log_ids: ids((r) => r.outcome === 'invalid_log'),
    bad_input_ids: ids((r) => r.outcome === 'bad_input'),
    partial_ids: ids((r) => r.resolved_status === 'RESOLVED_PARTIAL'),
    tampered_ids: ids((r) => r.outcome === 'tampered'),
    flaky_ids: ids((r) => r.outcome === 'flaky'),
    /** Resolved with a test that failed, then passed on a re-run (`--flaky-policy passed` only). */
    resolved_with_flaky_ids: ids((r) => r.outcome === 'resolved' && (r.flaky_tests ?? []).length > 0),
    flagged_ids: ids((r) => (r.flags ?? []).length > 0),
    /** Instances whose prediction had test-infrastructure files dropped before the run (test-infra.ts). */
    dropped_files_ids: ids((r) => (r.dropped_files ?? []).length > 0),
    outcomes: Object.fromEntries(Object.entries(outcomes).sort()),
    contracts: contractsOf(input.results),
    per_language: Object.fromEntries(Object.entries(perLanguage).sort()),
    resolved_rate: total ? swe.resolved_instances / total : 0,
    resolved_rate_ci95: wilsonInterval(swe.resolved_instances, total),
  };
}
export type RunReport = ReturnType<typeof runReport>;

/**
 * The determinism contracts the run's instances ran under (image and digest aside: they are per instance),
 * each with how many instances ran under it — one entry for a run made in one go.
 */
export function contractsOf(results: ExecutionResult[]) {
  const by = new Map<
    string,
    { contract: Omit<DeterminismContract, 'image' | 'image_digest'>; instances: number }
  >();
  for (const r of results) {
    if (!r.contract) continue;
    const { image: _i, image_digest: _d, ...c } = r.contract;
    const k = stableStringify(c);
    const e = by.get(k);
    if (e) e.instances++;
    else by.set(k, { contract: c, instances: 1 });
  }
  return [...by.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, v]) => v);
}
