/**
 * The stability check of a validated instance: its gold patch is run against the derived FAIL_TO_PASS /
 * PASS_TO_PASS in `checks` rounds of `parallel` runs side by side (on a 2-core machine, two at once is load),
 * and must resolve in every one. An instance that fails any is `unstable`: kept out of the valid rows, with
 * what failed — and every run goes to the gold health file.
 */
import type { ExecutionInstance, ExecutionResult } from '@faun/schema';
import { failingTests } from '../grading/flaky.ts';
import { framedSection } from '../grading/framing.ts';
import { appendGoldRuns, goldRun } from '../report/health.ts';
import { type RunOptions, runInstance } from '../run/run-instance.ts';

/** Gold must pass this many rounds in a row (default), each of this many runs at once. */
export const DEFAULT_GOLD_CHECKS = 3;
export const DEFAULT_GOLD_PARALLEL = 2;

export interface StabilityRun {
  round: number;
  outcome: ExecutionResult['outcome'];
  failing: string[];
  error: string | null;
}

export interface Stability {
  checks: number;
  parallel: number;
  stable: boolean;
  /** Every run, in order (stops after the first round with a failure). */
  runs: StabilityRun[];
}

/** Why an unstable instance is unstable, in one line. */
export function unstableReason(s: Stability): string {
  const bad = s.runs.filter((r) => r.outcome !== 'resolved');
  const first = bad[0];
  if (!first) return '';
  const what = first.failing.length
    ? `: ${first.failing.slice(0, 3).join(', ')}${first.failing.length > 3 ? ' …' : ''}`
    : first.error
      ? ` (${first.error.split('\n')[0]})`
      : '';
  return `unstable: gold ${first.outcome} in round ${first.round} of ${s.checks} (${bad.length} of ${s.runs.length} runs)${what}`;
}

/** Receives each gold run's test output, numbered from 0 in the order the runs are listed. */
export type StabilityLog = (index: number, text: string) => Promise<void> | void;

/**
 * Runs the check; `opts` as for runInstance (re-runs are off: each run must pass on its own). `onLog`
 * receives every run's test output, so a run that failed can be read afterwards.
 */
export async function checkStability(
  inst: ExecutionInstance,
  opts: RunOptions,
  checks = DEFAULT_GOLD_CHECKS,
  parallel = DEFAULT_GOLD_PARALLEL,
  healthFile: string | null = null,
  onLog: StabilityLog | null = null,
): Promise<Stability> {
  const runs: StabilityRun[] = [];
  for (let round = 1; round <= checks && !opts.signal?.aborted; round++) {
    const results = await Promise.all(
      Array.from({ length: Math.max(1, parallel) }, () =>
        runInstance(
          inst,
          { instance_id: inst.instance_id, model: 'gold', patch: inst.patch },
          { ...opts, reruns: 0 },
        ),
      ),
    );
    if (healthFile)
      await appendGoldRuns(
        healthFile,
        results.map((r) => goldRun(r.result, opts.runId, 'validate')),
      );
    for (const { result: r, artifacts } of results) {
      if (onLog)
        await onLog(runs.length, framedSection(artifacts['test_output.txt']) ?? artifacts['test_output.txt']);
      runs.push({
        round,
        outcome: r.outcome,
        failing: r.outcome === 'resolved' ? [] : failingTests(r.tests_status),
        error: r.error,
      });
    }
    if (results.some((r) => r.result.outcome !== 'resolved')) break;
  }
  const stable =
    runs.length === checks * Math.max(1, parallel) && runs.every((r) => r.outcome === 'resolved');
  return { checks, parallel: Math.max(1, parallel), stable, runs };
}
