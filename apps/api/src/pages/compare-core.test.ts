import { expect, test } from 'bun:test';
import { compareRuns, disagreements, itemValue, type RunValues } from './compare-core.ts';

const runOf = (id: string, values: Record<string, number>): RunValues => ({
  id,
  model: id,
  items: new Map(
    Object.entries(values).map(([k, v]) => [k, { outcome: v >= 1 ? 'pass' : 'fail', value: v }]),
  ),
});

test('per-item deltas against the baseline, a paired p-value, and the disagreements', () => {
  const ids = Array.from({ length: 40 }, (_, i) => `i${String(i).padStart(2, '0')}`);
  const a = runOf('a', Object.fromEntries(ids.map((id, i) => [id, i < 10 ? 1 : 0])));
  const b = runOf('b', Object.fromEntries(ids.map((id, i) => [id, i < 34 ? 1 : 0])));
  const c = compareRuns([a, b], ids, { binary: true });
  expect(c.means[0]).toBeCloseTo(0.25, 10);
  expect(c.means[1]).toBeCloseTo(0.85, 10);
  expect(c.tests[0]!.diff).toBeCloseTo(0.6, 10);
  expect(c.tests[0]!.p).toBeLessThan(0.01);
  expect(c.tests[0]!.significant).toBe(true);
  const dis = disagreements(c);
  expect(dis.map((r) => r.id)).toEqual(ids.slice(10, 34));
  expect(dis[0]!.deltas).toEqual([1]);
  // identical runs: p = 1, nothing to disagree on; a missing result counts 0
  const same = compareRuns([a, a], [...ids, 'extra'], { binary: true });
  expect(same.tests[0]).toEqual({ run: 'a', diff: 0, p: 1, significant: false });
  expect(disagreements(same)).toEqual([]);
  expect(same.rows.find((r) => r.id === 'extra')!.cells[0]).toEqual({ outcome: null, value: 0 });
});

test('continuous metrics disagree on a spread of at least the threshold', () => {
  const a = runOf('a', { x: 0.2, y: 0.5 });
  const b = runOf('b', { x: 0.25, y: 0.9 });
  expect(disagreements(compareRuns([a, b], ['x', 'y'])).map((r) => r.id)).toEqual(['y']);
  expect(itemValue('exec', 'resolved', { outcome: 'pass', scores: {} })).toBe(1);
  expect(itemValue('ce', 'codebleu_patch', { outcome: 'scored', scores: { codebleu_patch: 0.25 } })).toBe(
    0.25,
  );
  expect(itemValue('qa', 'rougeL', { outcome: 'skipped', scores: {} })).toBeNull();
});
