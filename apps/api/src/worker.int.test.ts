/**
 * Distributed scoring: the API enqueues on a real Redis, two `faun worker` child processes pull the jobs,
 * one is SIGKILLed midway; its jobs are recovered by the stalled-job check and every item ends up with
 * exactly one result.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureRedis, type ServiceHandle } from '@faun/services';
import { sql } from 'drizzle-orm';
import { flItems, flPredictions, startTestServer, type TestServer, waitForRun } from './testkit.ts';

const CLI = resolve(import.meta.dir, '../../cli/src/main.ts');
const N = 120;
/** Each job sleeps this long after its start line, so a job seen starting moments ago is still held. */
const SLOW_MS = 200;

let redis: ServiceHandle;
let s: TestServer;
const workers: ReturnType<typeof Bun.spawn>[] = [];

beforeAll(async () => {
  redis = await ensureRedis();
  s = await startTestServer({ serve: { redisUrl: redis.url, inlineWorkers: 0, chunkSize: 2 } });
  writeFileSync(
    join(s.dir, 'datasets', 'fl-big.jsonl'),
    `${flItems(N)
      .map((x) => JSON.stringify(x))
      .join('\n')}\n`,
  );
  await s.services.datasets.add(join(s.dir, 'datasets', 'fl-big.jsonl'));
}, 60_000);

afterAll(async () => {
  for (const w of workers) w.kill('SIGKILL');
  await s?.close();
  await redis?.stop();
});

function startWorker() {
  const proc = Bun.spawn(
    ['bun', CLI, 'worker', '--redis-url', redis.url, '--concurrency', '2', '--lock-ms', '1000'],
    {
      env: { ...process.env, FAUN_WORKER_SLOW_MS: String(SLOW_MS), REDIS_URL: '' },
      stdout: 'pipe',
      stderr: 'pipe',
    },
  );
  workers.push(proc);
  const started = new Set<string>();
  const startedAt = new Map<string, number>();
  const finished = new Set<string>();
  void (async () => {
    const dec = new TextDecoder();
    let carry = '';
    for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
      const lines = (carry + dec.decode(chunk)).split('\n');
      carry = lines.pop() ?? '';
      for (const l of lines) {
        const m = /^job (\S+) score (start|done)/.exec(l);
        if (m) (m[2] === 'start' ? started : finished).add(m[1]!);
        if (m?.[2] === 'start') startedAt.set(m[1]!, Date.now());
      }
    }
  })();
  return { proc, started, startedAt, finished, done: () => finished.size };
}

test('every job completes exactly once although a worker is killed midway', async () => {
  const a = startWorker();
  const b = startWorker();
  const items = flItems(N);
  const submit = await s.req('/v1/runs', {
    method: 'POST',
    json: { dataset: 'fl-big', predictions: flPredictions(items, (i) => i % 3 !== 0) },
  });
  expect(submit.status).toBe(202);
  const { id } = (await submit.json()) as { id: string };
  // Kill A while it holds a job: its own log says it started one less than a quarter of the job's sleep
  // ago, so the job cannot have finished yet (between two jobs there would be nothing to recover).
  const holding = () => [...a.startedAt].some(([j, t]) => !a.finished.has(j) && Date.now() - t < SLOW_MS / 4);
  const until = Date.now() + 30_000;
  while ((a.done() < 5 || !holding()) && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
  expect(a.done()).toBeGreaterThanOrEqual(5);
  expect(holding()).toBe(true);
  a.proc.kill('SIGKILL');
  await a.proc.exited;
  const doneByA = a.done();
  const heldByA = [...a.started].filter((j) => !a.finished.has(j));
  const run = await waitForRun(s, id, 60_000);
  expect(run.status).toBe('done');
  expect(doneByA).toBeLessThan(N / 2);
  // the jobs A was running when it died were picked up again and finished by B
  expect(heldByA.length).toBeGreaterThan(0);
  for (const j of heldByA) expect(b.finished.has(j)).toBe(true);
  const rows = (await s.services.db.db.execute(
    sql`select count(*)::int as n, count(distinct item_id)::int as d,
        sum(case when outcome = 'pass' then 1 else 0 end)::int as pass,
        sum(case when outcome = 'fail' then 1 else 0 end)::int as fail
        from results where run_id = ${id}`,
  )) as unknown as { rows?: Record<string, number>[] } | Record<string, number>[];
  const row = (Array.isArray(rows) ? rows[0] : rows.rows?.[0])!;
  expect(row).toEqual({ n: N, d: N, pass: (N * 2) / 3, fail: N / 3 });
  const report = (await (await s.req(`/v1/runs/${id}/report`)).json()) as { counts: Record<string, number> };
  expect(report.counts).toEqual({
    pass: (N * 2) / 3,
    fail: N / 3,
    error: 0,
    timeout: 0,
    skipped: 0,
    scored: 0,
  });
}, 90_000);
