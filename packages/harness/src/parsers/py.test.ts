import { describe, expect, test } from 'bun:test';
import type { TestMap } from './common.ts';
import { fromSets, pySplitlines, pyStrip, setLast, sets } from './py.ts';

describe('Python string semantics', () => {
  test('splitlines: no trailing empty line, CRLF and Unicode boundaries split', () => {
    // Values printed by python3: "a\r\nb\rc\x0bd\u2028e\n".splitlines()
    expect(pySplitlines('a\r\nb\rc\x0bd\u2028e\n')).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(pySplitlines('')).toEqual([]);
    expect(pySplitlines('\n')).toEqual(['']);
    expect(pySplitlines('x\n\ny')).toEqual(['x', '', 'y']);
  });
  test('strip: Python whitespace (\\x1c-\\x1f, \\x85 yes; \\ufeff no)', () => {
    expect(pyStrip('\x1c\x85 a b\t\r')).toBe('a b');
    expect(pyStrip('\ufeffa')).toBe('\ufeffa');
  });
  test('setLast: the last status wins, __proto__ is an ordinary id', () => {
    const m: TestMap = {};
    setLast(m, 't', 'FAILED');
    setLast(m, 't', 'PASSED');
    setLast(m, '__proto__', 'FAILED');
    expect(m.t).toBe('PASSED');
    expect(Object.keys(m).sort()).toEqual(['__proto__', 't']);
  });
  test('fromSets: overlapping sets give nothing', () => {
    const r = sets();
    r.passed.add('a');
    r.skipped.add('b');
    expect(fromSets(r)).toEqual({ a: 'PASSED', b: 'SKIPPED' });
    r.failed.add('a');
    expect(fromSets(r)).toEqual({});
  });
});
