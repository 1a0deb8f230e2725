import { describe, expect, test } from 'bun:test';
import { forgedMarkers, framedSection, frameLog } from './framing.ts';
import { gradeLog, isProgressArtifact, lookupStatus, resolvedStatus } from './grading.ts';

/** A log as the grader frames it; `exit` is what the runtime reported for the test command. */
const wrap = (body: string[], exit = 0) => frameLog('+ setup noise', body.join('\n'), exit);

const base = {
  framed: true,
  parser: 'pytest' as const,
  failToPass: ['t.py::test_fix_a', 't.py::test_fix_b'],
  passToPass: ['t.py::test_keep'],
};

describe('gradeLog', () => {
  test('all F2P and P2P pass → RESOLVED_FULL', () => {
    const log = wrap(['PASSED t.py::test_fix_a', 'PASSED t.py::test_fix_b', 'PASSED t.py::test_keep'], 0);
    const g = gradeLog({ ...base, log, exitCode: 0 });
    expect(g.valid).toBe(true);
    expect(g.resolved_status).toBe('RESOLVED_FULL');
    expect(g.tests_status.FAIL_TO_PASS).toEqual({
      success: ['t.py::test_fix_a', 't.py::test_fix_b'],
      failure: [],
    });
  });

  test('half the F2P → PARTIAL; a P2P skip still counts as success', () => {
    const log = wrap(
      ['PASSED t.py::test_fix_a', 'FAILED t.py::test_fix_b - x', 'SKIPPED t.py::test_keep'],
      1,
    );
    const g = gradeLog({ ...base, log, exitCode: 1 });
    expect(g.resolved_status).toBe('RESOLVED_PARTIAL');
    expect(g.tests_status.PASS_TO_PASS.success).toEqual(['t.py::test_keep']);
  });

  test('a skipped F2P test is a failure; a missing one too', () => {
    const log = wrap(['SKIPPED t.py::test_fix_a', 'PASSED t.py::test_keep'], 0);
    const g = gradeLog({ ...base, log, exitCode: 0 });
    expect(g.tests_status.FAIL_TO_PASS.failure).toEqual(['t.py::test_fix_a', 't.py::test_fix_b']);
    expect(g.resolved_status).toBe('RESOLVED_NO');
  });

  test('forged PASSED lines with a nonzero exit code make the log invalid', () => {
    const log = wrap(['PASSED t.py::test_fix_a', 'PASSED t.py::test_fix_b', 'PASSED t.py::test_keep'], 1);
    const g = gradeLog({ ...base, log, exitCode: 1 });
    expect(g.valid).toBe(false);
    expect(g.invalidReason).toContain('exited 1');
    expect(g.resolved_status).toBe('RESOLVED_NO');
  });

  test('exit 0 while the log shows failures is flagged, not a different verdict', () => {
    const log = wrap(['FAILED t.py::test_fix_a', 'PASSED t.py::test_keep'], 0);
    const g = gradeLog({ ...base, log, exitCode: 0 });
    expect(g.valid).toBe(true);
    expect(g.resolved_status).toBe('RESOLVED_NO');
    expect(g.flags).toContain('exit-zero-with-failures');
  });

  test('a log the grader did not frame has no section: no evidence the suite ran', () => {
    const log = ['PASSED t.py::test_fix_a', 'PASSED t.py::test_fix_b', 'PASSED t.py::test_keep'].join('\n');
    const g = gradeLog({ ...base, framed: false, log, exitCode: 0 });
    expect(g.valid).toBe(false);
    expect(g.invalidReason).toContain('markers missing');
  });

  test('pre-test output before the section is not read', () => {
    const log = frameLog('PASSED t.py::test_fix_a\nPASSED t.py::test_fix_b', 'PASSED t.py::test_keep', 0);
    const g = gradeLog({ ...base, log, exitCode: 0 });
    expect(g.tests_status.FAIL_TO_PASS.failure).toEqual(['t.py::test_fix_a', 't.py::test_fix_b']);
  });

  test('fail_only: anything not failing passes', () => {
    const log = wrap(['FAILED t.py::test_fix_b - boom'], 1);
    const g = gradeLog({ ...base, log, exitCode: 1, evalType: 'fail_only' });
    expect(g.tests_status.FAIL_TO_PASS).toEqual({
      success: ['t.py::test_fix_a'],
      failure: ['t.py::test_fix_b'],
    });
  });
});

describe('gradeLog: test names and unusable logs', () => {
  test('names meet as stable names: a duration or trailing space never decides a verdict, by either rule', () => {
    // jest as Multi-SWE-bench's dayjs rule reads it: the title keeps its trailing space only before a duration
    const jest = (d: string) => ['PASS test/display.test.js', `  ✓ Format - : / ${d}`, '  ✕ broken (3ms)'];
    const listed = 'test/display.test.js:Format - : /';
    for (const [d, spelt] of [
      ['', listed],
      [' (14ms)', `${listed} `],
    ] as const) {
      const row = {
        ...base,
        parser: 'msb-jest-suite' as const,
        exactIds: true,
        log: wrap(jest(d), 1),
        exitCode: 1,
      };
      const g = gradeLog({ ...row, failToPass: [], passToPass: [listed] });
      expect(Object.keys(g.tests)).toContain(spelt);
      expect(g.tests_status.PASS_TO_PASS).toEqual({ success: [listed], failure: [] });
      // fail_only: a listed failing test is found whatever was printed after it
      const f = gradeLog({
        ...row,
        evalType: 'fail_only',
        failToPass: ['test/display.test.js:broken '],
        passToPass: [],
      });
      expect(f.tests_status.FAIL_TO_PASS.failure).toEqual(['test/display.test.js:broken ']);
      // Multi-SWE-bench's rule: stored stages spelt one way, the fix run the other
      const stage = (passed: string[], failed: string[]) => ({
        passed_tests: passed,
        failed_tests: failed,
        skipped_tests: [],
      });
      const msb = {
        fixed_tests: ['test/display.test.js:new'],
        p2p_tests: [`${listed} `],
        f2p_tests: ['test/display.test.js:new'],
        s2p_tests: [],
        n2p_tests: [],
        run_result: stage([`${listed} `], []),
        test_patch_result: stage([`${listed} `], ['test/display.test.js:new']),
        fix_patch_result: null,
      };
      const m = gradeLog({ ...row, log: wrap([...jest(d), '  ✓ new'], 1), msb });
      expect(m.note).toBeNull();
      expect(m.resolved_status).toBe('RESOLVED_FULL');
      expect(m.tests_status.PASS_TO_PASS).toEqual({ success: [`${listed} `], failure: [] });
    }
  });

  test('no test results and no sign the suite ran (build broken) is an unusable log', () => {
    const g = gradeLog({ ...base, log: wrap(['SyntaxError: invalid syntax'], 2), exitCode: 2 });
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

test("framedSection: the test command's output between the grader's markers", () => {
  expect(framedSection(frameLog('pre', 'x\ny', 3))).toBe('x\ny\n');
  expect(framedSection(frameLog('', '', 0))).toBe('');
  expect(framedSection('no markers')).toBeNull();
});

describe('forged markers in a framed log are a verdict: tampered', () => {
  const all = ['PASSED t.py::test_fix_a', 'PASSED t.py::test_fix_b', 'PASSED t.py::test_keep'];
  const cases: Record<string, string> = {
    'a fake end marker and exit code, then results': frameLog(
      '',
      ['FAILED t.py::test_fix_a', '>>>>> End Test Output', '>>>>> Test Exit Code: 0', ...all].join('\n'),
      1,
    ),
    'a fake start marker in the pre-test output': frameLog(
      ['>>>>> Start Test Output', ...all].join('\n'),
      'FAILED t.py::test_fix_a',
      1,
    ),
    'a fake exit code alone': frameLog('', [...all, '>>>>> Test Exit Code: 0'].join('\n'), 1),
    "faun's old nonce markers": frameLog(
      '',
      ['>>>>> faun test start abc', ...all, '>>>>> faun test end abc'].join('\n'),
      0,
    ),
    "SWE-bench's failure codes": frameLog('', [...all, '>>>>> Tests Errored'].join('\n'), 0),
    'a marker inside a line': frameLog('', [...all, `print('>>>>> End Test Output')`].join('\n'), 0),
  };
  for (const [name, log] of Object.entries(cases))
    test(name, () => {
      const g = gradeLog({ ...base, log, exitCode: 0 });
      expect(g.tampered.length).toBeGreaterThan(0);
      expect(g.resolved_status).toBe('RESOLVED_NO');
      expect(g.valid).toBe(false);
      expect(g.tests_status.FAIL_TO_PASS.success).toEqual([]);
      // the same log under Multi-SWE-bench's rule
      const m = gradeLog({
        ...base,
        log,
        exitCode: 0,
        msb: {
          fixed_tests: [],
          f2p_tests: ['t.py::test_fix_a'],
          p2p_tests: [],
          s2p_tests: [],
          n2p_tests: [],
          run_result: null,
          test_patch_result: null,
          fix_patch_result: null,
        },
      });
      expect(m.tampered.length).toBeGreaterThan(0);
    });

  test('an untouched framed log has nothing forged', () => {
    expect(forgedMarkers(wrap(all, 0))).toEqual([]);
    expect(gradeLog({ ...base, log: wrap(all, 0), exitCode: 0 }).resolved_status).toBe('RESOLVED_FULL');
  });

  test('a log stored before framing keeps its own nonce markers', () => {
    const old = [
      '>>>>> faun test start n1',
      '>>>>> Start Test Output',
      ...all,
      '>>>>> End Test Output',
      '>>>>> faun test end n1',
      '>>>>> Test Exit Code: 0',
    ].join('\n');
    expect(forgedMarkers(old, 'n1')).toEqual([]);
    expect(forgedMarkers(old, null).length).toBeGreaterThan(0);
  });
});

/** A log of a row's own script (not framed by faun), its lines joined, graded with `exitCode`. */
const gradeRowScript = (exitCode: number | null, lines: string[]) =>
  gradeLog({ ...base, framed: false, log: lines.join('\n'), exitCode });

describe("a row's own script (trusted rows): the reference's reading, faun's checks as flags", () => {
  test('a forged exit-code line inside the output: the reference reads it, faun flags the mismatch', () => {
    const g = gradeRowScript(1, [
      '>>>>> Start Test Output',
      '>>>>> Test Exit Code: 0',
      'PASSED t.py::test_fix_a',
      'PASSED t.py::test_fix_b',
      'PASSED t.py::test_keep',
      '>>>>> End Test Output',
      '>>>>> Test Exit Code: 1',
    ]);
    expect(g.resolved_status).toBe('RESOLVED_FULL');
    expect(g.flags).toContain('exit-code-mismatch');
  });

  test('graded between SWE-bench’s markers', () => {
    const g = gradeRowScript(null, [
      "+ : '>>>>> Start Test Output'",
      'PASSED t.py::test_fix_a',
      'PASSED t.py::test_fix_b',
      'PASSED t.py::test_keep',
      "+ : '>>>>> End Test Output'",
    ]);
    expect(g.resolved_status).toBe('RESOLVED_FULL');
    expect(g.flags).toEqual([]);
  });

  test('a repeated start marker is flagged', () => {
    const g = gradeRowScript(0, [
      '>>>>> Start Test Output',
      '>>>>> Start Test Output',
      'PASSED t.py::test_keep',
      '>>>>> End Test Output',
      '>>>>> Test Exit Code: 0',
    ]);
    expect(g.flags).toContain('markers-repeated');
  });
});
