import { expect, test } from 'bun:test';
import { scoreTask } from '@faun/metrics';
import type { ItemScore } from '@faun/schema';
import { testFlItem } from '@faun/schema/testing';
import { scoreChunk, textOutcome } from './handlers.ts';
import { MemoryQueue } from './memory.ts';
import { createWorkHandler, errorResults } from './worker.ts';

const score = (scores: Record<string, number>, missing = false, unparsed = false): ItemScore => ({
  v: 1,
  id: 'a',
  task: 'fl',
  model: 'm',
  scores,
  answer: null,
  missing,
  unparsed,
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
  // an output the task cannot parse (a CE answer without a SEARCH/REPLACE block) fails
  expect(textOutcome('ce', score({ codebleu_patch: 0 }, false, true), null)).toBe('fail');
});

test('a score job marks unparsed outputs in the result data', async () => {
  const out = await scoreChunk(
    {
      runId: 'r',
      task: 'fl',
      items: [item(1)],
      predictions: [{ v: 1, id: 'o/r#1', task: 'fl', model: 'm', output: 'I do not know' }],
    },
    scoreTask as never,
  );
  expect(out[0]?.outcome).toBe('fail');
  expect(out[0]?.data).toMatchObject({ unparsed: true });
});

const item = (i: number) => testFlItem(i, { tree: ['a.py', 'b.py'] });

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

test('an execution item keeps the test log and every stage log of its instance directory', async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'faun-exec-item-'));
  try {
    writeFileSync(join(dir, 'apply_output.txt'), 'error: patch failed: calc.py:1\n');
    writeFileSync(join(dir, 'build_output.txt'), 'built\n');
    writeFileSync(join(dir, 'test_output.txt'), 'collected 0 items\n');
    const empty = { success: [], failure: [] };
    const r = {
      v: 1 as const,
      instance_id: 'a__b-1',
      model: 'm',
      outcome: 'apply_failed' as const,
      resolved_status: null,
      applied_with: null,
      patch_sha256: 'x',
      image_id: null,
      spec_version: null,
      exit_code: null,
      tests_status: { FAIL_TO_PASS: empty, PASS_TO_PASS: empty, FAIL_TO_FAIL: empty, PASS_TO_FAIL: empty },
      duration_s: 1.5,
      error: null,
      stages: [
        { name: 'apply', status: 'failed' as const, duration_s: 0.1, detail: null, log: 'apply_output.txt' },
        { name: 'build', status: 'ok' as const, duration_s: 1, detail: null, log: 'build_output.txt' },
        { name: 'evil', status: 'ok' as const, duration_s: 0, detail: null, log: '../etc/passwd' },
      ],
    };
    const { executionItem } = await import('./handlers.ts');
    const out = await executionItem('run', r, dir);
    expect(out.outcome).toBe('fail');
    expect(out.log).toBe('collected 0 items\n');
    expect(out.durationMs).toBe(1500);
    expect(out.data).toMatchObject({
      logs: { 'apply_output.txt': 'error: patch failed: calc.py:1\n', 'build_output.txt': 'built\n' },
    });
    expect(Object.keys((out.data as { logs: object }).logs)).toHaveLength(2);
    const bare = await executionItem('run', { ...r, stages: undefined }, null);
    expect(bare.log).toBeNull();
    expect(bare.data).toEqual({ execution: { ...r, stages: undefined } });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
