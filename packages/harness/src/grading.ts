/**
 * Grading (pure): the test section of a log → per-test statuses → FAIL_TO_PASS / PASS_TO_PASS outcome
 * and RESOLVED_FULL / PARTIAL / NO, with SWE-bench's rules (skips, truncated parametrized ids) and the
 * anti-gaming checks (unique markers must be present; the exit code must agree with the parsed results).
 */
import type { ExecutionResult, TestStatus } from '@faun/schema';
import { normaliseUnittestId, type ParserName, parseLog, type TestMap } from './parsers/index.ts';

export type ResolvedStatus = 'RESOLVED_FULL' | 'RESOLVED_PARTIAL' | 'RESOLVED_NO';
export type TestsStatus = ExecutionResult['tests_status'];
/** `pass_and_fail`: a test passes only when reported passing. `fail_only`: anything not failing passes. */
export type EvalType = 'pass_and_fail' | 'fail_only';

/** The start/end markers framing the test output; the nonce makes them unforgeable by a patch. */
export function markers(nonce: string): { start: string; end: string } {
  return { start: `>>>>> faun test start ${nonce}`, end: `>>>>> faun test end ${nonce}` };
}

/** The text between the markers, or null when either is missing (the suite cannot be shown to have run). */
export function testSection(log: string, nonce: string): string | null {
  const { start, end } = markers(nonce);
  const i = log.indexOf(start);
  if (i < 0) return null;
  const j = log.indexOf(end, i + start.length);
  if (j < 0) return null;
  return log.slice(i + start.length, j);
}

const BAD: ReadonlySet<TestStatus> = new Set(['FAILED', 'ERROR']);
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

function succeeded(
  status: TestStatus | undefined,
  kind: 'f2p' | 'p2p',
  evalType: EvalType,
  id: string,
): boolean {
  if (isProgressArtifact(id)) return true;
  if (evalType === 'fail_only') return status === undefined || !BAD.has(status);
  if (status === 'PASSED' || status === 'XFAIL') return true;
  return kind === 'p2p' && status === 'SKIPPED';
}

export interface GradeInput {
  /** The whole test output (markers included). */
  log: string;
  nonce: string;
  /** Exit code of the test command (null when it never finished). */
  exitCode: number | null;
  parser: ParserName;
  failToPass: string[];
  passToPass: string[];
  failToFail?: string[];
  passToFail?: string[];
  evalType?: EvalType;
  /** Whether the test command's exit code is nonzero exactly when a test fails (default true). */
  exitCodeReliable?: boolean;
}

export interface Grade {
  /** False when the log cannot be trusted: the tests count as failed. */
  valid: boolean;
  invalidReason: string | null;
  tests: TestMap;
  tests_status: TestsStatus;
  resolved_status: ResolvedStatus;
}

const bucket = () => ({ success: [] as string[], failure: [] as string[] });

/** Checks the log's integrity; null when it can be trusted. */
export function integrityProblem(
  section: string | null,
  tests: TestMap,
  exitCode: number | null,
  exitReliable: boolean,
) {
  if (section === null) return 'no evidence the test suite ran: start/end markers missing';
  if (exitCode === null || !exitReliable) return null;
  const statuses = Object.values(tests);
  const failing = statuses.some((s) => BAD.has(s));
  if (exitCode !== 0 && statuses.length > 0 && !failing)
    return `test command exited ${exitCode} but the log shows no failing test`;
  if (exitCode === 0 && failing) return 'test command exited 0 but the log shows failing tests';
  return null;
}

/** Grades one test log against the instance's test lists. */
export function gradeLog(input: GradeInput): Grade {
  const evalType = input.evalType ?? 'pass_and_fail';
  const section = testSection(input.log, input.nonce);
  const tests = section === null ? {} : parseLog(input.parser, section);
  const problem = integrityProblem(section, tests, input.exitCode, input.exitCodeReliable ?? true);
  const view = problem ? {} : tests;
  const status: TestsStatus = {
    FAIL_TO_PASS: bucket(),
    PASS_TO_PASS: bucket(),
    FAIL_TO_FAIL: bucket(),
    PASS_TO_FAIL: bucket(),
  };
  const lists: Array<[keyof TestsStatus, string[], 'f2p' | 'p2p']> = [
    ['FAIL_TO_PASS', input.failToPass, 'f2p'],
    ['PASS_TO_PASS', input.passToPass, 'p2p'],
    ['FAIL_TO_FAIL', input.failToFail ?? [], 'p2p'],
    ['PASS_TO_FAIL', input.passToFail ?? [], 'p2p'],
  ];
  for (const [key, ids, kind] of lists) {
    const fail_only = problem ? 'pass_and_fail' : evalType;
    for (const id of ids) {
      const ok = succeeded(lookupStatus(view, id), kind, fail_only, id);
      status[key][ok ? 'success' : 'failure'].push(id);
    }
  }
  return {
    valid: problem === null,
    invalidReason: problem,
    tests,
    tests_status: status,
    resolved_status: resolvedStatus(status),
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
