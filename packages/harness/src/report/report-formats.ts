/**
 * Run reports in the reference tools' own formats (pure): SWE-bench's `<model>.<run_id>.json`
 * (`make_run_report`, schema_version 2) and Multi-SWE-bench's `final_report.json` (`FinalReport`).
 *
 * SWE-bench: instances without a prediction are `incomplete`; empty patches are not run (`empty_patch`,
 * in no other list); an instance is `completed` when it was graded (resolved or not, including logs that
 * could not be used); apply failures, timeouts, infrastructure errors, rows that cannot be graded and
 * predictions without a result are `error`s. Multi-SWE-bench: every prediction is run; graded ones are
 * `completed` (resolved, or unresolved — its invalid reports), the others `error` and `incomplete`;
 * `empty_patch_ids` is always empty, as it writes it.
 */
import type { ExecutionResult } from '@faun/schema';

export interface FormatInput {
  runId: string;
  model: string;
  /** Instance ids in scope, in dataset order. */
  instances: string[];
  /** Ids with a prediction, and whether its patch is empty. */
  predictions: Array<{ instance_id: string; empty: boolean }>;
  results: ExecutionResult[];
  /** Test output per instance id (for the advisory failure classification; optional). */
  logs?: Record<string, string>;
}

/**
 * SWE-bench's advisory failure classification of an unresolved or errored instance from its logs: the
 * first matching signature gives a reason and a tier (`environment` = cannot come from the patch;
 * `ambiguous`). It never changes a count other than its own.
 */
const FAILURE_SIGNATURES: Array<[string, 'environment' | 'ambiguous', RegExp]> = [
  ['browser_launch_failed', 'environment', /Failed to launch|Failed to connect to the bus/m],
  ['display_unavailable', 'environment', /cannot open display|Missing X server|unable to open X display/m],
  ['out_of_memory', 'environment', /Cannot allocate memory|OutOfMemoryError|^Killed$/m],
  ['container_unavailable', 'environment', /Error response from daemon|Cannot connect to the Docker daemon/m],
  ['network_unreachable', 'environment', /Could not resolve host|Temporary failure in name resolution/m],
  ['missing_module', 'ambiguous', /Cannot find module|MODULE_NOT_FOUND|ModuleNotFoundError/m],
  ['no_tests_collected', 'ambiguous', /no tests ran|collected 0 items/m],
  ['tests_timed_out', 'ambiguous', /Timeout error: \d+ seconds exceeded/m],
];

export function classifyFailure(text: string): { reason: string; tier: 'environment' | 'ambiguous' } | null {
  if (!text) return null;
  for (const [reason, tier, re] of FAILURE_SIGNATURES) if (re.test(text)) return { reason, tier };
  return null;
}

/** The text SWE-bench would classify for one result: its test output and instance log. */
function failureText(r: ExecutionResult | undefined, log: string | undefined): string {
  const parts = [log ?? '', r?.error ?? ''];
  if (r?.outcome === 'timeout')
    parts.push(`Timeout error: ${/(\d+) s/.exec(r.error ?? '')?.[1] ?? 0} seconds exceeded.`);
  return parts.join('\n');
}

const sorted = (xs: Iterable<string>) => [...xs].sort();
/** Outcomes for which SWE-bench writes a per-instance report.json (the log was graded). */
/** (A tampered or flaky run was graded too: the reference would count it as a graded, unresolved instance.) */
export const SWE_GRADED: ReadonlySet<string> = new Set([
  'resolved',
  'unresolved',
  'invalid_log',
  'tampered',
  'flaky',
]);

/** SWE-bench's run report file name: `<model with / as __>.<run_id>.json`. */
export function swebenchReportName(model: string, runId: string): string {
  return `${model.replaceAll('/', '__')}.${runId}.json`;
}

export function swebenchRunReport(input: FormatInput) {
  const preds = new Map(input.predictions.map((p) => [p.instance_id, p]));
  const byId = new Map(input.results.map((r) => [r.instance_id, r]));
  const completed = new Set<string>();
  const resolved = new Set<string>();
  const unresolved = new Set<string>();
  const incomplete = new Set<string>();
  const empty = new Set<string>();
  const error = new Set<string>();
  const infra = new Set<string>();
  const ambiguous = new Set<string>();
  const reasons: Record<string, string> = {};
  for (const id of input.instances) {
    const p = preds.get(id);
    if (!p) {
      incomplete.add(id);
      continue;
    }
    if (p.empty) {
      empty.add(id);
      continue;
    }
    const r = byId.get(id);
    if (r && SWE_GRADED.has(r.outcome)) {
      completed.add(id);
      (r.outcome === 'resolved' ? resolved : unresolved).add(id);
    } else error.add(id);
    if (r?.outcome === 'resolved') continue;
    const c =
      classifyFailure(failureText(r, input.logs?.[id])) ??
      (r?.outcome === 'infra_error'
        ? { reason: (r.error ?? 'infrastructure error').split('\n')[0]!, tier: 'environment' as const }
        : null);
    if (!c) continue;
    reasons[id] = c.reason;
    (c.tier === 'environment' ? infra : ambiguous).add(id);
  }
  return {
    total_instances: input.instances.length,
    submitted_instances: preds.size,
    completed_instances: completed.size,
    resolved_instances: resolved.size,
    unresolved_instances: unresolved.size,
    infra_failure_instances: infra.size,
    ambiguous_failure_instances: ambiguous.size,
    empty_patch_instances: empty.size,
    error_instances: error.size,
    completed_ids: sorted(completed),
    incomplete_ids: sorted(incomplete),
    empty_patch_ids: sorted(empty),
    submitted_ids: sorted(preds.keys()),
    resolved_ids: sorted(resolved),
    unresolved_ids: sorted(unresolved),
    infra_failure_ids: sorted(infra),
    ambiguous_failure_ids: sorted(ambiguous),
    failure_reasons: Object.fromEntries(Object.entries(reasons).sort()),
    error_ids: sorted(error),
    schema_version: 2,
  };
}
export type SwebenchRunReport = ReturnType<typeof swebenchRunReport>;

/** Outcomes Multi-SWE-bench would have produced a report for (resolved or an invalid/failed report). */
const MSB_GRADED: ReadonlySet<string> = new Set([
  'resolved',
  'unresolved',
  'invalid_log',
  'empty_patch',
  'apply_failed',
  'tampered',
  'flaky',
]);

export function msbFinalReport(input: FormatInput) {
  const byId = new Map(input.results.map((r) => [r.instance_id, r]));
  const submitted = input.predictions.map((p) => p.instance_id).sort();
  const resolved = submitted.filter((id) => byId.get(id)?.outcome === 'resolved');
  const unresolved = submitted.filter((id) => {
    const o = byId.get(id)?.outcome;
    return o !== undefined && o !== 'resolved' && MSB_GRADED.has(o);
  });
  const failed = submitted.filter((id) => !MSB_GRADED.has(byId.get(id)?.outcome ?? 'none'));
  return {
    total_instances: submitted.length,
    submitted_instances: submitted.length,
    completed_instances: resolved.length + unresolved.length,
    incomplete_instances: failed.length,
    resolved_instances: resolved.length,
    unresolved_instances: unresolved.length,
    empty_patch_instances: 0,
    error_instances: failed.length,
    submitted_ids: submitted,
    completed_ids: [...resolved, ...unresolved].sort(),
    incomplete_ids: failed,
    resolved_ids: resolved,
    unresolved_ids: unresolved,
    empty_patch_ids: [] as string[],
    error_ids: failed,
  };
}
export type MsbFinalReport = ReturnType<typeof msbFinalReport>;

/** The counts line `verify` prints for each written report (the figures a reference loader must give). */
export function formatCounts(r: {
  total_instances: number;
  completed_instances: number;
  resolved_instances: number;
  unresolved_instances: number;
  empty_patch_instances: number;
  error_instances: number;
}): string {
  return (
    `total ${r.total_instances}, completed ${r.completed_instances}, resolved ${r.resolved_instances}, ` +
    `unresolved ${r.unresolved_instances}, empty patch ${r.empty_patch_instances}, error ${r.error_instances}`
  );
}
