/**
 * Grading (pure): a test log → per-test statuses → the verdict of the reference grader the row comes from —
 * SWE-bench's (`grading-swebench.ts`: markers, suite-ran and exit-code checks, FAIL_TO_PASS / PASS_TO_PASS,
 * RESOLVED_FULL / PARTIAL / NO) or Multi-SWE-bench's (`grading-msb.ts`). A log the grader framed itself
 * (framing.ts) that holds marker text it did not write is `tampered`, whatever its tests say; faun's other
 * stricter checks (the exit code it saw itself, exit 0 with failing tests) are recorded as flags.
 */
import type { ExecutionResult, MsbGrading, TestStatus } from '@faun/schema';
import {
  normaliseUnittestId,
  type ParserName,
  parseLog,
  stableTestMap,
  stableTestName,
  type TestMap,
} from '../parsers/index.ts';
import { forgedMarkers, framedSection } from './framing.ts';
import { msbEvaluate, stageConflict, stageResult } from './grading-msb.ts';
import { type EvalType, judged, referenceLog, referenceStatus, SWE_MARKERS } from './grading-swebench.ts';

export type { EvalType } from './grading-swebench.ts';
export type ResolvedStatus = 'RESOLVED_FULL' | 'RESOLVED_PARTIAL' | 'RESOLVED_NO';
export type TestsStatus = ExecutionResult['tests_status'];

const RANK: Record<TestStatus, number> = { PASSED: 0, XFAIL: 1, SKIPPED: 2, FAILED: 3, ERROR: 4 };

function worst(statuses: TestStatus[]): TestStatus | undefined {
  return statuses.reduce<TestStatus | undefined>(
    (a, s) => (a === undefined || RANK[s] > RANK[a] ? s : a),
    undefined,
  );
}

/**
 * The status of a listed test id in `tests`: exact id, then id variants (unittest 3.11 form, `Class#method`),
 * then SWE-bench's truncated parametrized ids (`test_x[a` matches every `test_x[a…]`), then a class-level id
 * aggregating its methods (`com.ex.CalcTest` → worst of `com.ex.CalcTest.*`).
 */
export function lookupStatus(tests: TestMap, id: string): TestStatus | undefined {
  const direct = tests[id] ?? tests[normaliseUnittestId(id)] ?? tests[id.replace('#', '.')];
  if (direct) return direct;
  const keys = Object.keys(tests);
  if (id.includes('[') && !id.endsWith(']')) {
    const hits = keys.filter((k) => k.startsWith(id));
    if (hits.length) return worst(hits.map((k) => tests[k]!));
  }
  const children = keys.filter(
    (k) => k.startsWith(`${id}.`) || k.startsWith(`${id} > `) || k.startsWith(`${id}/`),
  );
  return children.length ? worst(children.map((k) => tests[k]!)) : undefined;
}

/**
 * Ids that are not tests but progress fragments (`[100%]`, `[`) — SWE-bench's own parser produced them from
 * status words printed on a line of their own, and some dataset rows list them. They count as passing.
 */
export function isProgressArtifact(id: string): boolean {
  return /^\[\s*\d*%?\s*\]?[-=\s]*$/.test(id.trim());
}

export interface GradeInput {
  /** The whole stored log. */
  log: string;
  /** The grader framed the log itself (faun's own steps); false for the output of a row's own script. */
  framed: boolean;
  /** A log stored before framing: the nonce of the faun markers it carries (its own, once each). */
  legacyNonce?: string | null;
  /** Exit code of the test command as the runner saw it (null when unknown or it never finished). */
  exitCode: number | null;
  parser: ParserName;
  /**
   * The parser is the reference's own for this row, so ids are matched exactly as the reference matches
   * them. Otherwise (faun's parsers) id variants are tolerated too — unittest 3.11 form, `Class#method`,
   * class-level JUnit ids, progress fragments — and each such match is flagged.
   */
  exactIds?: boolean;
  failToPass: string[];
  passToPass: string[];
  failToFail?: string[];
  passToFail?: string[];
  evalType?: EvalType;
  /** A Multi-SWE-bench row: graded by its rule against the row's categories and stored stages. */
  msb?: MsbGrading | null;
}

export interface Grade {
  /** False when the log cannot be used (the reference reports the patch as not applied): tests fail. */
  valid: boolean;
  invalidReason: string | null;
  /** Why a usable log does not resolve the row under Multi-SWE-bench's rule (null otherwise). */
  note: string | null;
  tests: TestMap;
  tests_status: TestsStatus;
  resolved_status: ResolvedStatus;
  /** faun's stricter checks that fired; they never change the verdict. */
  flags: string[];
  /** What the code under test forged in a framed log (non-empty: the verdict is `tampered`). */
  tampered: string[];
}

const bucket = () => ({ success: [] as string[], failure: [] as string[] });
const isBad = (s: TestStatus) => s === 'FAILED' || s === 'ERROR';
const count = (s: string, sub: string) => s.split(sub).length - 1;

/** faun's own checks on a log, as flags. */
function faunFlags(input: GradeInput, tests: TestMap, usedExit: number | null): string[] {
  const flags: string[] = [];
  if (!input.framed && (count(input.log, SWE_MARKERS.start) > 1 || count(input.log, SWE_MARKERS.end) > 1))
    flags.push('markers-repeated');
  if (input.exitCode !== null && usedExit !== null && input.exitCode !== usedExit)
    flags.push('exit-code-mismatch');
  const exit = input.exitCode ?? usedExit;
  if (exit === 0 && Object.values(tests).some(isBad)) flags.push('exit-zero-with-failures');
  return flags;
}

/** A listed id's status: the reference's lookup, then (for faun's parsers) id variants, each noted. */
function statusFinder(tests: TestMap, exact: boolean, variants: Set<string>) {
  return (id: string): TestStatus | null => {
    const s = referenceStatus(id, tests);
    if (s !== null || exact) return s;
    const v = isProgressArtifact(id) ? 'PASSED' : lookupStatus(tests, id);
    if (v === undefined) return null;
    variants.add(id);
    return v;
  };
}

/** Grades one test log against the row's test lists by the rule of the row's reference grader. */
export function gradeLog(input: GradeInput): Grade {
  const forged = input.framed ? forgedMarkers(input.log, input.legacyNonce ?? null) : [];
  if (forged.length) return tamperedGrade(input, forged);
  if (input.msb) return gradeMsb(input, input.msb);
  const evalType = input.evalType ?? 'pass_and_fail';
  const ref = referenceLog(input.log, (t) => parseLog(input.parser, t), SWE_MARKERS, input.exitCode);
  const flags = faunFlags(input, ref.tests, ref.exitCode);
  if (ref.wholeLog && ref.found) flags.push('whole-log-parsed');
  const status: TestsStatus = {
    FAIL_TO_PASS: bucket(),
    PASS_TO_PASS: bucket(),
    FAIL_TO_FAIL: bucket(),
    PASS_TO_FAIL: bucket(),
  };
  if (!ref.found) {
    const failed = failedStatus(input.failToPass, input.passToPass);
    return {
      valid: false,
      invalidReason: ref.reason,
      note: null,
      tests: ref.tests,
      tests_status: failed,
      resolved_status: 'RESOLVED_NO',
      flags,
      tampered: [],
    };
  }
  const variants = new Set<string>();
  // Listed and parsed names meet as stable names: a duration, colour or worker tag never decides a verdict.
  const stable = stableTestMap(ref.tests);
  const statusOf = statusFinder(stable, Boolean(input.exactIds), variants);
  const lists: Array<[keyof TestsStatus, string[], 'f2p' | 'p2p']> = [
    ['FAIL_TO_PASS', input.failToPass, 'f2p'],
    ['PASS_TO_PASS', input.passToPass, 'p2p'],
    ['FAIL_TO_FAIL', input.failToFail ?? [], 'f2p'],
    ['PASS_TO_FAIL', input.passToFail ?? [], 'f2p'],
  ];
  for (const [key, ids, kind] of lists)
    for (const id of ids)
      status[key][judged(stableTestName(id), stable, kind, evalType, statusOf) ? 'success' : 'failure'].push(
        id,
      );
  if (variants.size) flags.push(`id-variants:${variants.size}`);
  return {
    valid: true,
    invalidReason: null,
    note: null,
    tests: ref.tests,
    tests_status: status,
    resolved_status: resolvedStatus(status),
    flags,
    tampered: [],
  };
}

/** A framed log with forged markers: nothing in it is read; every listed test fails. */
function tamperedGrade(input: GradeInput, forged: string[]): Grade {
  const listed = input.msb
    ? [...input.msb.f2p_tests, ...input.msb.s2p_tests, ...input.msb.n2p_tests]
    : input.failToPass;
  return {
    valid: false,
    invalidReason: `tampered: ${forged.join('; ')}`,
    note: null,
    tests: {},
    tests_status: failedStatus(listed, input.msb ? input.msb.p2p_tests : input.passToPass),
    resolved_status: 'RESOLVED_NO',
    flags: [],
    tampered: forged,
  };
}

/** The part of a log Multi-SWE-bench's parser reads: faun's marked section when present, else all of it. */
function msbSection(log: string, framed: boolean): string {
  if (framed) return framedSection(log) ?? log;
  if (!log.includes(SWE_MARKERS.start) || !log.includes(SWE_MARKERS.end)) return log;
  return log.split(SWE_MARKERS.start)[1]!.split(SWE_MARKERS.end)[0]!;
}

function gradeMsb(input: GradeInput, msb: MsbGrading): Grade {
  const tests = parseLog(input.parser, msbSection(input.log, input.framed));
  const flags = faunFlags(input, tests, input.exitCode);
  const fix = stageResult(tests);
  const status: TestsStatus = {
    FAIL_TO_PASS: bucket(),
    PASS_TO_PASS: bucket(),
    FAIL_TO_FAIL: bucket(),
    PASS_TO_FAIL: bucket(),
  };
  const listed = [...msb.f2p_tests, ...msb.s2p_tests, ...msb.n2p_tests];
  const base = { tests, flags, note: null as string | null, tampered: [] as string[] };
  if (!Object.keys(tests).length)
    return {
      ...base,
      valid: false,
      invalidReason: 'after the fix patch, no test results were captured',
      tests_status: failedStatus(listed, msb.p2p_tests),
      resolved_status: 'RESOLVED_NO',
    };
  const stored = [msb.run_result, msb.test_patch_result]
    .map((r) => (r ? stageConflict(r) : null))
    .find(Boolean);
  if (stored)
    return {
      ...base,
      valid: false,
      invalidReason: `the row's stored stage results are inconsistent: ${stored}`,
      tests_status: failedStatus(listed, msb.p2p_tests),
      resolved_status: 'RESOLVED_NO',
    };
  if (!msb.run_result || !msb.test_patch_result) {
    // Without the stored stages only the fix stage can be checked: every listed test must pass.
    flags.push('msb-stage-results-missing');
    const stable = stableTestMap(tests);
    const passed = (id: string) => {
      const k = stableTestName(id);
      return Object.hasOwn(stable, k) && (stable[k] === 'PASSED' || stable[k] === 'XFAIL');
    };
    for (const [key, ids] of [
      ['FAIL_TO_PASS', listed],
      ['PASS_TO_PASS', msb.p2p_tests],
    ] as const)
      for (const id of ids) status[key][passed(id) ? 'success' : 'failure'].push(id);
    const ok = !status.FAIL_TO_PASS.failure.length && !status.PASS_TO_PASS.failure.length;
    return {
      ...base,
      valid: true,
      invalidReason: null,
      note: ok ? null : 'a listed test does not pass after the fix',
      tests_status: status,
      resolved_status: ok ? 'RESOLVED_FULL' : 'RESOLVED_NO',
    };
  }
  const v = msbEvaluate(msb, fix);
  for (const c of ['f2p', 's2p', 'n2p'] as const) {
    status.FAIL_TO_PASS.success.push(...v.found[c].success);
    status.FAIL_TO_PASS.failure.push(...v.found[c].failure);
  }
  status.PASS_TO_PASS = { success: [...v.found.p2p.success], failure: [...v.found.p2p.failure] };
  return {
    ...base,
    valid: true,
    invalidReason: null,
    note: v.resolved ? null : v.reason,
    tests_status: status,
    resolved_status: v.resolved ? 'RESOLVED_FULL' : 'RESOLVED_NO',
  };
}

/** SWE-bench's rule: FULL when every F2P and P2P test succeeds; PARTIAL when some (not all) F2P do and all P2P. */
export function resolvedStatus(s: TestsStatus): ResolvedStatus {
  const rate = (b: { success: string[]; failure: string[] }) => {
    const n = b.success.length + b.failure.length;
    return n === 0 ? 1 : b.success.length / n;
  };
  const f2p = rate(s.FAIL_TO_PASS);
  const p2p = rate(s.PASS_TO_PASS);
  if (f2p === 1 && p2p === 1) return 'RESOLVED_FULL';
  if (f2p > 0 && f2p < 1 && p2p === 1) return 'RESOLVED_PARTIAL';
  return 'RESOLVED_NO';
}

/** An empty tests_status (every listed test a failure), for apply failures, timeouts and infra errors. */
export function failedStatus(failToPass: string[], passToPass: string[]): TestsStatus {
  return {
    FAIL_TO_PASS: { success: [], failure: [...failToPass] },
    PASS_TO_PASS: { success: [], failure: [...passToPass] },
    FAIL_TO_FAIL: bucket(),
    PASS_TO_FAIL: bucket(),
  };
}
