import { expect, test } from 'bun:test';
import { scoreTask } from '@faun/metrics';
import { ScorePool } from './score-pool.ts';

const base = { v: 1, repo: 'o/r', issue_number: 1, issue_title: 't', issue_body: 'b', language: 'python' };
const items = ['a', 'b', 'c'].map((id) => ({
  ...base,
  id,
  task: 'fl',
  base_commit: null,
  tree: ['src/a.py', 'src/b.py', 'src/c.py'],
  gold_path: `src/${id}.py`,
}));
const predictions = items.map((it) => ({
  v: 1,
  id: it.id,
  task: 'fl',
  model: 'm:x',
  output: `src/${it.id}.py`,
}));

test('the pool scores a call on a thread as scoreTask does in process; a closed pool refuses calls', async () => {
  const pool = new ScorePool({ threads: 1 });
  const direct = await scoreTask('fl', items, predictions, { bootstrap: 100, seed: 3 });
  const pooled = await pool.scoreTask('fl', items, predictions, { bootstrap: 100, seed: 3 });
  expect(pooled.items.length).toBe(3);
  expect(pooled).toEqual(direct);
  await pool.close();
  await expect(pool.scoreTask('fl', items, predictions)).rejects.toThrow('the scoring pool is closed');
});

test('calls beyond the queue limit are refused with 503 busy', async () => {
  const pool = new ScorePool({ threads: 1, maxQueued: 1 });
  const first = pool.scoreTask('fl', items, predictions, { bootstrap: 2000 });
  const second = pool.scoreTask('fl', items, predictions, { bootstrap: 2000 });
  const third = await pool.scoreTask('fl', items, predictions).catch((e: { status?: number }) => e);
  expect((third as { status?: number }).status).toBe(503);
  await Promise.all([first, second]);
  await pool.close();
});
