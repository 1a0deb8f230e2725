import { describe, expect, test } from 'bun:test';
import { codePoints, fsum, pyLen, pySplit, pyStrip, roundHalfEven } from './py.ts';

describe('Python string semantics', () => {
  test('split uses the Python whitespace set (incl. \\x1c-\\x1f and \\x85, not \\ufeff)', () => {
    expect(pySplit('a\x1cb\x85c\u3000d')).toEqual(['a', 'b', 'c', 'd']);
    expect(pySplit('a\ufeffb')).toEqual(['a\ufeffb']);
    expect(pySplit('')).toEqual([]);
    expect(pySplit('  \t\n ')).toEqual([]);
  });
  test('strip', () => {
    expect(pyStrip('\x1f\u2028 x y \x85')).toBe('x y');
    expect(pyStrip('\ufeffx')).toBe('\ufeffx');
  });
  test('code points, not UTF-16 units', () => {
    expect(pyLen('a😀b')).toBe(3);
    expect(Array.from(codePoints('a😀'))).toEqual([97, 0x1f600]);
  });
  test('round half to even', () => {
    expect([0.5, 1.5, 2.5, 62.5, 87.5, -0.5, -1.5, 2.4999, 2.5001].map(roundHalfEven)).toEqual([
      0, 2, 2, 62, 88, 0, -2, 2, 3,
    ]);
  });
  test('fsum is exactly rounded', () => {
    expect(fsum([0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1])).toBe(1);
    expect(fsum([1e100, 1, -1e100, 1e-100])).toBe(1);
    expect(fsum([])).toBe(0);
  });
});
