import { describe, expect, test } from 'bun:test';
import { stripAnsi } from './common.ts';
import { parsePytest } from './pytest.ts';
import { parseSympy } from './sympy.ts';
import { parseDjango, parseUnittest } from './unittest.ts';

describe('pytest', () => {
  test('-rA summary with messages, skips without ids, xfail/xpass and ANSI colour', () => {
    const log = [
      '============================= test session starts ==============================',
      'collected 6 items',
      '',
      'tests/test_a.py ..Fsx.                                                   [100%]',
      '=========================== short test summary info ============================',
      '\x1b[32mPASSED\x1b[0m tests/test_a.py::test_one',
      'PASSED tests/test_a.py::test_param[a b-1]',
      'FAILED tests/test_a.py::test_two - AssertionError: assert 1 == 2',
      'SKIPPED [1] tests/test_a.py:12: needs network',
      'XFAIL tests/test_a.py::test_known - reason: bug 12',
      'XPASS tests/test_a.py::test_lucky',
      'ERROR tests/test_b.py::test_setup - fixture missing',
      '==================== 1 failed, 3 passed, 1 skipped in 0.12s ====================',
    ].join('\n');
    expect(parsePytest(log)).toEqual({
      'tests/test_a.py::test_one': 'PASSED',
      'tests/test_a.py::test_param[a b-1]': 'PASSED',
      'tests/test_a.py::test_two': 'FAILED',
      'tests/test_a.py::test_known': 'XFAIL',
      'tests/test_a.py::test_lucky': 'PASSED',
      'tests/test_b.py::test_setup': 'ERROR',
    });
  });

  test('verbose lines with percentages, and a forged PASSED cannot override a real FAILED', () => {
    const log = [
      'tests/test_a.py::test_one PASSED                                         [ 50%]',
      'tests/test_a.py::test_two FAILED                                         [ 75%]',
      'tests/test_a.py::test_skip SKIPPED (dotenv is not installed)             [100%]',
      'PASSED tests/test_a.py::test_two',
    ].join('\n');
    expect(parsePytest(log)).toEqual({
      'tests/test_a.py::test_one': 'PASSED',
      'tests/test_a.py::test_two': 'FAILED',
      'tests/test_a.py::test_skip': 'SKIPPED',
    });
  });
});

test('pytest: inner sessions printed in captured output (pytester) do not count', () => {
  const log = [
    'testing/test_x.py::test_outer PASSED                                     [ 50%]',
    'testing/test_x.py::test_skip SKIPPED (no dotenv)                         [100%]',
    '==================================== PASSES ====================================',
    '---------------------------- Captured stdout call -----------------------------',
    'test_inner.py::test_a FAILED                                             [100%]',
    '=========================== short test summary info ============================',
    'FAILED test_inner.py::test_a - assert 0',
    '=========================== short test summary info ============================',
    'PASSED testing/test_x.py::test_outer',
    'SKIPPED [1] testing/test_x.py:9: no dotenv',
    '========================= 1 passed, 1 skipped in 0.50s =========================',
  ].join('\n');
  expect(parsePytest(log)).toEqual({
    'testing/test_x.py::test_outer': 'PASSED',
    'testing/test_x.py::test_skip': 'SKIPPED',
  });
});

describe('sympy bin/test', () => {
  test('verbose lines, timings, failure headers', () => {
    const log = [
      '============================= test process starts ==============================',
      'executable:         /usr/bin/python3  (3.11.2-final-0) [CPython]',
      'sympy/core/tests/test_basic.py[4] ',
      'test__aresame ok',
      'test_structure [0.01s] ok',
      'test_broken F',
      'test_crash E',
      'test_known f',
      'test_slow s',
      '________________________________________________________________________________',
      '_________ sympy/core/tests/test_basic.py:test_broken __________',
      'AssertionError',
      '= tests finished: 2 passed, 1 failed, 1 expected to fail, 1 exceptions, in 0.1 seconds =',
    ].join('\n');
    expect(parseSympy(log)).toEqual({
      test__aresame: 'PASSED',
      test_structure: 'PASSED',
      test_broken: 'FAILED',
      test_crash: 'ERROR',
      test_known: 'XFAIL',
      test_slow: 'SKIPPED',
    });
  });
});

describe('unittest / django', () => {
  test('django verbosity 2: docstrings, skips, glued output, 3.11 ids', () => {
    const log = [
      'Testing against Django installed in /testbed/django',
      "Creating test database for alias 'default'...",
      'test_a (model_fields.tests.BasicTests) ... ok',
      'test_b (model_fields.tests.BasicTests) ... FAIL',
      'test_c (model_fields.tests.BasicTests.test_c) ... ERROR',
      "test_d (model_fields.tests.BasicTests) ... skipped 'Database has no feature'",
      'test_e (model_fields.tests.BasicTests)',
      'Docstring of test e. ... ok',
      'test_f (model_fields.tests.BasicTests) ... System check identified no issues (0 silenced).',
      'ok',
      'test_g (model_fields.tests.BasicTests) ... expected failure',
      'test_h (model_fields.tests.BasicTests) ... unexpected success',
      '----------------------------------------------------------------------',
      'Ran 8 tests in 0.005s',
      'FAILED (failures=1, errors=1, skipped=1)',
    ].join('\n');
    expect(parseDjango(log)).toEqual({
      'test_a (model_fields.tests.BasicTests)': 'PASSED',
      'test_b (model_fields.tests.BasicTests)': 'FAILED',
      'test_c (model_fields.tests.BasicTests)': 'ERROR',
      'test_d (model_fields.tests.BasicTests)': 'SKIPPED',
      'Docstring of test e.': 'PASSED',
      'test_f (model_fields.tests.BasicTests)': 'PASSED',
      'test_g (model_fields.tests.BasicTests)': 'XFAIL',
      'test_h (model_fields.tests.BasicTests)': 'FAILED',
    });
  });

  test('python -m unittest -v', () => {
    const log =
      'test_add (test_calc.CalcTest.test_add) ... ok\r\ntest_sub (test_calc.CalcTest.test_sub) ... FAIL\r\n';
    expect(parseUnittest(log)).toEqual({
      'test_add (test_calc.CalcTest)': 'PASSED',
      'test_sub (test_calc.CalcTest)': 'FAILED',
    });
  });
});

test('stripAnsi drops colour codes and carriage-return overwrites', () => {
  expect(stripAnsi('\x1b[1;31mred\x1b[0m\nprogress 10%\rprogress 100%\n')).toBe('red\nprogress 100%\n');
});
