import { describe, expect, test } from 'bun:test';
import { Prediction } from '@faun/schema';
import { dedupePredictions, detectTask, idList, type Lined } from './score-input.ts';

const row = (line: number, id: string, model: string, output: string): Lined<Prediction> => ({
  line,
  value: Prediction.parse({ id, task: 'fl', model, output }),
});

describe('dedupePredictions', () => {
  const rows = [
    row(1, 'a', 'm', 'one'),
    row(2, 'a', 'n', 'other model'),
    row(4, 'a', 'm', 'two'),
    row(5, 'b', 'm', 'b'),
  ];
  test('error: each repeat of (model, id) names the first line; other models are not repeats', () => {
    const r = dedupePredictions('p.jsonl', rows, 'error');
    expect(r.issues).toEqual([
      { file: 'p.jsonl', line: 4, field: 'id', problem: 'duplicate of line 1 (id "a", model m)' },
    ]);
  });
  test('first / last keep that occurrence, in file order', () => {
    const first = dedupePredictions('p.jsonl', rows, 'first');
    expect(first.kept.map((r) => r.line)).toEqual([1, 2, 5]);
    expect(first.dropped).toBe(1);
    const last = dedupePredictions('p.jsonl', rows, 'last');
    expect(last.kept.map((r) => r.value.output)).toEqual(['other model', 'two', 'b']);
    expect(last.issues).toEqual([]);
  });
});

test('detectTask reads the task field, then the gold field; a prediction row is named', () => {
  expect(detectTask({ task: 'ce' })).toBe('ce');
  expect(detectTask({ gold_path: 'x' })).toBe('fl');
  expect(detectTask({ gold_patch: 'x' })).toBe('ce');
  expect(detectTask({ answer: 'x' })).toBe('qa');
  expect(detectTask({ id: 'x', task: 'fl', model: 'm', output: '' })).toBe('predictions');
  expect(detectTask([1])).toBeNull();
  expect(detectTask({ id: 'x' })).toBeNull();
});

test('idList shows the count and at most the first few ids', () => {
  expect(idList(['a', 'b'])).toBe('2: a, b');
  expect(idList(['a', 'b', 'c'], 2)).toBe('3: a, b, …');
});
