/**
 * Multi-SWE-bench's validation of a new instance (pure): the three stages — run (no patch), test (test
 * patch) and fix (test patch + fix patch) — each repeated; a test whose status (PASS / FAIL / SKIP / NONE)
 * differs between the repeats of any stage is flaky and dropped from every stage; the stable first repeat of
 * each stage then goes through Multi-SWE-bench's `Report.check` ({@link msbCheck}): the instance is valid when
 * that check is, and its p2p / f2p / s2p / n2p lists are the check's.
 */
import type { MsbGrading, MsbStageResult } from '@faun/schema';
import { type MsbCheck, msbCheck, stageResult } from '../grading/grading-msb.ts';
import { stableTestMap, stableTestName, type TestMap } from '../parsers/index.ts';

export interface MsbDerived {
  valid: boolean;
  /** Multi-SWE-bench's reason when invalid ('' when valid). */
  error: string;
  /** SWE-bench view: every test that passes after the fix and did not with the test patch alone (f2p ∪ s2p ∪ n2p). */
  fail_to_pass: string[];
  pass_to_pass: string[];
  f2p: string[];
  s2p: string[];
  n2p: string[];
  fixed: string[];
  flaky: string[];
  stages: { run: MsbStageResult; test: MsbStageResult; fix: MsbStageResult };
  check: MsbCheck;
}

type St = 'PASS' | 'FAIL' | 'SKIP' | 'NONE';
const msbStatus = (s: TestMap[string] | undefined): St =>
  s === undefined ? 'NONE' : s === 'PASSED' || s === 'XFAIL' ? 'PASS' : s === 'SKIPPED' ? 'SKIP' : 'FAIL';

/**
 * Tests whose Multi-SWE-bench status differs between repeats of one stage. Repeats are compared by stable
 * name (parsers/stable-names.ts): a test read as `x` in one repeat and `x ` in the next (a duration printed
 * once) is not flaky for that; every spelling of a flaky test is returned.
 */
export function flakyTests(...stages: TestMap[][]): string[] {
  const flaky = new Set<string>();
  for (const repeats of stages) {
    const stable = repeats.map(stableTestMap);
    const names = new Set(stable.flatMap((m) => Object.keys(m)));
    const bad = new Set<string>();
    for (const n of names) {
      const first = msbStatus(own(stable[0], n));
      if (stable.some((m) => msbStatus(own(m, n)) !== first)) bad.add(n);
    }
    for (const m of repeats) for (const id of Object.keys(m)) if (bad.has(stableTestName(id))) flaky.add(id);
  }
  return [...flaky].sort();
}

const own = (m: TestMap | undefined, k: string) => (m && Object.hasOwn(m, k) ? m[k] : undefined);

function without(m: TestMap | undefined, drop: Set<string>): TestMap {
  return Object.fromEntries(Object.entries(m ?? {}).filter(([id]) => !drop.has(id)));
}

/**
 * One spelling per stable name across the stages (the fix stage's first, then the test and run stages'), so
 * that a test read as `x ` in one stage and `x` in another is one test to `Report.check`; where no run
 * printed a volatile part, every name is kept as the parser read it.
 */
function spellings(...stages: Array<TestMap | undefined>): (m: TestMap) => TestMap {
  const spelling = new Map<string, string>();
  for (const m of stages)
    for (const k of Object.keys(m ?? {})) {
      const n = stableTestName(k);
      if (n && !spelling.has(n)) spelling.set(n, k);
    }
  return (m) => {
    const out: TestMap = {};
    for (const [n, s] of Object.entries(stableTestMap(m))) out[spelling.get(n) ?? n] = s;
    return out;
  };
}

/** Derives validity and the test categories from the repeats of the three stages. */
export function deriveMsb(run: TestMap[], test: TestMap[], fix: TestMap[]): MsbDerived {
  const flaky = flakyTests(run, test, fix);
  const drop = new Set(flaky);
  const spelt = spellings(fix[0], test[0], run[0]);
  const stages = {
    run: stageResult(spelt(without(run[0], drop))),
    test: stageResult(spelt(without(test[0], drop))),
    fix: stageResult(spelt(without(fix[0], drop))),
  };
  const check = msbCheck(stages.run, stages.test, stages.fix);
  const c = check.categories;
  return {
    valid: check.valid,
    error: check.error,
    fail_to_pass: [...new Set([...c.f2p, ...c.s2p, ...c.n2p])].sort(),
    pass_to_pass: [...c.p2p].sort(),
    f2p: c.f2p,
    s2p: c.s2p,
    n2p: c.n2p,
    fixed: check.fixed_tests,
    flaky,
    stages,
    check,
  };
}

/** The grading a validated row carries (Multi-SWE-bench's Dataset fields). */
export function msbGradingOf(d: MsbDerived): MsbGrading {
  return {
    fixed_tests: d.fixed,
    p2p_tests: d.pass_to_pass,
    f2p_tests: d.f2p,
    s2p_tests: d.s2p,
    n2p_tests: d.n2p,
    run_result: d.stages.run,
    test_patch_result: d.stages.test,
    fix_patch_result: d.stages.fix,
  };
}
