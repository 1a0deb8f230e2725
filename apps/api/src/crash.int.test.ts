/**
 * kill -9 under load: a server over a PGlite folder is killed 20 times while runs are being submitted and
 * scored; after the last restart every accepted run is `done` exactly once — all its results, progress
 * equal to its size, one leaderboard row — and no run is left behind.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from './db/open.ts';
import { createKey } from './service/keys.ts';
import { FL_DATASET_SIZE, flItems, flPredictions } from './testkit.ts';

const root = mkdtempSync(join(tmpdir(), 'faun-api-crash-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CYCLES = 20;
const CHILD = `
import { startServer } from ${JSON.stringify(join(import.meta.dir, 'server.ts'))};
const h = await startServer({
  port: 0, db: process.argv[2], datasetsDir: process.argv[3], redisUrl: null, chunkSize: 3, inlineWorkers: 2,
  config: { keyCacheMs: 60_000 }, log: () => {},
});
process.stdout.write('URL ' + h.url + '\\n');
`;

async function start(script: string, db: string, ds: string) {
  const p = Bun.spawn(['bun', script, db, ds], {
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, FAUN_WORKER_SLOW_MS: '15' },
  });
  const reader = (p.stdout as ReadableStream<Uint8Array>).getReader();
  let out = '';
  const until = Date.now() + 60_000;
  while (!out.includes('\n') && Date.now() < until) {
    const { done, value } = await reader.read();
    if (done) break;
    out += new TextDecoder().decode(value);
  }
  const url = /URL (\S+)/.exec(out)?.[1];
  if (!url) {
    p.kill('SIGKILL');
    throw new Error(`server did not start: ${out} ${await new Response(p.stderr).text()}`);
  }
  return { p, url };
}

test(`${CYCLES} kill -9 cycles under load leave every accepted run done exactly once`, async () => {
  const db = join(root, 'db');
  const ds = join(root, 'datasets');
  mkdirSync(ds);
  const items = flItems(FL_DATASET_SIZE);
  writeFileSync(join(ds, 'fl-small.jsonl'), `${items.map((x) => JSON.stringify(x)).join('\n')}\n`);
  const script = join(root, 'child.ts');
  writeFileSync(script, CHILD);
  const d = await openDatabase(db);
  const { token } = await createKey(d.db, {
    name: 'crash',
    runsPerDay: 10_000,
    ratePerSec: 1000,
    burst: 1000,
  });
  await d.close();

  const accepted = new Set<string>();
  const body = JSON.stringify({ dataset: 'fl-small', predictions: flPredictions(items, (i) => i % 2 === 0) });
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const { p, url } = await start(script, db, ds);
    // three submissions at once; the kill comes a little after the first is accepted, while runs are
    // being written, scored and finalized
    const post = async () => {
      try {
        const r = await fetch(`${url}/v1/runs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body,
        });
        if (r.status === 202) accepted.add(((await r.json()) as { id: string }).id);
      } catch {
        // killed mid-request: the run may or may not exist; only 202s count
      }
    };
    const posts = [post(), post(), post()];
    await Promise.race(posts);
    await Bun.sleep((cycle * 53) % 300);
    p.kill('SIGKILL');
    await p.exited;
    await Promise.all(posts);
  }
  expect(accepted.size).toBeGreaterThanOrEqual(CYCLES);

  const { p, url } = await start(script, db, ds);
  try {
    const until = Date.now() + 120_000;
    let open = Number.POSITIVE_INFINITY;
    while (open > 0 && Date.now() < until) {
      const r = (await (await fetch(`${url}/v1/runs?per_page=500&status=running`)).json()) as {
        total: number;
      };
      const q = (await (await fetch(`${url}/v1/runs?per_page=500&status=queued`)).json()) as {
        total: number;
      };
      open = r.total + q.total;
      if (open > 0) await Bun.sleep(200);
    }
    expect(open).toBe(0);
  } finally {
    p.kill('SIGKILL');
    await p.exited;
  }

  const check = await openDatabase(db);
  try {
    const res = (await check.db.execute(sql`
      select r.id, r.status, r.done, r.total,
        (select count(*)::int from results x where x.run_id = r.id) as results,
        (select count(distinct item_id)::int from results x where x.run_id = r.id) as items,
        (select count(*)::int from leaderboard l where l.run_id = r.id) as boards
      from runs r`)) as unknown as { rows: Record<string, unknown>[] };
    const byId = new Map(res.rows.map((r) => [String(r.id), r]));
    for (const id of accepted)
      expect(byId.get(id)).toEqual({
        id,
        status: 'done',
        done: FL_DATASET_SIZE,
        total: FL_DATASET_SIZE,
        results: FL_DATASET_SIZE,
        items: FL_DATASET_SIZE,
        boards: 1,
      });
    // runs created by a request the kill cut short are finished too, never left half-way
    for (const r of res.rows) expect(r.status).toBe('done');
  } finally {
    await check.close();
  }
}, 600_000);
