import { describe, expect, test } from 'bun:test';
import {
  gradeLog,
  isProgressArtifact,
  lookupStatus,
  markers,
  resolvedStatus,
  testSection,
} from './grading.ts';

const NONCE = 'n0nce';
const { start, end } = markers(NONCE);
const wrap = (body: string[]) => ['+ setup noise', start, ...body, end, 'trailer'].join('\n');

const base = {
  nonce: NONCE,
  parser: 'pytest' as const,
  failToPass: ['t.py::test_fix_a', 't.py::test_fix_b'],
  passToPass: ['t.py::test_keep'],
};

describe('gradeLog', () => {
  test('all F2P and P2P pass → RESOLVED_FULL', () => {
    const log = wrap(['PASSED t.py::test_fix_a', 'PASSED t.py::test_fix_b', 'PASSED t.py::test_keep']);
    const g = gradeLog({ ...base, log, exitCode: 0 });
    expect(g.valid).toBe(true);
    expect(g.resolved_status).toBe('RESOLVED_FULL');
    expect(g.tests_status.FAIL_TO_PASS).toEqual({
      success: ['t.py::test_fix_a', 't.py::test_fix_b'],
      failure: [],
    });
  });

  test('half the F2P → PARTIAL; a P2P skip still counts as success', () => {
    const log = wrap(['PASSED t.py::test_fix_a', 'FAILED t.py::test_fix_b - x', 'SKIPPED t.py::test_keep']);
    const g = gradeLog({ ...base, log, exitCode: 1 });
    expect(g.resolved_status).toBe('RESOLVED_PARTIAL');
    expect(g.tests_status.PASS_TO_PASS.success).toEqual(['t.py::test_keep']);
  });

  test('a skipped F2P test is a failure; a missing one too', () => {
    const log = wrap(['SKIPPED t.py::test_fix_a', 'PASSED t.py::test_keep']);
    const g = gradeLog({ ...base, log, exitCode: 0 });
    expect(g.tests_status.FAIL_TO_PASS.failure).toEqual(['t.py::test_fix_a', 't.py::test_fix_b']);
    expect(g.resolved_status).toBe('RESOLVED_NO');
  });

  test('forged PASSED lines with a nonzero exit code make the log invalid', () => {
    const log = wrap(['PASSED t.py::test_fix_a', 'PASSED t.py::test_fix_b', 'PASSED t.py::test_keep']);
    const g = gradeLog({ ...base, log, exitCode: 1 });
    expect(g.valid).toBe(false);
    expect(g.invalidReason).toContain('exited 1');
    expect(g.resolved_status).toBe('RESOLVED_NO');
  });

  test('exit 0 while the log shows failures is flagged, not a different verdict', () => {
    const log = wrap(['FAILED t.py::test_fix_a', 'PASSED t.py::test_keep']);
    const g = gradeLog({ ...base, log, exitCode: 0 });
    expect(g.valid).toBe(true);
    expect(g.resolved_status).toBe('RESOLVED_NO');
    expect(g.flags).toContain('exit-zero-with-failures');
  });

  test('markers without the nonce are not markers: no evidence the suite ran', () => {
    const log = [
      '>>>>> faun test start forged',
      'PASSED t.py::test_fix_a',
      '>>>>> faun test end forged',
    ].join('\n');
    const g = gradeLog({ ...base, log, exitCode: 0 });
    expect(g.valid).toBe(false);
    expect(g.invalidReason).toContain('markers missing');
  });

  test('lines outside the markers are ignored', () => {
    const log = [
      'PASSED t.py::test_fix_a',
      start,
      'PASSED t.py::test_keep',
      end,
      'PASSED t.py::test_fix_b',
    ].join('\n');
    const g = gradeLog({ ...base, log, exitCode: 0 });
    expect(g.tests_status.FAIL_TO_PASS.failure).toEqual(['t.py::test_fix_a', 't.py::test_fix_b']);
  });

  test('fail_only: anything not failing passes', () => {
    const log = wrap(['FAILED t.py::test_fix_b - boom']);
    const g = gradeLog({ ...base, log, exitCode: 1, evalType: 'fail_only' });
    expect(g.tests_status.FAIL_TO_PASS).toEqual({
      success: ['t.py::test_fix_a'],
      failure: ['t.py::test_fix_b'],
    });
  });

  test('no test results and no sign the suite ran (build broken) is an unusable log', () => {
    const g = gradeLog({ ...base, log: wrap(['SyntaxError: invalid syntax']), exitCode: 2 });
    expect(g.valid).toBe(false);
    expect(g.invalidReason).toContain('no sign the test suite ran');
    expect(g.resolved_status).toBe('RESOLVED_NO');
  });
});

test('progress fragments listed as test ids ([100%], [) count as passing', () => {
  const log = wrap(['PASSED t.py::test_fix_a', 'PASSED t.py::test_fix_b', 'PASSED t.py::test_keep']);
  const g = gradeLog({ ...base, passToPass: ['t.py::test_keep', '[100%]', '['], log, exitCode: 0 });
  expect(g.resolved_status).toBe('RESOLVED_FULL');
  expect(isProgressArtifact('[ 50%]')).toBe(true);
  expect(isProgressArtifact('[100%]------------------------------')).toBe(true);
  expect(isProgressArtifact('t.py::test[1]')).toBe(false);
});

describe('lookupStatus', () => {
  test('truncated parametrized ids prefix-match (worst status wins)', () => {
    const tests = { 't.py::test_p[a b-1]': 'PASSED', 't.py::test_p[a b-2]': 'FAILED' } as const;
    expect(lookupStatus({ ...tests }, 't.py::test_p[a')).toBe('FAILED');
    expect(lookupStatus({ 't.py::test_p[a b-1]': 'PASSED' }, 't.py::test_p[a')).toBe('PASSED');
  });

  test('class-level and Class#method ids against method-level JUnit ids', () => {
    const tests = { 'com.ex.CalcTest.adds': 'PASSED', 'com.ex.CalcTest.subs': 'PASSED' } as const;
    expect(lookupStatus({ ...tests }, 'com.ex.CalcTest')).toBe('PASSED');
    expect(lookupStatus({ ...tests }, 'com.ex.CalcTest#adds')).toBe('PASSED');
    expect(lookupStatus({ ...tests }, 'com.ex.Calc')).toBeUndefined();
  });

  test('unittest ids in the Python 3.11 form', () => {
    expect(lookupStatus({ 'test_a (m.C)': 'PASSED' }, 'test_a (m.C.test_a)')).toBe('PASSED');
  });
});

test('resolvedStatus with no F2P tests counts the F2P rate as 1', () => {
  const empty = { success: [], failure: [] };
  expect(
    resolvedStatus({
      FAIL_TO_PASS: empty,
      PASS_TO_PASS: { success: ['a'], failure: [] },
      FAIL_TO_FAIL: empty,
      PASS_TO_FAIL: empty,
    }),
  ).toBe('RESOLVED_FULL');
});

test('testSection needs both markers in order', () => {
  expect(testSection(`${end}\n${start}\nx`, NONCE)).toBeNull();
  expect(testSection(`${start}\nx\n${end}`, NONCE)).toBe('\nx\n');
});

describe('faun checks are flags beside the reference verdict', () => {
  const swe = (body: string[], exit: number) =>
    [
      start,
      '>>>>> Start Test Output',
      ...body,
      '>>>>> End Test Output',
      end,
      `>>>>> Test Exit Code: ${exit}`,
    ].join('\n');

  test('a forged exit-code line inside the output: the reference reads it, faun flags the mismatch', () => {
    const body = [
      '>>>>> Test Exit Code: 0',
      'PASSED t.py::test_fix_a',
      'PASSED t.py::test_fix_b',
      'PASSED t.py::test_keep',
    ];
    const g = gradeLog({ ...base, log: swe(body, 1), exitCode: 1 });
    expect(g.resolved_status).toBe('RESOLVED_FULL');
    expect(g.flags).toContain('exit-code-mismatch');
  });

  test('a log of the row’s own script (no nonce) is graded between SWE-bench’s markers', () => {
    const log = [
      "+ : '>>>>> Start Test Output'",
      'PASSED t.py::test_fix_a',
      'PASSED t.py::test_fix_b',
      'PASSED t.py::test_keep',
      "+ : '>>>>> End Test Output'",
    ].join('\n');
    const g = gradeLog({ ...base, nonce: null, log, exitCode: null });
    expect(g.resolved_status).toBe('RESOLVED_FULL');
    expect(g.flags).toEqual([]);
  });

  test('a repeated start marker is flagged', () => {
    const g = gradeLog({
      ...base,
      log: swe(['>>>>> Start Test Output', 'PASSED t.py::test_keep'], 0),
      exitCode: 0,
    });
    expect(g.flags).toContain('markers-repeated');
  });
});
