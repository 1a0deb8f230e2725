import { expect, test } from 'bun:test';
import { mean } from '@faun/metrics';
import { bootstrap, bootstrapMean, bucketOf, deriveSeed, pairedBootstrapP, terciles } from './stats.ts';

test('the generic bootstrap of the mean gives the same interval as bootstrapMean', () => {
  const values = Array.from({ length: 50 }, (_, i) => ((i * 7919) % 13) / 13);
  const generic = bootstrap(
    values.length,
    (idx) =>
      mean(
        idx.map((i) => values[i] ?? 0),
        Number.NaN,
      ),
    { seed: 5 },
  );
  const direct = bootstrapMean(values, 5);
  expect(generic.lo).toBeCloseTo(direct.lo, 12);
  expect(generic.hi).toBeCloseTo(direct.hi, 12);
  expect(generic.value).toBeCloseTo(direct.value, 12);
});

test('bootstrap interval brackets the mean, is seeded, and degenerates for constant data', () => {
  const values = Array.from({ length: 200 }, (_, i) => (i % 4 === 0 ? 1 : 0));
  const a = bootstrapMean(values, 7);
  const b = bootstrapMean(values, 7);
  expect(a).toEqual(b);
  expect(a.value).toBe(0.25);
  expect(a.lo).toBeLessThan(0.25);
  expect(a.hi).toBeGreaterThan(0.25);
  expect(a.hi - a.lo).toBeLessThan(0.15);
  const c = bootstrapMean([0.5, 0.5, 0.5], 1);
  expect([c.lo, c.value, c.hi]).toEqual([0.5, 0.5, 0.5]);
});

test('paired bootstrap: a clear difference is significant, identical systems are not', () => {
  const a = Array.from({ length: 100 }, (_, i) => (i < 80 ? 1 : 0));
  const b = Array.from({ length: 100 }, (_, i) => (i < 20 ? 1 : 0));
  const strong = pairedBootstrapP(a, b, 3);
  expect(strong.diff).toBeCloseTo(0.6, 10);
  expect(strong.p).toBeLessThan(0.01);
  expect(pairedBootstrapP(a, a, 3)).toEqual({ diff: 0, p: 1 });
  const noisy = pairedBootstrapP([1, 0, 1, 0], [0, 1, 0, 1], 3);
  expect(noisy.p).toBe(1);
});

test('terciles and buckets', () => {
  const lengths = [1, 2, 3, 4, 5, 6, 7, 8, 9];
  const t = terciles(lengths);
  expect(t[0]).toBeCloseTo(3.6667, 3);
  expect(t[1]).toBeCloseTo(6.3333, 3);
  expect(lengths.map((l) => bucketOf(l, t)).join(' ')).toBe(
    'short short short medium medium medium long long long',
  );
  expect(deriveSeed(0, 'a')).not.toBe(deriveSeed(0, 'b'));
});
