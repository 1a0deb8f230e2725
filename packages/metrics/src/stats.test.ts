import { expect, test } from 'bun:test';
import { mean, wilsonInterval } from './stats.ts';

test('wilson interval matches the textbook values', () => {
  expect(wilsonInterval(0, 0)).toEqual([0, 0]);
  // 8/10 → [0.4902, 0.9433] (Wilson, z=1.96)
  expect(wilsonInterval(8, 10)).toEqual([0.4902, 0.9433]);
  expect(wilsonInterval(10, 10)[1]).toBe(1);
  expect(wilsonInterval(0, 10)[0]).toBe(0);
});

test('mean: the caller chooses the value of an empty list', () => {
  expect(mean([1, 2, 3, 4], 0)).toBe(2.5);
  expect(mean([], 0)).toBe(0);
  expect(mean([], Number.NaN)).toBeNaN();
});
