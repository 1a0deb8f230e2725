import { expect, test } from 'bun:test';
import { mulberry32 } from '../bootstrap.ts';
import { splitAndIntern } from './intern.ts';
import { clippedAllOrders, closestRefLength } from './ngrams.ts';

/** Straightforward clipped counting with string keys, the independent reference. */
function naive(hyp: string[], refs: string[][], maxN: number) {
  const matches: number[] = [];
  const totals: number[] = [];
  const grams = (t: string[], n: number) => {
    const m = new Map<string, number>();
    for (let i = 0; i + n <= t.length; i++) {
      const g = t.slice(i, i + n).join(' ');
      m.set(g, (m.get(g) ?? 0) + 1);
    }
    return m;
  };
  for (let n = 1; n <= maxN; n++) {
    const h = grams(hyp, n);
    const max = new Map<string, number>();
    for (const r of refs) for (const [g, c] of grams(r, n)) max.set(g, Math.max(max.get(g) ?? 0, c));
    let m = 0;
    for (const [g, c] of h) m += Math.min(c, max.get(g) ?? 0);
    matches.push(m);
    totals.push(Math.max(hyp.length - n + 1, 0));
  }
  return { matches, totals };
}

test('clippedAllOrders equals naive counting on random token sequences, 1–3 references', () => {
  const rand = mulberry32(11);
  const vocab = ['a', 'b', 'c', 'd', 'the', 'x'];
  const seq = () =>
    Array.from({ length: Math.floor(rand() * 30) }, () => vocab[Math.floor(rand() * vocab.length)]!);
  for (let t = 0; t < 500; t++) {
    const hyp = seq();
    const refs = Array.from({ length: 1 + (t % 3) }, seq);
    const { ids, base } = splitAndIntern([hyp.join(' '), ...refs.map((r) => r.join(' '))]);
    const maxN = 1 + (t % 5);
    expect(clippedAllOrders(ids[0]!, ids.slice(1), maxN, base)).toEqual(naive(hyp, refs, maxN));
  }
});

test('splitAndIntern: Python whitespace, equal tokens share ids', () => {
  const { ids, base } = splitAndIntern(['a b\x1ca', '\u3000b  c\n']);
  expect([...ids[0]!]).toEqual([1, 2, 1]);
  expect([...ids[1]!]).toEqual([2, 3]);
  expect(base).toBe(4);
  expect(splitAndIntern(['', '   ']).ids.map((x) => x.length)).toEqual([0, 0]);
});

test('closest reference length prefers the shorter on ties', () => {
  expect(closestRefLength([3, 7], 5)).toBe(3);
  expect(closestRefLength([7, 3], 5)).toBe(3);
  expect(closestRefLength([9, 6], 5)).toBe(6);
});
