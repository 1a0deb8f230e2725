import { expect, test } from 'bun:test';
import { testFlItem } from '@faun/schema/testing';
import type { ApiError } from '../errors.ts';
import { parsePredictions, planJobs } from './plan.ts';

const item = (i: number) => testFlItem(i);
const pred = (i: number, extra: Record<string, unknown> = {}) => ({
  v: 1,
  id: `o/r#${i}`,
  task: 'fl',
  model: 'm',
  output: 'a.py',
  ...extra,
});

test('predictions: unknown, duplicate and wrong-task rows are rejected with their paths', () => {
  const ids = new Set(['o/r#1', 'o/r#2']);
  const paths = (raw: unknown[]) => {
    try {
      parsePredictions('fl', raw, ids);
      return null;
    } catch (e) {
      return ((e as ApiError).details as { path: string }[])[0]!.path;
    }
  };
  expect(paths([pred(1), pred(9)])).toBe('body.predictions.1.id');
  expect(paths([pred(1), pred(1)])).toBe('body.predictions.1.id');
  expect(paths([pred(2, { task: 'qa' })])).toBe('body.predictions.0.task');
  expect(paths([{ id: 'o/r#1' }])).toMatch(/^body\.predictions\.0\./);
  expect(parsePredictions('fl', [pred(2, { model: 'b' }), pred(1, { model: 'a' })], ids).model).toBe('a+b');
});

test('jobs: chunks of the predicted items, skipped results for the rest, done items left out', () => {
  const ds = { task: 'fl' as const, items: [1, 2, 3, 4, 5, 6].map(item) };
  const byId = new Map([1, 2, 3, 5, 6].map((i) => [`o/r#${i}`, pred(i)]));
  const plan = planJobs({ runId: 'r', ds, byId, model: 'm', chunkSize: 2 });
  expect(
    plan.jobs.map((j) => [j.id, (j.data as { items: { id: string }[] }).items.map((x) => x.id)]),
  ).toEqual([
    ['r:0', ['o/r#1', 'o/r#2']],
    ['r:1', ['o/r#3', 'o/r#5']],
    ['r:2', ['o/r#6']],
  ]);
  expect(plan.skipped.map((s) => [s.itemId, s.outcome])).toEqual([['o/r#4', 'skipped']]);
  const resumed = planJobs({
    runId: 'r',
    ds,
    byId,
    model: 'm',
    chunkSize: 2,
    done: new Set(['o/r#1', 'o/r#4']),
    tag: 'x',
  });
  expect(resumed.jobs.map((j) => j.id)).toEqual(['r:x:0', 'r:x:1']);
  expect(resumed.skipped).toEqual([]);
});
