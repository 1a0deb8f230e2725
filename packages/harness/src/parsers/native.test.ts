import { describe, expect, test } from 'bun:test';
import { parseCargo } from './cargo.ts';
import { parseCtest, parseGtest } from './ctest.ts';
import { parseGo, parseGoVerbose } from './go.ts';
import { parseJunit, parseJunitXml } from './junit.ts';

describe('go test', () => {
  test('-json events, subtests, package-level lines ignored', () => {
    const log = [
      '{"Time":"2024-01-01T00:00:00Z","Action":"start","Package":"example.com/m"}',
      '{"Time":"2024-01-01T00:00:00Z","Action":"run","Package":"example.com/m","Test":"TestAdd"}',
      '{"Time":"2024-01-01T00:00:00Z","Action":"output","Package":"example.com/m","Test":"TestAdd","Output":"--- FAIL: TestAdd (0.00s)\\n"}',
      '{"Time":"2024-01-01T00:00:00Z","Action":"pass","Package":"example.com/m","Test":"TestAdd","Elapsed":0}',
      '{"Time":"2024-01-01T00:00:00Z","Action":"fail","Package":"example.com/m","Test":"TestSub/neg","Elapsed":0}',
      '{"Time":"2024-01-01T00:00:00Z","Action":"skip","Package":"example.com/m","Test":"TestSkip","Elapsed":0}',
      '{"Time":"2024-01-01T00:00:00Z","Action":"fail","Package":"example.com/m","Elapsed":0.01}',
    ].join('\n');
    expect(parseGo(log)).toEqual({ TestAdd: 'PASSED', 'TestSub/neg': 'FAILED', TestSkip: 'SKIPPED' });
  });

  test('-v text, indented subtests', () => {
    const log = [
      '=== RUN   TestAdd',
      '--- PASS: TestAdd (0.00s)',
      '=== RUN   TestSub',
      '    --- FAIL: TestSub/neg (0.01s)',
      '--- FAIL: TestSub (0.01s)',
      '--- SKIP: TestSkip (0.00s)',
      'FAIL\texample.com/m\t0.012s',
    ].join('\n');
    expect(parseGoVerbose(log)).toEqual({
      TestAdd: 'PASSED',
      'TestSub/neg': 'FAILED',
      TestSub: 'FAILED',
      TestSkip: 'SKIPPED',
    });
  });
});

describe('JUnit', () => {
  test('Surefire XML embedded in a log, with entities and all outcomes', () => {
    const log = [
      '[INFO] Tests run: 4, Failures: 1, Errors: 1, Skipped: 1',
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuite name="com.ex.CalcTest" tests="4" failures="1" errors="1" skipped="1">',
      '  <testcase name="adds" classname="com.ex.CalcTest" time="0.001"/>',
      '  <testcase name="subtracts" classname="com.ex.CalcTest" time="0.002">',
      '    <failure message="expected:&lt;1&gt; but was:&lt;2&gt;" type="java.lang.AssertionError">trace</failure>',
      '  </testcase>',
      '  <testcase name="divides" classname="com.ex.CalcTest"><error type="java.lang.ArithmeticException"/></testcase>',
      "  <testcase name='ignored' classname='com.ex.CalcTest'><skipped/></testcase>",
      '</testsuite>',
    ].join('\n');
    expect(parseJunitXml(log)).toEqual({
      'com.ex.CalcTest.adds': 'PASSED',
      'com.ex.CalcTest.subtracts': 'FAILED',
      'com.ex.CalcTest.divides': 'ERROR',
      'com.ex.CalcTest.ignored': 'SKIPPED',
    });
  });

  test('Gradle text with the status on the next line and glued JVM noise', () => {
    const log = [
      'com.ex.CalcTest > adds PASSED',
      'com.ex.CalcTest > subtracts FAILED',
      '    java.lang.AssertionError at CalcTest.java:12',
      'com.ex.CalcTest > slow',
      '    SKIPPED',
      'Picked up JAVA_TOOL_OPTIONS: -Xmx1g',
    ].join('\n');
    expect(parseJunit(log)).toEqual({
      'com.ex.CalcTest.adds': 'PASSED',
      'com.ex.CalcTest.subtracts': 'FAILED',
      'com.ex.CalcTest.slow': 'SKIPPED',
    });
  });
});

describe('cargo test', () => {
  test('results, ignored, and stdout printed between a name and its result', () => {
    const log = [
      'running 4 tests',
      'test tests::adds ... ok',
      'test tests::subtracts ... FAILED',
      'test tests::slow ... ignored, needs time',
      'test tests::noisy ... hello from the test',
      'ok',
      '',
      'test result: FAILED. 2 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s',
    ].join('\n');
    expect(parseCargo(log)).toEqual({
      'tests::adds': 'PASSED',
      'tests::subtracts': 'FAILED',
      'tests::slow': 'SKIPPED',
      'tests::noisy': 'PASSED',
    });
  });
});

describe('ctest and GoogleTest', () => {
  test('ctest lines', () => {
    const log = [
      'Test project /testbed/build',
      '    Start 1: calc_add',
      '1/4 Test #1: calc_add .........................   Passed    0.01 sec',
      '2/4 Test #2: calc_sub .........................***Failed    0.01 sec',
      '3/4 Test #3: calc_crash .......................***Exception: SegFault  0.01 sec',
      '4/4 Test #4: calc_skip ........................***Skipped   0.00 sec',
      '50% tests passed, 2 tests failed out of 4',
    ].join('\n');
    expect(parseCtest(log)).toEqual({
      calc_add: 'PASSED',
      calc_sub: 'FAILED',
      calc_crash: 'FAILED',
      calc_skip: 'SKIPPED',
    });
  });

  test('GoogleTest lines; a test that starts and never ends crashed', () => {
    const log = [
      '[==========] Running 4 tests from 1 test suite.',
      '[ RUN      ] Calc.Add',
      '[       OK ] Calc.Add (0 ms)',
      '[ RUN      ] Calc.Sub',
      'calc_test.cc:12: Failure',
      '[  FAILED  ] Calc.Sub (0 ms)',
      '[ RUN      ] Calc.Skip',
      '[  SKIPPED ] Calc.Skip (0 ms)',
      '[ RUN      ] Calc.Crash',
      '[  FAILED  ] 1 test, listed below:',
      '[  FAILED  ] Calc.Sub',
    ].join('\n');
    expect(parseGtest(log)).toEqual({
      'Calc.Add': 'PASSED',
      'Calc.Sub': 'FAILED',
      'Calc.Skip': 'SKIPPED',
      'Calc.Crash': 'ERROR',
    });
  });
});
