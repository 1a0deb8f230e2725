import { expect, test } from 'bun:test';
import {
  compareRuns,
  disagreements,
  itemValue,
  minDiffering,
  parseView,
  type RunValues,
  solvedOf,
  viewRows,
} from './compare-core.ts';

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
  expect(same.tests[0]).toEqual({ run: 'a', diff: 0, p: 1, significant: false, differing: 0 });
  expect(disagreements(same)).toEqual([]);
  expect(same.rows.find((r) => r.id === 'extra')!.cells[0]).toEqual({
    outcome: null,
    value: 0,
    solved: false,
  });
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

test('a comparison over too few differing items is never significant', () => {
  expect(minDiffering(0.05)).toBe(6);
  expect(minDiffering(0.01)).toBe(8);
  const two = compareRuns([runOf('a', { x: 0, y: 0 }), runOf('b', { x: 1, y: 1 })], ['x', 'y'], {
    binary: true,
  });
  expect(two.tests[0]!.p).toBeLessThan(0.05);
  expect(two.tests[0]!.significant).toBe(false);
  expect(two.tests[0]!.differing).toBe(2);
  const ids = Array.from({ length: 8 }, (_, i) => `i${i}`);
  const many = compareRuns(
    [
      runOf('a', Object.fromEntries(ids.map((id) => [id, 0]))),
      runOf('b', Object.fromEntries(ids.map((id) => [id, 1]))),
    ],
    ids,
    { binary: true },
  );
  expect(many.tests[0]!.significant).toBe(true);
});

test('side-by-side views: disagreements, all failed, only one run solved', () => {
  const run = (id: string, solved: Record<string, boolean>): RunValues => ({
    id,
    model: id,
    items: new Map(
      Object.entries(solved).map(([k, v]) => [
        k,
        { outcome: v ? 'pass' : 'fail', value: v ? 1 : 0, solved: v },
      ]),
    ),
  });
  const a = run('a', { x: true, y: false, z: false, w: true });
  const b = run('b', { x: true, y: true, z: false, w: false });
  const c = compareRuns([a, b], ['w', 'x', 'y', 'z'], { binary: true });
  const ids = (v: string) => viewRows(c, parseView(v, 2)).map((r) => r.id);
  expect(ids('all')).toEqual(['w', 'x', 'y', 'z']);
  expect(ids('disagree')).toEqual(['w', 'y']);
  expect(ids('all-failed')).toEqual(['z']);
  expect(ids('only-0')).toEqual(['w']);
  expect(ids('only-1')).toEqual(['y']);
  expect(parseView('only-5', 2)).toEqual({ kind: 'all' });
  expect(solvedOf('ce', { outcome: 'scored', scores: { file_em: 1 } }, 0.3)).toBe(true);
  expect(solvedOf('qa', { outcome: 'scored', scores: {} }, 0.49)).toBe(false);
  expect(solvedOf('fl', { outcome: 'pass', scores: {} }, 1)).toBe(true);
});
