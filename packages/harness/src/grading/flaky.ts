/**
 * Flake-aware grading (pure). When a listed test fails, the instance runs again in fresh sandboxes; each
 * listed test then has passes / runs. The reference rule is kept — a test that ever fails is failed — and
 * what failed and then passed on a re-run is named `flaky` beside it, so a report can count resolved,
 * unresolved and flaky apart. `--flaky-policy passed` counts a flaky test as passed instead. Runs are
 * matched test by test through stable names (parsers/stable-names.ts).
 */
import type { ExecutionResult, TestRuns } from '@faun/schema';
import { stableTestName } from '../parsers/index.ts';

export type FlakyPolicy = 'failed' | 'passed';
export const FLAKY_POLICIES: readonly FlakyPolicy[] = ['failed', 'passed'];
/** Re-runs of an instance with a failing listed test, at most (each in a fresh sandbox). */
export const DEFAULT_RERUNS = 2;

type TestsStatus = ExecutionResult['tests_status'];
type Bucket = keyof TestsStatus;
const BUCKETS: Bucket[] = ['FAIL_TO_PASS', 'PASS_TO_PASS', 'FAIL_TO_FAIL', 'PASS_TO_FAIL'];

/** Listed tests that failed in a run, by stable name. */
export function failingTests(s: TestsStatus): string[] {
  return [...new Set(BUCKETS.flatMap((b) => s[b].failure.map(stableTestName)))].sort();
}

export interface Merged {
  tests_status: TestsStatus;
  test_runs: TestRuns;
  /** Listed tests that failed in some run and passed in another. */
  flaky: string[];
  /** Listed tests that failed in every run. */
  alwaysFailed: string[];
}

/**
 * Merges the statuses of several runs of one instance (the first is the original): a listed test succeeds
 * when it passed in every run (`failed` policy, the reference's rule) or in at least one (`passed`).
 */
export function mergeRuns(runs: TestsStatus[], policy: FlakyPolicy = 'failed'): Merged {
  const first = runs[0]!;
  // passes per stable name, each run counted once per test
  const passes = new Map<string, number>();
  for (const r of runs)
    for (const k of new Set(BUCKETS.flatMap((b) => r[b].success.map(stableTestName))))
      passes.set(k, (passes.get(k) ?? 0) + 1);
  const n = runs.length;
  const passCount = (id: string) => passes.get(stableTestName(id)) ?? 0;
  const test_runs: TestRuns = {};
  const merged = {} as TestsStatus;
  for (const b of BUCKETS) {
    const ids = [...first[b].success, ...first[b].failure];
    const ok = (id: string) => (policy === 'passed' ? passCount(id) > 0 : passCount(id) === n);
    merged[b] = { success: ids.filter(ok), failure: ids.filter((id) => !ok(id)) };
    for (const id of ids) test_runs[id] = { passes: passCount(id), runs: n };
  }
  const all = Object.entries(test_runs);
  return {
    tests_status: merged,
    test_runs,
    flaky: all
      .filter(([, r]) => r.passes > 0 && r.passes < r.runs)
      .map(([id]) => id)
      .sort(),
    alwaysFailed: all
      .filter(([, r]) => r.passes === 0)
      .map(([id]) => id)
      .sort(),
  };
}

/** Whether to run again: some listed test failed and not every one of those has passed in a later run yet. */
export function wantsRerun(runs: TestsStatus[], maxReruns: number): boolean {
  if (runs.length === 0 || runs.length > maxReruns) return false;
  const failed = failingTests(runs[0]!);
  if (!failed.length) return false;
  const passedLater = new Set(
    runs.slice(1).flatMap((r) => BUCKETS.flatMap((b) => r[b].success.map(stableTestName))),
  );
  return failed.some((id) => !passedLater.has(id));
}

/** The outcome of merged runs: resolved, or flaky when every failure passed in some run, else unresolved. */
export function mergedOutcome(
  m: Merged,
  resolved: (s: TestsStatus) => boolean,
  policy: FlakyPolicy,
): 'resolved' | 'unresolved' | 'flaky' {
  if (resolved(m.tests_status)) return 'resolved';
  if (policy === 'failed' && m.flaky.length && !m.alwaysFailed.length) return 'flaky';
  return 'unresolved';
}
