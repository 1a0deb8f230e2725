/**
 * The HTTP suite, run twice: over embedded PGlite and over a real PostgreSQL server started here.
 * Every request goes over real HTTP to a server on 127.0.0.1:0.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { FAUN_VERSION } from '@faun/kit';
import { ensurePostgres, type ServiceHandle } from '@faun/services';
import {
  FL_DATASET_SIZE,
  flItems,
  flPredictions,
  qaItems,
  REPOS,
  startTestServer,
  type TestServer,
  waitForRun,
} from './testkit.ts';

let pg: ServiceHandle | null = null;
afterAll(async () => {
  await pg?.stop();
});

/** The API's behaviour, one case a test, run against each database backend. */
type Backend = 'pglite' | 'postgres';

const CASES: [name: string, run: (s: TestServer, backend: Backend) => Promise<void>, timeoutMs?: number][] = [
  [
    'healthz reports the version; readyz sees the database and the queue',
    async (s, backend) => {
      const h = await s.req('/healthz', { token: null });
      expect(h.status).toBe(200);
      expect(await h.json()).toEqual({ status: 'ok', version: FAUN_VERSION });
      const r = await s.req('/readyz', { token: null });
      expect(r.status).toBe(200);
      expect(await r.json()).toMatchObject({
        status: 'ready',
        database: { ok: true, backend },
        queue: { ok: true },
      });
      expect(h.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      const mine = await s.req('/healthz', { headers: { 'x-request-id': 'client-42' } });
      expect(mine.headers.get('x-request-id')).toBe('client-42');
      const bad = await s.req('/healthz', { headers: { 'x-request-id': '<script>' } });
      expect(bad.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    },
  ],
  [
    '401 without a key, with a wrong key, with a malformed header, with a revoked key',
    async (s) => {
      const body = { items: flItems(1), predictions: [] };
      const none = await s.req('/v1/score/fl', { method: 'POST', json: body, token: null });
      expect(none.status).toBe(401);
      const env = (await none.json()) as { error: { code: string } };
      expect(env.error.code).toBe('unauthorized');
      const wrongSecret = s.key.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
      expect((await s.req('/v1/score/fl', { method: 'POST', json: body, token: wrongSecret })).status).toBe(
        401,
      );
      expect(
        (
          await s.req('/v1/score/fl', {
            method: 'POST',
            json: body,
            token: 'faun_000000000000_AAAAAAAAAAAAAAAAAAAA',
          })
        ).status,
      ).toBe(401);
      const malformed = await fetch(`${s.url}/v1/score/fl`, {
        method: 'POST',
        headers: { authorization: 'Basic abc' },
      });
      expect(malformed.status).toBe(401);
      const doomed = await s.newKey({ name: 'doomed' });
      expect((await s.req('/v1/score/fl', { method: 'POST', json: body, token: doomed })).status).toBe(200);
      const { revokeKey } = await import('./service/keys.ts');
      await revokeKey(s.services.db.db, doomed.split('_')[1]!);
      expect((await s.req('/v1/score/fl', { method: 'POST', json: body, token: doomed })).status).toBe(401);
      // reads are public by default, but a wrong key on a read is still rejected
      expect((await s.req('/v1/datasets', { token: null })).status).toBe(200);
      expect((await s.req('/v1/datasets', { token: wrongSecret })).status).toBe(401);
    },
  ],
  [
    '413 for a body over the limit',
    async (s) => {
      const big = {
        items: flItems(1).map((it) => ({ ...it, issue_body: 'y'.repeat(300 * 1024) })),
        predictions: [],
      };
      const r = await s.req('/v1/score/fl', { method: 'POST', json: big });
      expect(r.status).toBe(413);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
    },
  ],
  [
    '400 with field paths for malformed bodies',
    async (s) => {
      const items = flItems(2) as Record<string, unknown>[];
      delete items[1]!.gold_path;
      const r = await s.req('/v1/score/fl', { method: 'POST', json: { items, predictions: [] } });
      expect(r.status).toBe(400);
      const e = (await r.json()) as { error: { code: string; details: { path: string }[] } };
      expect(e.error.code).toBe('invalid_request');
      expect(e.error.details.map((d) => d.path)).toContain('body.items.1.gold_path');
      const postFl = (body: string, type: string) =>
        s.req('/v1/score/fl', { method: 'POST', body, headers: { 'content-type': type } });
      const bad = await postFl('{"items": [', 'application/json');
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
      const wrongTask = await s.req('/v1/score/fl', {
        method: 'POST',
        json: { items: [{ ...flItems(1)[0], task: 'qa' }], predictions: [] },
      });
      expect(wrongTask.status).toBe(400);
      const plain = await postFl('{}', 'text/plain');
      expect(plain.status).toBe(415);
      expect(((await plain.json()) as { error: { code: string } }).error.code).toBe('unsupported_media_type');
      const page = await s.req('/v1/runs?page=0');
      expect(page.status).toBe(400);
      expect(((await page.json()) as { error: { details: { path: string }[] } }).error.details[0]!.path).toBe(
        'query.page',
      );
    },
  ],
  [
    'scores equal scoreTask: exact match is 1 for the gold path and 0 otherwise',
    async (s) => {
      const items = flItems(6);
      const preds = flPredictions(items, (i) => i % 2 === 0);
      const r = await s.req('/v1/score/fl', {
        method: 'POST',
        json: { items, predictions: preds, seed: 3, bootstrap: 200 },
      });
      expect(r.status).toBe(200);
      const body = (await r.json()) as {
        items: { id: string; scores: Record<string, number> }[];
        aggregate: Record<string, { mean: number }>;
      };
      expect(body.items.map((x) => x.scores.em)).toEqual([1, 0, 1, 0, 1, 0]);
      expect(body.aggregate.em!.mean).toBeCloseTo(0.5, 10);
      const { scoreTask } = await import('@faun/metrics');
      const direct = await scoreTask('fl', items, preds, { seed: 3, bootstrap: 200 });
      expect(body).toEqual(JSON.parse(JSON.stringify(direct)));
    },
  ],
  [
    'quotas: runs per day and items per day; rate limit with Retry-After',
    async (s) => {
      const oneRun = await s.newKey({ name: 'one-run', runsPerDay: 1 });
      const items = flItems(FL_DATASET_SIZE);
      const json = { dataset: 'fl-small', predictions: flPredictions(items.slice(0, 3), () => true) };
      expect((await s.req('/v1/runs', { method: 'POST', json, token: oneRun })).status).toBe(202);
      const second = await s.req('/v1/runs', { method: 'POST', json, token: oneRun });
      expect(second.status).toBe(429);
      expect(await second.json()).toMatchObject({
        error: { code: 'quota_exceeded', details: { quota: 'runs_per_day', limit: 1 } },
      });
      const fewItems = await s.newKey({ name: 'few-items', itemsPerDay: 10 });
      const tooMany = await s.req('/v1/runs', { method: 'POST', json, token: fewItems });
      expect(tooMany.status).toBe(429);
      expect(await tooMany.json()).toMatchObject({ error: { details: { quota: 'items_per_day' } } });
      const slow = await s.newKey({ name: 'slow', ratePerSec: 0.5, burst: 2 });
      const codes: number[] = [];
      for (let i = 0; i < 3; i++) codes.push((await s.req('/v1/datasets', { token: slow })).status);
      expect(codes).toEqual([200, 200, 429]);
      const limited = await s.req('/v1/datasets', { token: slow });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    },
  ],
  [
    'a run: 202 + id, progress to done, report with CIs, paged samples, idempotency, list, leaderboard, delete',
    async (s, backend) => {
      const items = flItems(FL_DATASET_SIZE);
      const preds = flPredictions(items.slice(0, 20), (i) => i < 15, 'test:run-model');
      const submit = await s.req('/v1/runs', {
        method: 'POST',
        json: { dataset: 'fl-small', predictions: preds },
        headers: { 'idempotency-key': `run-${backend}` },
      });
      expect(submit.status).toBe(202);
      const run = (await submit.json()) as { id: string; total: number };
      expect(submit.headers.get('location')).toBe(`/v1/runs/${run.id}`);
      expect(run.total).toBe(FL_DATASET_SIZE);
      const again = await s.req('/v1/runs', {
        method: 'POST',
        json: { dataset: 'fl-small', predictions: preds },
        headers: { 'idempotency-key': `run-${backend}` },
      });
      expect(((await again.json()) as { id: string }).id).toBe(run.id);
      const events = await s.req(`/v1/runs/${run.id}/events`);
      expect(events.headers.get('content-type')).toContain('text/event-stream');
      const stream = await events.text(); // ends when the run is done
      expect(stream).toContain('event: progress');
      expect(stream).toMatch(/event: done\ndata: \{[^\n]*"status":"done"/);
      const done = await waitForRun(s, run.id);
      expect(done).toMatchObject({ status: 'done', done: FL_DATASET_SIZE, progress: 1 });
      const report = (await (await s.req(`/v1/runs/${run.id}/report`)).json()) as {
        counts: Record<string, number>;
        metrics: Record<string, { value: number; lo: number; hi: number }>;
      };
      // 15 right, 5 wrong, 10 without a prediction (scored as empty: em 0)
      expect(report.counts).toEqual({ pass: 15, fail: 5, error: 0, timeout: 0, skipped: 10, scored: 0 });
      expect(report.metrics.em!.value).toBeCloseTo(15 / 30, 10);
      expect(report.metrics.em!.lo).toBeLessThan(0.5);
      expect(report.metrics.em!.hi).toBeGreaterThan(0.5);
      const fails = (await (
        await s.req(`/v1/runs/${run.id}/samples?status=fail&per_page=2&page=2`)
      ).json()) as {
        items: { item_id: string; outcome: string }[];
        total: number;
      };
      expect(fails.total).toBe(5);
      expect(fails.items.map((x) => x.outcome)).toEqual(['fail', 'fail']);
      const all = (await (await s.req(`/v1/runs/${run.id}/samples?per_page=500`)).json()) as {
        items: { item_id: string }[];
      };
      expect(new Set(all.items.map((x) => x.item_id)).size).toBe(FL_DATASET_SIZE);
      const list = (await (await s.req('/v1/runs?per_page=1')).json()) as {
        items: { id: string }[];
        total: number;
      };
      expect(list.items.length).toBe(1);
      expect(list.total).toBeGreaterThanOrEqual(1);
      const board = (await (await s.req('/v1/leaderboard?dataset=fl-small&task=fl')).json()) as {
        items: { run_id: string; model: string }[];
      };
      expect(board.items.find((e) => e.run_id === run.id)?.model).toBe('test:run-model');
      const other = await s.newKey({ name: 'other' });
      expect((await s.req(`/v1/runs/${run.id}`, { method: 'DELETE', token: other })).status).toBe(403);
      expect((await s.req(`/v1/runs/${run.id}`, { method: 'DELETE' })).status).toBe(204);
      expect((await s.req(`/v1/runs/${run.id}`)).status).toBe(404);
    },
    60_000,
  ],
  [
    'a resubmitted model has one leaderboard row (its latest run); the runs list shows scores',
    async (s) => {
      const items = flItems(FL_DATASET_SIZE);
      const ids: string[] = [];
      for (const right of [10, 20]) {
        const r = await s.req('/v1/runs', {
          method: 'POST',
          json: { dataset: 'fl-small', predictions: flPredictions(items, (i) => i < right, 'test:resubmit') },
        });
        const id = ((await r.json()) as { id: string }).id;
        await waitForRun(s, id);
        ids.push(id);
      }
      const board = (await (await s.req('/v1/leaderboard?dataset=fl-small&task=fl')).json()) as {
        items: { run_id: string; model: string; runs: number; metrics: { em: { value: number } } }[];
      };
      const mine = board.items.filter((e) => e.model === 'test:resubmit');
      expect(mine.map((e) => [e.run_id, e.runs])).toEqual([[ids[1]!, 2]]);
      expect(mine[0]!.metrics.em.value).toBeCloseTo(20 / 30, 10);
      const list = (await (await s.req('/v1/runs?dataset=fl-small&per_page=100')).json()) as {
        items: { id: string; score: { metric: string; value: number } | null }[];
      };
      const scores = ids.map((id) => list.items.find((r) => r.id === id)?.score);
      expect(scores.map((x) => x?.metric)).toEqual(['em', 'em']);
      expect(scores[0]!.value).toBeCloseTo(10 / 30, 10);
      const page = await (await s.req('/leaderboard?dataset=fl-small&task=fl')).text();
      expect(page.split('>test:resubmit</a></td>').length - 1).toBe(1);
      for (const id of ids) expect((await s.req(`/v1/runs/${id}`, { method: 'DELETE' })).status).toBe(204);
    },
    60_000,
  ],
  [
    'QA items are `scored`, never `pass`, even at BLEU 0; the run page filters by the outcomes QA has',
    async (s) => {
      const items = qaItems(12);
      const preds = items.slice(0, 8).map((it, i) => ({
        v: 1,
        id: it.id,
        task: 'qa',
        model: 'test:qa-outcomes',
        output: i < 4 ? it.answer : 'zzz qqq',
      }));
      const r = await s.req('/v1/runs', {
        method: 'POST',
        json: { dataset: 'qa-small', predictions: preds },
      });
      const id = ((await r.json()) as { id: string }).id;
      await waitForRun(s, id);
      const report = (await (await s.req(`/v1/runs/${id}/report`)).json()) as {
        counts: Record<string, number>;
      };
      expect(report.counts).toEqual({ pass: 0, fail: 0, error: 0, timeout: 0, skipped: 4, scored: 8 });
      const scored = (await (await s.req(`/v1/runs/${id}/samples?status=scored&per_page=100`)).json()) as {
        items: { outcome: string; scores: Record<string, number> }[];
      };
      expect(scored.items.length).toBe(8);
      expect(scored.items.some((x) => (x.scores.bleu ?? 1) === 0)).toBe(true);
      const page = await (await s.req(`/runs/${id}`)).text();
      expect(page).toContain('<option value="scored">scored</option>');
      expect(page).not.toContain('<option value="pass">');
      expect(page).not.toContain('b-pass">pass');
      const filtered = await (await s.req(`/runs/${id}?status=scored`)).text();
      expect(filtered.split('b-scored">scored</span></td>').length - 1).toBe(8);
      expect((await s.req(`/v1/runs/${id}`, { method: 'DELETE' })).status).toBe(204);
    },
    60_000,
  ],
  [
    'submitting unknown ids or datasets is rejected with paths',
    async (s) => {
      const bad = await s.req('/v1/runs', {
        method: 'POST',
        json: {
          dataset: 'fl-small',
          predictions: [{ v: 1, id: 'nope#1', task: 'fl', model: 'm', output: '' }],
        },
      });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { details: { path: string }[] } }).error.details[0]!.path).toBe(
        'body.predictions.0.id',
      );
      const missing = await s.req('/v1/runs', {
        method: 'POST',
        json: { dataset: 'nope', predictions: [{}] },
      });
      expect(missing.status).toBe(404);
    },
  ],
  [
    'datasets and their stats',
    async (s) => {
      const list = (await (await s.req('/v1/datasets')).json()) as {
        items: { name: string; task: string; items: number }[];
      };
      expect(list.items.map((d) => [d.name, d.task, d.items])).toEqual([
        ['fl-small', 'fl', 30],
        ['qa-small', 'qa', 12],
      ]);
      const st = (await (await s.req('/v1/datasets/fl-small/stats')).json()) as {
        per_repo: { repo: string; items: number }[];
        length: { items: number }[];
      };
      expect(st.per_repo).toEqual([...REPOS].sort().map((repo) => ({ repo, items: 10 })));
      expect(st.length.reduce((a, b) => a + b.items, 0)).toBe(30);
      expect((await s.req('/v1/datasets/none/stats')).status).toBe(404);
    },
  ],
  [
    'OpenAPI document and a reference page without external scripts',
    async (s) => {
      const doc = (await (await s.req('/openapi.json')).json()) as { paths: Record<string, unknown> };
      for (const p of ['/v1/score/fl', '/v1/runs', '/v1/runs/{id}/samples', '/v1/leaderboard', '/healthz'])
        expect(Object.keys(doc.paths)).toContain(p);
      const html = await (await s.req('/docs')).text();
      expect(html).toContain('/v1/score/qa');
      expect(html).not.toMatch(/<script[^>]+src=/);
    },
  ],
];

const backends: Backend[] = ['pglite', 'postgres'];

for (const backend of backends) {
  describe(`API over ${backend}`, () => {
    let s: TestServer;
    beforeAll(async () => {
      let db: string | undefined;
      if (backend === 'postgres') {
        pg ??= await ensurePostgres();
        db = pg.url;
      }
      s = await startTestServer(db ? { db } : {});
    }, 60_000);
    afterAll(async () => {
      await s?.close();
    });

    for (const [name, run, timeoutMs] of CASES) test(name, () => run(s, backend), timeoutMs);
  });
}
