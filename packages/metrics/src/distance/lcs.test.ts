import { describe, expect, test } from 'bun:test';
import { mulberry32 } from '../bootstrap.ts';
import { codePoints } from '../py.ts';
import { difflibRatio } from './difflib.ts';
import { lcsLength, levenshtein } from './lcs.ts';

/** Textbook O(nm) dynamic programmes, the independent reference for the bit-parallel versions. */
function dpLcs(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let prev: number[] = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const cur = [0];
    for (let j = 1; j <= b.length; j++)
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    prev = cur;
  }
  return prev[b.length]!;
}
function dpLev(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

function randomSeq(rand: () => number, len: number, alphabet: number[]): Int32Array {
  return Int32Array.from({ length: len }, () => alphabet[Math.floor(rand() * alphabet.length)]!);
}

describe('bit-parallel LCS and Levenshtein', () => {
  test('agree with the DP on random sequences across word boundaries (lengths 0–200)', () => {
    const rand = mulberry32(7);
    const alphabets = [
      [97, 98],
      [97, 98, 99, 100],
      [32, 97, 233, 0x4e2d, 0x1f600],
      Array.from({ length: 300 }, (_, i) => i),
    ];
    for (let t = 0; t < 400; t++) {
      const alpha = alphabets[t % alphabets.length]!;
      const a = randomSeq(rand, Math.floor(rand() * 200), alpha);
      const b = randomSeq(rand, Math.floor(rand() * 200), alpha);
      expect(lcsLength(a, b)).toBe(dpLcs(a, b));
      expect(levenshtein(a, b)).toBe(dpLev(a, b));
    }
  });
  test('known values', () => {
    expect(levenshtein(codePoints('kitten'), codePoints('sitting'))).toBe(3);
    expect(lcsLength(codePoints('aab'), codePoints('abab'))).toBe(3);
    expect(levenshtein(codePoints(''), codePoints('abc'))).toBe(3);
    expect(lcsLength(codePoints('😀a'), codePoints('a😀'))).toBe(1);
  });
});

describe('difflib ratio', () => {
  test('matches Python for small cases', () => {
    // difflib.SequenceMatcher(None, a, b).ratio() values computed by hand from its matching blocks.
    expect(difflibRatio(codePoints('aab'), codePoints('abab'))).toBeCloseTo(4 / 7, 12);
    expect(difflibRatio(codePoints('abxcd'), codePoints('abcd'))).toBeCloseTo(8 / 9, 12);
    expect(difflibRatio(codePoints(''), codePoints(''))).toBe(1);
  });
  test('autojunk: popular characters of a long b do not seed matches (values from CPython 3.11)', () => {
    // Only the empty-match extension at (0, 0) can still use popular characters.
    expect(difflibRatio(codePoints('a'.repeat(10)), codePoints('a'.repeat(300)))).toBeCloseTo(
      0.06451612903225806,
      15,
    );
    expect(difflibRatio(codePoints(`b${'a'.repeat(10)}`), codePoints('x'.repeat(5) + 'a'.repeat(300)))).toBe(
      0,
    );
  });
});
