/**
 * Quotas are taken in the same transaction as the run they admit — exact under concurrent submissions on
 * PGlite and on PostgreSQL — and count submissions: deleting a run gives nothing back. Deleting a run
 * cancels its queued jobs and aborts its running one, and the deletion is recorded. The scoring item quota
 * lives in the database: a restart does not reset it.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScoreTaskFn } from '@faun/jobs';
import { ensurePostgres, type ServiceHandle } from '@faun/services';
import { eq } from 'drizzle-orm';
import { results, runDeletions } from './db/schema.ts';
import { FL_DATASET_SIZE, flItems, flPredictions, startTestServer } from './testkit.ts';

let pg: ServiceHandle | null = null;
afterAll(async () => {
  await pg?.stop();
});

for (const backend of ['pglite', 'postgres'] as const) {
  describe(`quotas over ${backend}`, () => {
    test('20 concurrent submissions on a 3-runs-a-day key: exactly 3 accepted; a delete gives none back', async () => {
      let db: string | undefined;
      if (backend === 'postgres') {
        pg ??= await ensurePostgres();
        db = pg.url;
      }
      const s = await startTestServer(db ? { db } : {});
      try {
        const token = await s.newKey({ name: `three-${backend}`, runsPerDay: 3 });
        const json = { dataset: 'fl-small', predictions: flPredictions(flItems(3), () => true) };
        const answers = await Promise.all(
          Array.from({ length: 20 }, () => s.req('/v1/runs', { method: 'POST', json, token })),
        );
        const codes = answers.map((r) => r.status).sort();
        expect(codes.filter((c) => c === 202).length).toBe(3);
        expect(codes.filter((c) => c === 429).length).toBe(17);
        const accepted = await Promise.all(
          answers.filter((r) => r.status === 202).map(async (r) => ((await r.json()) as { id: string }).id),
        );
        expect((await s.req(`/v1/runs/${accepted[0]}`, { method: 'DELETE', token })).status).toBe(204);
        const again = await s.req('/v1/runs', { method: 'POST', json, token });
        expect(again.status).toBe(429);
        expect(await again.json()).toMatchObject({
          error: { code: 'quota_exceeded', details: { quota: 'runs_per_day', limit: 3, used: 3 } },
        });
      } finally {
        await s.close();
      }
    }, 120_000);
  });
}

test('deleting a run cancels its queued jobs, aborts the running one and records the deletion', async () => {
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let calls = 0;
  const blocked: ScoreTaskFn = async (...a) => {
    calls++;
    await gate;
    const { scoreTask } = await import('@faun/metrics');
    return (scoreTask as unknown as ScoreTaskFn)(...a);
  };
  const s = await startTestServer({ serve: { scoreTask: blocked, chunkSize: 2, inlineWorkers: 1 } });
  try {
    const r = await s.req('/v1/runs', {
      method: 'POST',
      json: { dataset: 'fl-small', predictions: flPredictions(flItems(FL_DATASET_SIZE), () => true) },
    });
    const { id } = (await r.json()) as { id: string };
    const until = Date.now() + 10_000;
    while (calls === 0 && Date.now() < until) await Bun.sleep(10);
    expect((await s.services.work.counts()).waiting).toBe(FL_DATASET_SIZE / 2 - 1);
    expect((await s.req(`/v1/runs/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await s.services.work.counts()).waiting).toBe(0);
    release();
    await s.services.work.drained();
    await s.services.results.drained();
    expect(calls).toBe(1);
    const db = s.services.db.db;
    expect(await db.select().from(results).where(eq(results.runId, id))).toEqual([]);
    const [rec] = await db.select().from(runDeletions).where(eq(runDeletions.runId, id));
    expect(rec).toMatchObject({ runId: id, keyId: s.keyId, jobsCancelled: FL_DATASET_SIZE / 2 });
  } finally {
    release();
    await s.close();
  }
}, 60_000);

test('the scoring item quota survives a restart', async () => {
  const root = mkdtempSync(join(tmpdir(), 'faun-api-scoreq-'));
  const db = join(root, 'db');
  const items = flItems(6);
  const json = { items, predictions: flPredictions(items, () => true), bootstrap: 0 };
  try {
    const first = await startTestServer({ db });
    const token = await first.newKey({ name: 'ten', itemsPerDay: 10 });
    expect((await first.req('/v1/score/fl', { method: 'POST', json, token })).status).toBe(200);
    await first.close();
    const second = await startTestServer({ db });
    try {
      const r = await second.req('/v1/score/fl', { method: 'POST', json, token });
      expect(r.status).toBe(429);
      expect(await r.json()).toMatchObject({ error: { details: { quota: 'items_per_day', used: 6 } } });
      const four = { items: items.slice(0, 4), predictions: json.predictions.slice(0, 4), bootstrap: 0 };
      expect((await second.req('/v1/score/fl', { method: 'POST', json: four, token })).status).toBe(200);
    } finally {
      await second.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 120_000);
