/**
 * Model names are owned by the key that first published them (the server's imports: by nobody but
 * admins): a second key cannot publish as `bm25` or as another key's model; an admin can; the
 * leaderboard names each model's owner.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  FL_DATASET_SIZE,
  flItems,
  flPredictions,
  startTestServer,
  type TestServer,
  waitForRun,
} from './testkit.ts';

let s: TestServer;
const items = flItems(FL_DATASET_SIZE);
beforeAll(async () => {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const preds = mkdtempSync(join(tmpdir(), 'faun-api-models-'));
  mkdirSync(preds, { recursive: true });
  writeFileSync(
    join(preds, 'fl-bm25.jsonl'),
    `${flPredictions(items, (i) => i < 5, 'bm25')
      .map((p) => JSON.stringify(p))
      .join('\n')}\n`,
  );
  s = await startTestServer({ serve: { imports: [preds] } });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const submit = (token: string, model: string) =>
  s.req('/v1/runs', {
    method: 'POST',
    token,
    json: { dataset: 'fl-small', predictions: flPredictions(items, () => true, model) },
  });

type Board = {
  items: { run_id: string; model: string; owner: string | null; metrics: { em: { value: number } } }[];
};

test('a second key cannot publish as bm25, nor as another key’s model; an admin can', async () => {
  const mallory = await s.newKey({ name: 'mallory' });
  const posed = await submit(mallory, 'bm25');
  expect(posed.status).toBe(403);
  expect(((await posed.json()) as { error: { code: string } }).error.code).toBe('model_owned');
  const board = (await (await s.req('/v1/leaderboard?dataset=fl-small&task=fl')).json()) as Board;
  const bm25 = board.items.find((e) => e.model === 'bm25');
  expect(bm25?.metrics.em.value).toBeCloseTo(5 / FL_DATASET_SIZE, 10);
  expect(bm25?.owner).toBeNull();

  const alice = await s.newKey({ name: 'alice' });
  const first = await submit(alice, 'alice:model');
  expect(first.status).toBe(202);
  await waitForRun(s, ((await first.json()) as { id: string }).id);
  expect((await submit(mallory, 'alice:model')).status).toBe(403);
  expect((await submit(alice, 'alice:model')).status).toBe(202);
  const byAdmin = await submit(s.admin, 'bm25');
  expect(byAdmin.status).toBe(202);
  await waitForRun(s, ((await byAdmin.json()) as { id: string }).id);

  const after = (await (await s.req('/v1/leaderboard?dataset=fl-small&task=fl')).json()) as Board;
  expect(after.items.find((e) => e.model === 'alice:model')?.owner).toBe('alice');
  const page = await (await s.req('/leaderboard?dataset=fl-small&task=fl')).text();
  expect(page).toContain('<td class="muted">alice</td>');
}, 60_000);
