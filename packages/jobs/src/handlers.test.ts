import { expect, test } from 'bun:test';
import { scoreTask } from '@faun/metrics';
import type { ItemScore } from '@faun/schema';
import { scoreChunk, textOutcome } from './handlers.ts';
import { MemoryQueue } from './memory.ts';
import { createWorkHandler, errorResults } from './worker.ts';

const score = (scores: Record<string, number>, missing = false): ItemScore => ({
  v: 1,
  id: 'a',
  task: 'fl',
  model: 'm',
  scores,
  answer: null,
  missing,
  note: null,
});

test('text outcomes: error, skipped, fail, pass', () => {
  expect(textOutcome('fl', score({ em: 1 }), 'rate limited')).toBe('error');
  expect(textOutcome('fl', undefined, null)).toBe('skipped');
  expect(textOutcome('fl', score({ em: 0 }, true), null)).toBe('fail');
  expect(textOutcome('fl', score({ em: 0 }), null)).toBe('fail');
  expect(textOutcome('fl', score({ em: 1 }), null)).toBe('pass');
  // QA and CE metrics have no pass mark: a scored item is `scored`, even at 0 or with an em metric
  expect(textOutcome('qa', score({ bleu: 0, rougeL: 0 }), null)).toBe('scored');
  expect(textOutcome('qa', score({ rougeL: 0.9 }), null)).toBe('scored');
  expect(textOutcome('ce', score({ em: 1, codebleu_file: 1 }), null)).toBe('scored');
  expect(textOutcome('qa', score({ bleu: 0 }, true), null)).toBe('fail');
  expect(textOutcome('qa', undefined, null)).toBe('skipped');
});

const item = (i: number) => ({
  v: 1,
  id: `o/r#${i}`,
  repo: 'o/r',
  language: 'python',
  issue_number: i,
  issue_title: 't',
  issue_body: 'b',
  task: 'fl',
  base_commit: null,
  tree: ['a.py', 'b.py'],
  gold_path: 'a.py',
});

test('a score job posts one result per item with the scoreTask scores', async () => {
  const items = [item(1), item(2)];
  const predictions = [
    { v: 1, id: 'o/r#1', task: 'fl', model: 'm', output: 'a.py' },
    { v: 1, id: 'o/r#2', task: 'fl', model: 'm', output: 'b.py' },
  ];
  const out = await scoreChunk({ runId: 'r', task: 'fl', items, predictions }, scoreTask as never);
  expect(out.map((r) => [r.itemId, r.outcome, r.scores?.em])).toEqual([
    ['o/r#1', 'pass', 1],
    ['o/r#2', 'fail', 0],
  ]);
  const results = new MemoryQueue('results');
  const posted: unknown[] = [];
  await results.process(async (j) => {
    posted.push(j.data);
  });
  const handler = createWorkHandler(results, { score: async () => out, verify: async () => out[0]! });
  const ctx = {
    id: 'j1',
    name: 'score',
    data: { runId: 'r', task: 'fl', items, predictions },
    attempt: 1,
    attempts: 3,
    progress: async () => {},
  };
  await handler(ctx);
  await handler(ctx); // a re-run posts under the same id: deduplicated
  await results.drained();
  expect(posted.length).toBe(1);
  await expect(handler({ ...ctx, name: 'nope' })).rejects.toThrow(/unknown job kind/);
  expect(errorResults('score', ctx.data, 'boom')?.results.map((r) => [r.itemId, r.outcome, r.error])).toEqual(
    [
      ['o/r#1', 'error', 'boom'],
      ['o/r#2', 'error', 'boom'],
    ],
  );
});
