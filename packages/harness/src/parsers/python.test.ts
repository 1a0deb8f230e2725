/**
 * The Python parsers on small hand-written logs, one per behaviour of SWE-bench's parsers. Every expected
 * map below is what SWE-bench's own function (log_parsers/python.py at 7a21e05) returned for the same text,
 * minus values that are not one of its five status words.
 */
import { describe, expect, test } from 'bun:test';
import { stripAnsi } from './common.ts';
import { parseDjango } from './django.ts';
import {
  conflictingReports,
  parseMatplotlib,
  parsePytest,
  parsePytestOptions,
  parsePytestV2,
  parseSeaborn,
} from './pytest.ts';
import { parseSympy } from './sympy.ts';
import { parseUnittest } from './unittest.ts';

describe('SWE-bench parity on hand-written logs', () => {
  test('pytest -rA: summary lines only, ids cut at the first space, XPASS not a status, `ERROR:` lines dropped', () => {
    const log = [
      '============================= test session starts ==============================',
      'collected 7 items',
      '',
      'tests/test_a.py ..Fsx.X                                                  [100%]',
      '=================================== FAILURES ===================================',
      '___________________________________ test_two ___________________________________',
      'E   AssertionError: assert 1 == 2',
      '==================================== PASSES ====================================',
      '=========================== short test summary info ============================',
      'PASSED tests/test_a.py::test_one',
      'PASSED tests/test_a.py::test_param[a b-1]',
      'PASSED tests/test_a.py::test_param[ab-2]',
      'FAILED tests/test_a.py::test_two - AssertionError: assert 1 == 2',
      'SKIPPED [1] tests/test_a.py:12: needs network',
      'XFAIL tests/test_a.py::test_known - reason: bug',
      'XPASS tests/test_a.py::test_lucky',
      "ERROR tests/test_b.py::test_setup - fixture 'db' not found",
      'ERROR: file or directory not found: tests/test_c.py',
      '============== 1 failed, 3 passed, 1 skipped, 1 xfailed, 1 xpassed in 0.12s ====',
    ].join('\n');
    expect(parsePytest(log)).toEqual({
      'tests/test_a.py::test_one': 'PASSED',
      'tests/test_a.py::test_param[a': 'PASSED',
      'tests/test_a.py::test_param[ab-2]': 'PASSED',
      'tests/test_a.py::test_two': 'FAILED',
      'tests/test_a.py::test_known': 'XFAIL',
      'tests/test_b.py::test_setup': 'ERROR',
    });
  });

  test('pytest: verbose progress lines are not read \u2014 a P2P test whose only -rA line is `SKIPPED [1] \u2026` is absent', () => {
    const log = [
      'tests/test_a.py::test_one PASSED                                         [ 33%]',
      'tests/test_a.py::test_skip SKIPPED (no network)                          [ 66%]',
      'tests/test_a.py::test_two FAILED                                         [100%]',
      '=========================== short test summary info ============================',
      'SKIPPED [1] tests/test_a.py:9: no network',
      'FAILED tests/test_a.py::test_two - assert 0',
      'PASSED tests/test_a.py::test_two',
    ].join('\n');
    expect(parsePytest(log)).toEqual({
      'tests/test_a.py::test_two': 'PASSED',
    });
  });

  test('pytest-options: absolute-path parameters keep their last component (not `//\u2026` or globs)', () => {
    const log = [
      'PASSED tests/test_requests.py::test_path[/usr/lib/python3/dist-packages/certifi/cacert.pem]',
      'PASSED tests/test_requests.py::test_url[//host/path]',
      'PASSED tests/test_requests.py::test_glob[/tmp/*.txt]',
      'FAILED tests/test_lint.py::test_functional[/abs/dir/unused_import] - AssertionError',
      'PASSED tests/test_plain.py::test_plain',
      'PASSED tests/test_b.py::test_x[a]b]',
    ].join('\n');
    expect(parsePytestOptions(log)).toEqual({
      'tests/test_requests.py::test_path[/cacert.pem]': 'PASSED',
      'tests/test_requests.py::test_url[//host/path]': 'PASSED',
      'tests/test_requests.py::test_glob[/tmp/*.txt]': 'PASSED',
      'tests/test_lint.py::test_functional[/unused_import]': 'FAILED',
      'tests/test_plain.py::test_plain': 'PASSED',
      'tests/test_b.py::test_x[a]b]': 'PASSED',
    });
  });

  test('pytest-v2: colour codes and tabs dropped, `ERROR x::t - msg` keeps the message in its id, old `id STATUS` lines', () => {
    const log = [
      'astropy/io/tests/test_a.py::test_one PASSED',
      'astropy/io/tests/test_a.py::test_old_style FAILED',
      '\u001b[32mPASSED\u001b[0m astropy/io/tests/test_a.py::test_colour',
      'FAILED astropy/io/tests/test_a.py::test_two - AssertionError: a - b',
      "ERROR astropy/io/tests/test_b.py::test_setup - ModuleNotFoundError: No module named 'x'",
      'XFAIL astropy/io/tests/test_a.py::test_known - reason: bug',
      'SKIPPED [2] astropy/io/tests/test_a.py:30: needs scipy',
      'PASSED astropy/io/tests/test_a.py::test_tab\tsplit',
    ].join('\n');
    expect(parsePytestV2(log)).toEqual({
      'astropy/io/tests/test_a.py::test_one': 'PASSED',
      'astropy/io/tests/test_a.py::test_old_style': 'FAILED',
      'astropy/io/tests/test_a.py::test_colour': 'PASSED',
      'astropy/io/tests/test_a.py::test_two': 'FAILED',
      "astropy/io/tests/test_b.py::test_setup - ModuleNotFoundError: No module named 'x'": 'ERROR',
      'astropy/io/tests/test_a.py::test_known - reason: bug': 'XFAIL',
      'astropy/io/tests/test_a.py::test_tabsplit': 'PASSED',
    });
  });
});

describe('SWE-bench parity on hand-written logs: per-repository parsers', () => {
  test('matplotlib: MouseButton.LEFT/RIGHT become 1/3 in ids', () => {
    const log = [
      'PASSED lib/matplotlib/tests/test_widgets.py::test_span_selector_drag[MouseButton.LEFT]',
      'PASSED lib/matplotlib/tests/test_widgets.py::test_rectangle_selector[MouseButton.RIGHT-True]',
      'FAILED lib/matplotlib/tests/test_backend_bases.py::test_interactive_zoom[MouseButton.LEFT-MouseButton.RIGHT] - assert',
    ].join('\n');
    expect(parseMatplotlib(log)).toEqual({
      'lib/matplotlib/tests/test_widgets.py::test_span_selector_drag[1]': 'PASSED',
      'lib/matplotlib/tests/test_widgets.py::test_rectangle_selector[3-True]': 'PASSED',
      'lib/matplotlib/tests/test_backend_bases.py::test_interactive_zoom[1-3]': 'FAILED',
    });
  });

  test('seaborn: PASSED and FAILED only, also from `id PASSED [ n%]` lines', () => {
    const log = [
      'tests/test_core.py::TestSemanticMapping::test_call_lookup PASSED         [ 10%]',
      'PASSED tests/test_core.py::TestHueMapping::test_init_from_map',
      'FAILED tests/test_core.py::TestHueMapping::test_plotter_default_init - ValueError',
      'SKIPPED [1] tests/test_core.py:12: no statsmodels',
      'ERROR tests/test_core.py::TestSizeMapping::test_map - fixture',
      'XFAIL tests/test_core.py::TestStyleMapping::test_xfail - reason',
    ].join('\n');
    expect(parseSeaborn(log)).toEqual({
      'tests/test_core.py::TestSemanticMapping::test_call_lookup': 'PASSED',
      'tests/test_core.py::TestHueMapping::test_init_from_map': 'PASSED',
      'tests/test_core.py::TestHueMapping::test_plotter_default_init': 'FAILED',
    });
  });

  test('django: `... FAIL` then an `okay` line is PASSED; expected failure / unexpected success unrecorded; FAIL:/ERROR: headers', () => {
    const log = [
      "Testing against Django installed in '/testbed/django'",
      'Importing application model_fields',
      'test_a (model_fields.tests.BasicTests) ... ok',
      'test_b (model_fields.tests.BasicTests) ... FAIL',
      "okay, this line is the test's own output",
      'test_c (model_fields.tests.BasicTests) ... ERROR',
      "test_d (model_fields.tests.BasicTests) ... skipped 'Database has no feature'",
      'test_e (model_fields.tests.BasicTests) ... expected failure',
      'test_f (model_fields.tests.BasicTests) ... unexpected success',
      'test_g (model_fields.tests.BasicTests) ... some output',
      'ok',
      'test_h (model_fields.tests.BasicTests)',
      'Docstring of test h. ... ok',
      'test_i (model_fields.tests.BasicTests) ... System check identified no issues (0 silenced).',
      'ok',
      'test_j (model_fields.tests.BasicTests) ... FAIL',
      'test_j (model_fields.tests.BasicTests) ... ok',
      '',
      '======================================================================',
      'FAIL: test_k (model_fields.tests.OtherTests)',
      '----------------------------------------------------------------------',
      'ERROR: test_l (model_fields.tests.OtherTests)',
      '----------------------------------------------------------------------',
      'Ran 12 tests in 0.005s',
      'FAILED (failures=2, errors=1, skipped=1, expected failures=1, unexpected successes=1)',
    ].join('\n');
    expect(parseDjango(log)).toEqual({
      'test_a (model_fields.tests.BasicTests)': 'PASSED',
      'test_b (model_fields.tests.BasicTests)': 'PASSED',
      'test_c (model_fields.tests.BasicTests)': 'ERROR',
      'test_d (model_fields.tests.BasicTests)': 'SKIPPED',
      'test_g (model_fields.tests.BasicTests)': 'PASSED',
      'Docstring of test h.': 'PASSED',
      'test_i (model_fields.tests.BasicTests)': 'PASSED',
      'test_j (model_fields.tests.BasicTests)': 'PASSED',
      test_k: 'FAILED',
      test_l: 'ERROR',
    });
  });
});

describe('SWE-bench parity on hand-written logs: sympy, duplicates', () => {
  test('sympy: `test_g printed text ok` is PASSED; f/s/X unrecorded; failure headers keyed path.py:name', () => {
    const log = [
      '============================= test process starts ==============================',
      'executable:         /usr/bin/python3  (3.11.2-final-0) [CPython]',
      'sympy/core/tests/test_basic.py[7] ',
      'test__aresame ok',
      'test_structure ok',
      'test_g printed text ok',
      'test_broken F',
      'test_crash E',
      'test_known f',
      'test_slow s',
      'test_unexpected X',
      'test_timed [0.01s] ok',
      '',
      '________________________________________________________________________________',
      '_________ sympy/core/tests/test_basic.py:test_broken __________',
      'Traceback (most recent call last):',
      'AssertionError',
      '= tests finished: 4 passed, 1 failed, 1 skipped, 1 expected to fail, 1 exceptions, in 0.1 seconds =',
    ].join('\n');
    expect(parseSympy(log)).toEqual({
      'sympy/core/tests/test_basic.py:test_broken': 'FAILED',
      test__aresame: 'PASSED',
      test_structure: 'PASSED',
      test_g: 'PASSED',
      test_broken: 'FAILED',
      test_crash: 'ERROR',
      test_timed: 'PASSED',
    });
  });

  test('duplicate reports: the last status wins (a later PASSED overrides an earlier FAILED)', () => {
    const log = [
      'FAILED t.py::test_a - first run',
      'PASSED t.py::test_a',
      'PASSED t.py::test_b',
      'ERROR t.py::test_b',
    ].join('\n');
    expect(parsePytest(log)).toEqual({
      't.py::test_a': 'PASSED',
      't.py::test_b': 'ERROR',
    });
  });
});

test('conflicting reports of one test are listed for a flag, without changing the map', () => {
  const log = [
    'FAILED t.py::test_a - boom',
    'PASSED t.py::test_a',
    'PASSED t.py::test_b',
    'PASSED t.py::test_b',
  ].join('\n');
  expect(conflictingReports(log)).toEqual(['t.py::test_a']);
  expect(parsePytest(log)).toEqual({ 't.py::test_a': 'PASSED', 't.py::test_b': 'PASSED' });
});

test('Python whitespace: \\x1c-\\x1f and \\x85 split fields, \\ufeff does not', () => {
  expect(parsePytest('PASSED a.py::t\x1cjunk\nPASSED b.py::t\x85x\nPASSED \ufeffc.py::t')).toEqual({
    'a.py::t': 'PASSED',
    'b.py::t': 'PASSED',
    '\ufeffc.py::t': 'PASSED',
  });
});

test('unittest -v (faun reading): 3.11 ids normalised, CRLF', () => {
  const log =
    'test_add (test_calc.CalcTest.test_add) ... ok\r\ntest_sub (test_calc.CalcTest.test_sub) ... FAIL\r\n';
  expect(parseUnittest(log)).toEqual({
    'test_add (test_calc.CalcTest)': 'PASSED',
    'test_sub (test_calc.CalcTest)': 'FAILED',
  });
});

test('stripAnsi drops colour codes and carriage-return overwrites', () => {
  expect(stripAnsi('\x1b[1;31mred\x1b[0m\nprogress 10%\rprogress 100%\n')).toBe('red\nprogress 100%\n');
});
