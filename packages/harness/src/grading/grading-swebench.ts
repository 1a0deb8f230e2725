/**
 * SWE-bench's grading rule (pure): which part of a log is read, when a log is not to be trusted, and how
 * each FAIL_TO_PASS / PASS_TO_PASS test is judged (`pass_and_fail` or `fail_only`), with the tolerance for
 * truncated parametrized ids. faun's stricter checks never change this verdict: they are returned as flags.
 */
import type { TestStatus } from '@faun/schema';
import type { TestMap } from '../parsers/index.ts';

/** SWE-bench's log markers and the lines that make a log unusable. */
export const SWE_MARKERS = {
  start: '>>>>> Start Test Output',
  end: '>>>>> End Test Output',
  exitCode: '>>>>> Test Exit Code',
} as const;
export const SWE_BAD_CODES = [
  '>>>>> Patch Apply Failed',
  '>>>>> Reset Failed',
  '>>>>> Tests Errored',
  '>>>>> Tests Timed Out',
] as const;

/**
 * Evidence that a runner executed at least one test even though no status line was parsed (karma, mocha,
 * jest, TAP, jasmine summaries and openlayers' per-case `': ok`). Every count must be non-zero.
 */
const SUITE_RAN_PATTERNS = [
  String.raw`Executed [1-9]\d* of \d+`,
  String.raw`TOTAL: [1-9]\d* (?:SUCCESS|FAILED)`,
  String.raw`[1-9]\d* passing`,
  String.raw`Tests:\s+[1-9]\d*`,
  String.raw`Test Suites:\s+(?:\d+ \w+, )*[1-9]\d* total`,
  String.raw`^# tests [1-9]\d*`,
  String.raw`[1-9]\d* specs?, \d+ failures?`,
  "': ok$",
];
const SUITE_RAN = new RegExp(SUITE_RAN_PATTERNS.join('|'), 'm');

export function suiteRan(log: string): boolean {
  return SUITE_RAN.test(log);
}

const EXIT_RE = /(?:>>>>> Test Exit Code):\s*(-?\d+)/;

/** The test command's exit code the eval script recorded in the log (first occurrence), or null. */
export function recordedExitCode(log: string): number | null {
  const m = EXIT_RE.exec(log);
  return m ? Number(m[1]) : null;
}

/** Python's `s.split(sep)[i]` (undefined when there are fewer parts). */
function splitPart(s: string, sep: string, i: number): string | undefined {
  return s.split(sep)[i];
}

export interface ReferenceLog {
  /** False: SWE-bench would report the patch as not applied / the log as unusable. */
  found: boolean;
  reason: string | null;
  tests: TestMap;
  /** The marked section parsed to nothing, so the whole log was parsed. */
  wholeLog: boolean;
  /** The exit code used for the cross-check (the recorded one, else the one the runner saw). */
  exitCode: number | null;
}

/**
 * SWE-bench's `get_logs_eval` on one log: unusable when it carries a failure code or lacks a marker; the
 * section between the first start marker and the next end marker is parsed (the whole log when that gives
 * nothing); no results and no sign the suite ran is unusable; a non-zero exit code with no FAILED/ERROR
 * test is unusable. `fallbackExit` is used only when the log records no exit code.
 */
export function referenceLog(
  log: string,
  parse: (text: string) => TestMap,
  markers: { start: string; end: string } = SWE_MARKERS,
  fallbackExit: number | null = null,
): ReferenceLog {
  const bad = SWE_BAD_CODES.filter((c) => log.includes(c));
  const recorded = recordedExitCode(log);
  const exitCode = recorded ?? fallbackExit;
  const no = (reason: string): ReferenceLog => ({
    found: false,
    reason,
    tests: {},
    wholeLog: false,
    exitCode,
  });
  if (bad.length) return no(`the log contains ${bad.map((b) => `'${b}'`).join(', ')}`);
  if (!log.includes(markers.start) || !log.includes(markers.end))
    return no('no evidence the test suite ran: start/end markers missing');
  const section = splitPart(splitPart(log, markers.start, 1) ?? '', markers.end, 0) ?? '';
  let tests = parse(section);
  let wholeLog = false;
  if (!Object.keys(tests).length) {
    tests = parse(log);
    wholeLog = true;
  }
  const statuses = Object.values(tests);
  if (!statuses.length && !suiteRan(log))
    return { ...no('no test results in the log and no sign the test suite ran'), wholeLog };
  if (exitCode !== null && exitCode !== 0 && statuses.length && !statuses.some(isFailure))
    return { ...no(`test command exited ${exitCode} but the log shows no failing test`), wholeLog };
  return { found: true, reason: null, tests, wholeLog, exitCode };
}

const isFailure = (s: TestStatus) => s === 'FAILED' || s === 'ERROR';
const PASSING: ReadonlySet<TestStatus> = new Set(['PASSED', 'XFAIL']);

/**
 * The status-map key for a listed id: the id itself, or — for ids truncated inside a parameter (more `[` than
 * `]`) — the first key it prefixes, provided all such keys agree on passing vs not.
 */
export function resolveCase(id: string, tests: TestMap): string | null {
  if (Object.hasOwn(tests, id)) return id;
  if (id.split('[').length > id.split(']').length) {
    const matches = Object.keys(tests).filter((k) => k.startsWith(id));
    if (matches.length && new Set(matches.map((k) => PASSING.has(tests[k]!))).size === 1) return matches[0]!;
  }
  return null;
}

export type Judge = 'f2p' | 'p2p';
export type EvalType = 'pass_and_fail' | 'fail_only';

/** The reference's status of a listed id in `tests` (via `resolveCase`), or null when absent. */
export function referenceStatus(id: string, tests: TestMap): TestStatus | null {
  const key = resolveCase(id, tests);
  return key === null ? null : tests[key]!;
}

/**
 * Whether one listed test succeeded: `pass_and_fail` — PASSED/XFAIL (P2P: also SKIPPED); `fail_only` —
 * anything but a FAILED entry under exactly this id (ERROR and absent count as success).
 * `statusOf` finds a listed id's status (default: the reference's `resolveCase`).
 */
export function judged(
  id: string,
  tests: TestMap,
  kind: Judge,
  evalType: EvalType,
  statusOf: (id: string) => TestStatus | null = (i) => referenceStatus(i, tests),
): boolean {
  if (evalType === 'fail_only') return !(Object.hasOwn(tests, id) && tests[id] === 'FAILED');
  const s = statusOf(id);
  if (s === null) return false;
  return PASSING.has(s) || (kind === 'p2p' && s === 'SKIPPED');
}
