/**
 * Multi-SWE-bench's grading rule (pure). Each test has a status in three stages — run (no patch), test
 * (test patch) and fix (test patch + fix) — each PASS, FAIL, SKIP or NONE (absent). A report is valid when
 * the fix stage has results, no test goes PASS→FAIL from test to fix, at least one test goes non-PASS→PASS,
 * and no test shows the anomaly run PASS, test NONE/SKIP, fix FAIL. Evaluation then requires every test the
 * dataset row lists as p2p / f2p / s2p / n2p to fall in that same category (test stage → fix PASS). Only the
 * fix stage is run; the run and test stages are the row's stored results, as Multi-SWE-bench does.
 */
import type { MsbGrading, MsbStageResult } from '@faun/schema';
import { stableTestName, type TestMap } from '../parsers/index.ts';

export type MsbStatus = 'PASS' | 'FAIL' | 'SKIP' | 'NONE';
export type MsbCategory = 'p2p' | 'f2p' | 's2p' | 'n2p';

/** A parsed status map as one stage's result (PASSED/XFAIL → passed, FAILED/ERROR → failed, SKIPPED → skipped). */
export function stageResult(tests: TestMap): MsbStageResult {
  const out: MsbStageResult = { passed_tests: [], failed_tests: [], skipped_tests: [] };
  for (const [id, s] of Object.entries(tests)) {
    if (s === 'PASSED' || s === 'XFAIL') out.passed_tests.push(id);
    else if (s === 'FAILED' || s === 'ERROR') out.failed_tests.push(id);
    else if (s === 'SKIPPED') out.skipped_tests.push(id);
  }
  for (const k of ['passed_tests', 'failed_tests', 'skipped_tests'] as const) out[k].sort();
  return out;
}

/** The same test id in two outcome lists of one stage: Multi-SWE-bench refuses such a result. */
export function stageConflict(r: MsbStageResult): string | null {
  const seen = new Map<string, string>();
  for (const k of ['passed_tests', 'failed_tests', 'skipped_tests'] as const)
    for (const id of r[k]) {
      const prev = seen.get(id);
      if (prev && prev !== k) return `test ${id} is in both ${prev} and ${k}`;
      seen.set(id, k);
    }
  return null;
}

function statuses(r: MsbStageResult): Map<string, MsbStatus> {
  const m = new Map<string, MsbStatus>();
  for (const id of r.passed_tests) m.set(id, 'PASS');
  for (const id of r.failed_tests) m.set(id, 'FAIL');
  for (const id of r.skipped_tests) m.set(id, 'SKIP');
  return m;
}

export interface MsbTest {
  run: MsbStatus;
  test: MsbStatus;
  fix: MsbStatus;
}

export interface MsbCheck {
  valid: boolean;
  /** Why the report is invalid ('' when valid). */
  error: string;
  /** Every test of the three stages. */
  tests: Record<string, MsbTest>;
  fixed_tests: string[];
  categories: Record<MsbCategory, string[]>;
}

const NO_CATEGORIES = (): Record<MsbCategory, string[]> => ({ p2p: [], f2p: [], s2p: [], n2p: [] });

/** Multi-SWE-bench's `Report.check`: validity and the test categories of one (run, test, fix) triple. */
export function msbCheck(run: MsbStageResult, test: MsbStageResult, fix: MsbStageResult): MsbCheck {
  const [r, t, f] = [statuses(run), statuses(test), statuses(fix)];
  const names = [...new Set([...r.keys(), ...t.keys(), ...f.keys()])].sort();
  const tests: Record<string, MsbTest> = {};
  for (const n of names)
    tests[n] = { run: r.get(n) ?? 'NONE', test: t.get(n) ?? 'NONE', fix: f.get(n) ?? 'NONE' };
  const entries = Object.entries(tests);
  const invalid = (error: string, fixed: string[] = []): MsbCheck => ({
    valid: false,
    error,
    tests,
    fixed_tests: fixed,
    categories: NO_CATEGORIES(),
  });
  if (f.size === 0) return invalid('after the fix patch, no test results were captured');
  const regressed = entries.find(([, x]) => x.test === 'PASS' && x.fix === 'FAIL');
  if (regressed) return invalid(`test ${regressed[0]} passed before the fix patch and fails after it`);
  const fixed = entries.filter(([, x]) => x.test !== 'PASS' && x.fix === 'PASS').map(([n]) => n);
  if (!fixed.length) return invalid('after the fix patch, no test went from not passing to passing');
  const anomaly = entries.find(
    ([, x]) => (x.test === 'NONE' || x.test === 'SKIP') && x.fix === 'FAIL' && x.run === 'PASS',
  );
  if (anomaly)
    return invalid(`anomalous pattern for ${anomaly[0]}: run PASS, test ${anomaly[1].test}, fix FAIL`, fixed);
  const categories = NO_CATEGORIES();
  const of: Partial<Record<MsbStatus, MsbCategory>> = { PASS: 'p2p', FAIL: 'f2p', SKIP: 's2p', NONE: 'n2p' };
  for (const [n, x] of entries) {
    const c = x.fix === 'PASS' ? of[x.test] : undefined;
    if (c) categories[c].push(n);
  }
  return { valid: true, error: '', tests, fixed_tests: fixed, categories };
}

export interface MsbVerdict {
  resolved: boolean;
  /** The report's validity (`Report.check`). */
  valid: boolean;
  /** Why not resolved ('' when resolved). */
  reason: string;
  check: MsbCheck;
  /** Dataset tests, per category, that were (not) in that category after the fix run. */
  found: Record<MsbCategory, { success: string[]; failure: string[] }>;
}

const CATS: MsbCategory[] = ['p2p', 'f2p', 's2p', 'n2p'];
const MSB_RANK: Record<MsbStatus, number> = { NONE: 0, PASS: 1, SKIP: 2, FAIL: 3 };

/**
 * One stage's result under stable test names; names that become one keep the worst outcome (failed over
 * skipped over passed), so the stage never holds a name in two lists.
 */
export function stableStage(r: MsbStageResult): MsbStageResult {
  const by = new Map<string, MsbStatus>();
  for (const [id, s] of statuses(r)) {
    const k = stableTestName(id);
    if (k && MSB_RANK[s] > MSB_RANK[by.get(k) ?? 'NONE']) by.set(k, s);
  }
  const out: MsbStageResult = { passed_tests: [], failed_tests: [], skipped_tests: [] };
  const list: Record<MsbStatus, string[]> = {
    PASS: out.passed_tests,
    FAIL: out.failed_tests,
    SKIP: out.skipped_tests,
    NONE: [],
  };
  for (const [k, s] of [...by].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) list[s].push(k);
  return out;
}

/**
 * Multi-SWE-bench's evaluation (`gen_eval_reports`): the fix stage graded with the row's stored run and
 * test stages; resolved when the report is valid and every dataset test is in its category.
 */
export function msbEvaluate(row: MsbGrading, fix: MsbStageResult): MsbVerdict {
  const none: MsbStageResult = { passed_tests: [], failed_tests: [], skipped_tests: [] };
  // The stages and the row's lists meet as stable names (parsers/stable-names.ts): a test whose name a
  // run printed with a duration or trailing space in one stage and without in another is one test.
  const check = msbCheck(
    stableStage(row.run_result ?? none),
    stableStage(row.test_patch_result ?? none),
    stableStage(fix),
  );
  const found = Object.fromEntries(
    CATS.map((c) => [c, { success: [] as string[], failure: [] as string[] }]),
  ) as MsbVerdict['found'];
  for (const c of CATS) {
    const have = new Set(check.categories[c]);
    for (const id of row[`${c}_tests`])
      found[c][have.has(stableTestName(id)) ? 'success' : 'failure'].push(id);
  }
  let reason = check.valid ? '' : `invalid report: ${check.error}`;
  if (!reason)
    for (const c of CATS)
      if (found[c].failure.length) {
        reason = `${c}_tests not ${c} after the fix: ${found[c].failure.slice(0, 3).join(', ')}${found[c].failure.length > 3 ? ', …' : ''}`;
        break;
      }
  return { resolved: reason === '', valid: check.valid, reason, check, found };
}
