import { expect, test } from 'bun:test';
import {
  bootstrapCi,
  bootstrapCiMany,
  mulberry32,
  pairedBootstrapP,
  quantileSorted,
  quantilesInPlace,
} from './bootstrap.ts';

test('mulberry32 is deterministic per seed', () => {
  const a = mulberry32(42);
  const b = mulberry32(42);
  const xs = Array.from({ length: 5 }, () => a());
  expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
  expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
  expect(mulberry32(43)()).not.toBe(xs[0]);
});

test('quantiles interpolate linearly (numpy default)', () => {
  expect(quantileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
  expect(quantileSorted([1, 2, 3, 4], 0.025)).toBeCloseTo(1.075, 12);
  expect(quantileSorted([7], 0.9)).toBe(7);
});

test('bootstrap interval: deterministic, brackets the mean, degenerate cases', () => {
  const scores = [0, 1, 1, 0, 1, 1, 1, 0, 1, 1];
  const a = bootstrapCi(scores, { seed: 3 });
  expect(bootstrapCi(scores, { seed: 3 })).toEqual(a);
  expect(a.mean).toBeCloseTo(0.7, 12);
  expect(a.low).toBeLessThan(0.7);
  expect(a.high).toBeGreaterThan(0.7);
  expect(a.low).toBeGreaterThanOrEqual(0.3);
  expect(a.high).toBeLessThanOrEqual(1);
  expect(bootstrapCi(scores, { seed: 4 })).not.toEqual(a);
  expect(bootstrapCi([0.5, 0.5, 0.5])).toEqual({ mean: 0.5, low: 0.5, high: 0.5, n: 3 });
  expect(bootstrapCi([]).n).toBe(0);
});

test('bootstrapCiMany equals bootstrapCi column by column, across mixed lengths', () => {
  const a = Array.from({ length: 37 }, (_, i) => ((i * 31) % 17) / 17);
  const b = Array.from({ length: 37 }, (_, i) => (i % 3 === 0 ? 1 : 0));
  const c = Array.from({ length: 12 }, (_, i) => i / 11);
  const many = bootstrapCiMany([a, b, c, []], { seed: 9, iterations: 500 });
  expect(many[0]).toEqual(bootstrapCi(a, { seed: 9, iterations: 500 }));
  expect(many[1]).toEqual(bootstrapCi(b, { seed: 9, iterations: 500 }));
  expect(many[2]).toEqual(bootstrapCi(c, { seed: 9, iterations: 500 }));
  expect(many[3]?.n).toBe(0);
});

test('quantilesInPlace equals quantileSorted of the sorted values', () => {
  const rand = mulberry32(3);
  for (const n of [1, 2, 3, 10, 999, 1000]) {
    const values = Float64Array.from({ length: n }, () => Math.floor(rand() * 7) / 7); // many ties
    const sorted = Float64Array.from(values).sort();
    const qs = [0, 0.025, 0.5, 0.975, 1];
    expect(quantilesInPlace(Float64Array.from(values), qs)).toEqual(qs.map((q) => quantileSorted(sorted, q)));
  }
});

test('paired bootstrap: a clear difference is significant, identical runs give p = 1', () => {
  const a = Array.from({ length: 60 }, (_, i) => (i < 50 ? 1 : 0));
  const b = Array.from({ length: 60 }, (_, i) => (i < 20 ? 1 : 0));
  const t = pairedBootstrapP(a, b, 3);
  expect(t.diff).toBeCloseTo(0.5, 10);
  expect(t.p).toBeLessThan(0.01);
  expect(pairedBootstrapP(a, b, 3)).toEqual(t);
  expect(pairedBootstrapP(a, a, 3)).toEqual({ diff: 0, p: 1 });
  expect(pairedBootstrapP([1, 0, 1, 0], [0, 1, 0, 1], 3).p).toBeGreaterThan(0.05);
  expect(() => pairedBootstrapP([1], [1, 2], 3)).toThrow('equal lengths');
});

test('bootstrapCiMany equals the plain definition (mulberry32 draws, sorted means) for any seed and size', () => {
  const plain = (scores: number[], seed: number, iterations: number, level = 0.95) => {
    const n = scores.length;
    const rand = mulberry32(seed);
    const means = new Float64Array(iterations);
    for (let b = 0; b < iterations; b++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += scores[Math.floor(rand() * n)]!;
      means[b] = s / n;
    }
    means.sort();
    const alpha = 1 - level;
    const mean = scores.reduce((a, v) => a + v, 0) / n;
    return { mean, low: quantileSorted(means, alpha / 2), high: quantileSorted(means, 1 - alpha / 2), n };
  };
  const rand = mulberry32(17);
  for (const n of [1, 2, 5, 33, 400])
    for (const iterations of [1, 2, 130, 1000, 4000])
      for (const seed of [0, 7, -7, 2 ** 40 + 3, 4294967295]) {
        const binary = Array.from({ length: n }, () => (rand() < 0.6 ? 1 : 0));
        const real = Array.from({ length: n }, () => rand());
        const got = bootstrapCiMany([binary, real, binary.slice()], { seed, iterations, level: 0.9 });
        const a = plain(binary, seed, iterations, 0.9);
        const b = plain(real, seed, iterations, 0.9);
        expect(got).toEqual([a, b, a]);
      }
});
