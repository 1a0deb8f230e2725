import { describe, expect, test } from 'bun:test';
import type { TestMap } from './common.ts';
import { stableTestMap, stableTestName } from './stable-names.ts';

describe('stableTestName', () => {
  test.each([
    [
      'test/display.test.js:Format Complex with other string - : / ',
      'test/display.test.js:Format Complex with other string - : /',
    ],
    ['  padded title\t', 'padded title'],
    ['is same year (16ms)', 'is same year'],
    ['is same year (16 ms)', 'is same year'],
    ['works (1.234 s)', 'works'],
    ['TestEqual (0.01s)', 'TestEqual'],
    ['ast::parse::tests::parse_set_class ... <0.001s>', 'ast::parse::tests::parse_set_class ...'],
    ['suite > case # time=12.5ms', 'suite > case'],
    ['com.ex.CalcTest, Time elapsed: 0.05 s', 'com.ex.CalcTest'],
    ['com.ex.CalcTest -- Time elapsed: 0.05 sec', 'com.ex.CalcTest'],
    ['[gw3] tests/test_a.py::test_x', 'tests/test_a.py::test_x'],
    ['tests/test_a.py::test_x [ 42%]', 'tests/test_a.py::test_x'],
    ['[gw0] [ 50%] tests/test_a.py::test_x', 'tests/test_a.py::test_x'],
    ['\x1b[32mtests/test_a.py::test_x\x1b[0m', 'tests/test_a.py::test_x'],
    ['a title  (33ms)', 'a title'],
  ])('%j → %j', (raw, stable) => {
    expect(stableTestName(raw)).toBe(stable);
  });

  test.each([
    'tests/test_a.py::test_x[42%]',
    'tests/test_a.py::test_x[1m]',
    'waits(5ms)',
    'TestX/case_(1ms)',
    'test_x[gw3]',
    'has  two  spaces inside',
  ])('%j keeps its own characters', (name) => {
    expect(stableTestName(name)).toBe(name);
  });
});

describe('stableTestMap', () => {
  test('spellings of one test are one entry, the worse status counting', () => {
    expect(stableTestMap({ 'a ': 'PASSED', a: 'FAILED', 'b (3 ms)': 'PASSED', c: 'SKIPPED' })).toEqual({
      a: 'FAILED',
      b: 'PASSED',
      c: 'SKIPPED',
    });
  });
  test('a name that is only whitespace is no test; a progress fragment stays (rows list some)', () => {
    expect(stableTestMap({ ' \t': 'PASSED', '': 'PASSED', '[100%]': 'PASSED' })).toEqual({
      '[100%]': 'PASSED',
    });
  });
  test('a test called like an Object property is kept as data', () => {
    const tests: TestMap = JSON.parse(
      '{"constructor": "PASSED", "__proto__": "FAILED", "toString ": "SKIPPED"}',
    );
    const got = stableTestMap(tests);
    expect(Object.entries(got)).toEqual([
      ['constructor', 'PASSED'],
      ['__proto__', 'FAILED'],
      ['toString', 'SKIPPED'],
    ]);
  });
});
