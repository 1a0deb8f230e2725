/**
 * What `faun verify` prints at the end (pure): the one-line summary, where every outcome is counted
 * and the counts add up to the stated denominator, and a digest of infrastructure errors (the distinct
 * reasons, with counts and instance ids) so that a run that evaluated nothing says why.
 */
import type { ExecutionResult } from '@faun/schema';
import type { RunReport } from './report.ts';

const pct = (x: number) => (100 * x).toFixed(1);

/**
 * `2/3 resolved (66.7%, 95% CI 20.8–93.9%); unresolved 1 (partial 1); flaky 0; tampered 0; empty patch 0;
 * apply failed 0; timeout 0; invalid log 0; errors 0 (infra 0); not run 0; reused 0`. The buckets are disjoint:
 * `errors` is every result that is none of the named outcomes (today: infrastructure errors), `not run`
 * the instances in scope without a result (no prediction, or the run was interrupted). When a prediction's
 * test-infrastructure files were dropped, `test infrastructure dropped in N` follows (instances, any outcome).
 */
export function summaryLine(r: RunReport, extra: { reused?: number; reportPath?: string } = {}): string {
  const o = r.outcomes as Record<string, number>;
  const n = (k: string) => o[k] ?? 0;
  const named = [
    'resolved',
    'unresolved',
    'flaky',
    'tampered',
    'empty_patch',
    'apply_failed',
    'timeout',
    'invalid_log',
  ];
  const results = Object.values(o).reduce((a, b) => a + b, 0);
  const errors = results - named.reduce((a, k) => a + n(k), 0);
  const partial = r.partial_ids.length;
  const dropped = (r.dropped_files_ids ?? []).length;
  const [lo, hi] = r.resolved_rate_ci95;
  return [
    `${r.resolved_instances}/${r.total_instances} resolved (${pct(r.resolved_rate)}%, 95% CI ${pct(lo)}–${pct(hi)}%)`,
    `unresolved ${n('unresolved')} (partial ${partial})`,
    `flaky ${n('flaky')}`,
    `tampered ${n('tampered')}`,
    `empty patch ${n('empty_patch')}`,
    `apply failed ${n('apply_failed')}`,
    `timeout ${n('timeout')}`,
    `invalid log ${n('invalid_log')}`,
    `errors ${errors} (infra ${n('infra_error')})`,
    `not run ${r.total_instances - results}`,
    // not a bucket: instances of any outcome whose test-infrastructure files were dropped before the run
    ...(dropped ? [`test infrastructure dropped in ${dropped}`] : []),
    ...(extra.reused === undefined ? [] : [`reused ${extra.reused}`]),
    ...(extra.reportPath ? [`report: ${extra.reportPath}`] : []),
  ].join('; ');
}

/** The infrastructure errors of a run, grouped by reason. */
export interface ErrorDigest {
  /** Results that ended in an infrastructure error. */
  infra: number;
  /** Results in all. */
  results: number;
  /** Every result is an infrastructure error: nothing was evaluated. */
  nothingEvaluated: boolean;
  /** Lines to print (empty when there were no infrastructure errors). */
  lines: string[];
}

const CLONE = /^cannot clone https:\/\/github\.com\/([^/\s]+\/[^/\s]+?)(?:\.git)?:/;

/** Durations inside messages ("after 0 ms", "in 1.5 s"): they vary between otherwise equal reasons. */
const DURATION = /\b\d+(?:\.\d+)?\s?(?:ms|s|sec|seconds?)\b/g;

/**
 * Groups infrastructure errors by their first line (durations in it aside; the first one met is shown);
 * shows the `max` most frequent reasons.
 */
export function errorDigest(results: ExecutionResult[], max = 3, maxIds = 5): ErrorDigest {
  const infra = results.filter((r) => r.outcome === 'infra_error');
  const byKey = new Map<string, [string, string[]]>();
  for (const r of infra) {
    const reason = (r.error ?? 'unknown error').split('\n')[0]!.trim() || 'unknown error';
    const key = reason.replace(DURATION, '#');
    const group = byKey.get(key) ?? [reason, []];
    group[1].push(r.instance_id);
    byKey.set(key, group);
  }
  const groups = new Map(byKey.values());
  const nothingEvaluated = infra.length > 0 && infra.length === results.length;
  if (!infra.length) return { infra: 0, results: results.length, nothingEvaluated, lines: [] };
  const ordered = [...groups].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  const lines = [
    nothingEvaluated
      ? `nothing was evaluated: all ${infra.length} instance(s) ended in an infrastructure error:`
      : `${infra.length} of ${results.length} result(s) are missing (infrastructure errors, counted as not resolved); ` +
        'rerun the same command to retry them:',
  ];
  for (const [reason, ids] of ordered.slice(0, max)) {
    const sorted = [...ids].sort();
    const shown =
      sorted.slice(0, maxIds).join(', ') +
      (sorted.length > maxIds ? `, … (${sorted.length - maxIds} more)` : '');
    lines.push(`  ${ids.length}× ${reason} — ${shown}`);
  }
  if (ordered.length > max) lines.push(`  … ${ordered.length - max} other reason(s); see samples.jsonl`);
  const repos = [...new Set(ordered.flatMap(([reason]) => CLONE.exec(reason)?.[1] ?? []))].sort();
  if (repos.length)
    lines.push(
      `  hint: without network access, pass a local clone of each repository: ${repos
        .map((r) => `--repo-dir ${r}=PATH`)
        .join(' ')}`,
    );
  return { infra: infra.length, results: results.length, nothingEvaluated, lines };
}
