/** A server stopped in the middle of a run resumes it on the next start: every item ends with one result. */
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScoreTaskFn } from '@faun/jobs';
import { scoreTask } from '@faun/metrics';
import { sql } from 'drizzle-orm';
import { FL_DATASET_SIZE, flItems, flPredictions, startTestServer, waitForRun } from './testkit.ts';

const root = mkdtempSync(join(tmpdir(), 'faun-api-resume-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('an unfinished run is resumed after a restart', async () => {
  const db = join(root, 'db');
  const slow: ScoreTaskFn = async (...a) => {
    await Bun.sleep(150);
    return scoreTask(...a);
  };
  const first = await startTestServer({ db, serve: { scoreTask: slow, chunkSize: 2, inlineWorkers: 1 } });
  const items = flItems(FL_DATASET_SIZE);
  const r = await first.req('/v1/runs', {
    method: 'POST',
    json: { dataset: 'fl-small', predictions: flPredictions(items, (i) => i % 2 === 0) },
  });
  const { id } = (await r.json()) as { id: string };
  await Bun.sleep(400);
  const partial = (await (await first.req(`/v1/runs/${id}`)).json()) as { status: string; done: number };
  expect(partial.status).toBe('running');
  expect(partial.done).toBeLessThan(FL_DATASET_SIZE);
  await first.close();

  const second = await startTestServer({ db });
  try {
    const run = await waitForRun(second, id);
    expect(run).toMatchObject({ status: 'done', done: FL_DATASET_SIZE });
    const res = (await second.services.db.db.execute(
      sql`select count(*)::int as n, count(distinct item_id)::int as d from results where run_id = ${id}`,
    )) as unknown as { rows: { n: number; d: number }[] };
    expect(res.rows[0]).toEqual({ n: FL_DATASET_SIZE, d: FL_DATASET_SIZE });
    const report = (await (await second.req(`/v1/runs/${id}/report`)).json()) as {
      counts: Record<string, number>;
    };
    expect(report.counts).toEqual({ pass: 15, fail: 15, error: 0, timeout: 0, skipped: 0, scored: 0 });
  } finally {
    await second.close();
  }
}, 60_000);
