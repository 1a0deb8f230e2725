import { describe, expect, test } from 'bun:test';
import { quantileSorted as quantile } from '@faun/metrics';
import { lengthBuckets } from './buckets.ts';

describe('lengthBuckets', () => {
  test('default thresholds are the terciles (linear interpolation)', () => {
    // sorted 10..90: q(1/3) at position 8/3 → 10·(1 + 2.667) = 36.67; q(2/3) at 16/3 → 63.33
    const values = [90, 10, 20, 30, 40, 50, 60, 70, 80];
    const b = lengthBuckets(values);
    expect(b.thresholds[0]).toBeCloseTo(36.6667, 3);
    expect(b.thresholds[1]).toBeCloseTo(63.3333, 3);
    expect(b.assignments.join(' ')).toBe('long short short short medium medium medium long long');
    expect(b.counts).toEqual({ short: 3, medium: 3, long: 3 });
  });

  test('custom thresholds; a value on a threshold goes to the lower bucket', () => {
    const b = lengthBuckets([100, 500, 501, 2000, 9000], [500, 2000]);
    expect(b.assignments).toEqual(['short', 'short', 'medium', 'medium', 'long']);
    const four = lengthBuckets([1, 5, 10, 50], [2, 8, 20]);
    expect(four.labels).toEqual(['≤2', '2<…≤8', '8<…≤20', '>20']);
    expect(four.assignments).toEqual(['≤2', '2<…≤8', '8<…≤20', '>20']);
  });

  test('quantile of an empty list is NaN', () => {
    expect(quantile([], 0.5)).toBeNaN();
    expect(quantile([4], 0.5)).toBe(4);
  });
});
