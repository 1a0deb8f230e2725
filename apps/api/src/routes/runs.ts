/** Runs: submit (202 + id, idempotency key), status, report, paged samples, list, delete. */

import { ItemOutcome } from '@faun/jobs';
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import { streamSSE } from 'hono/streaming';
import { clientAddress } from '../auth/middleware.ts';
import type { AppEnv, Services } from '../context.ts';
import { results, runs, submissions } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import type { Interval } from '../service/report.ts';
import { RunWatch } from '../service/run-watch.ts';
import { boundedJson } from './body.ts';
import { primaryMetric } from './datasets.ts';
import {
  ErrorSchema,
  errorResponses,
  Page,
  Paging,
  ReportView,
  type RunScore,
  RunStatus,
  RunView,
  SampleDetail,
  SampleView,
  submitRunBody,
} from './schemas.ts';

type RunRow = typeof runs.$inferSelect;
const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const notFound = { 404: json(ErrorSchema, 'No such run') };
const IdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'id', in: 'path' } }),
});

/** The primary metric of a finished run's report, or null. */
export function runScore(r: RunRow): z.infer<typeof RunScore> | null {
  if (r.status !== 'done') return null;
  const metrics = ((r.report as { metrics?: Record<string, Interval> } | null)?.metrics ?? {}) as Record<
    string,
    Interval
  >;
  const name = primaryMetric(r.task, metrics);
  const m = name ? metrics[name] : undefined;
  return name && m ? { metric: name, value: m.value, lo: m.lo, hi: m.hi } : null;
}

export function runView(r: RunRow) {
  return {
    id: r.id,
    dataset: r.dataset,
    task: r.task,
    kind: r.kind as 'text' | 'exec',
    model: r.model,
    status: r.status as z.infer<typeof RunStatus>,
    total: r.total,
    done: r.done,
    progress: r.total === 0 ? 1 : r.done / r.total,
    created_at: r.createdAt.toISOString(),
    finished_at: r.finishedAt ? r.finishedAt.toISOString() : null,
    error: r.error,
    score: runScore(r),
    links: {
      self: `/v1/runs/${r.id}`,
      report: `/v1/runs/${r.id}/report`,
      samples: `/v1/runs/${r.id}/samples`,
      page: `/runs/${r.id}`,
    },
  };
}

export async function getRun(s: Services, id: string): Promise<RunRow> {
  const [row] = await s.db.db.select().from(runs).where(eq(runs.id, id));
  if (!row) throw new ApiError(404, 'run_not_found', `no run with id '${id}'`);
  return row;
}

/** A result row as the API shows it. */
function sampleOf(r: typeof results.$inferSelect) {
  return {
    item_id: r.itemId,
    outcome: r.outcome as z.infer<typeof SampleView>['outcome'],
    scores: r.scores as Record<string, number>,
    answer: r.answer,
    data: r.data as Record<string, unknown>,
    log: r.log,
    error: r.error,
    duration_ms: r.durationMs,
  };
}

/** POST /v1/runs: submit predictions (bounded body, idempotency key). */
function submitRoute(app: OpenAPIHono<AppEnv>, s: Services, key: MiddlewareHandler<AppEnv>): void {
  const max = s.config.maxRunPredictions;
  const limit = boundedJson({
    maxBytes: s.config.runBodyLimit,
    // a prediction record is one object with a few small nested ones at most
    maxContainers: max * 8 + 64,
    maxValues: max * 64 + 256,
    hint: `a run holds at most ${max} predictions, and never more than its dataset's items`,
  });
  app.openapi(
    createRoute({
      method: 'post',
      path: '/v1/runs',
      tags: ['runs'],
      summary: 'Submit predictions for scoring or execution verification',
      security: [{ bearer: [] }],
      middleware: [key, limit] as const,
      request: {
        headers: z.object({ 'idempotency-key': z.string().min(1).max(200).optional() }),
        body: { content: { 'application/json': { schema: submitRunBody(max) } }, required: true },
      },
      responses: {
        202: json(RunView, 'Accepted; poll the run'),
        ...errorResponses,
        404: json(ErrorSchema, 'No such dataset'),
        413: json(ErrorSchema, 'Body too large'),
      },
    }),
    async (c) => {
      const body = c.req.valid('json');
      const key = c.get('key')!;
      const { id } = await s.runs.submit(
        { keyId: key.id, admin: key.admin, runsPerDay: key.runsPerDay, itemsPerDay: key.itemsPerDay },
        {
          dataset: body.dataset,
          model: body.model,
          predictions: body.predictions,
          idempotencyKey: c.req.valid('header')['idempotency-key'],
          bytes: Number(c.req.header('content-length') ?? 0),
        },
      );
      c.header('location', `/v1/runs/${id}`);
      return c.json(runView(await getRun(s, id)), 202);
    },
  );
}

/** GET /v1/runs, /v1/runs/{id} and /v1/runs/{id}/report. */
function readRoutes(app: OpenAPIHono<AppEnv>, s: Services, read: MiddlewareHandler<AppEnv>): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/runs',
      tags: ['runs'],
      summary: 'List runs, newest first',
      middleware: [read] as const,
      request: { query: Paging.extend({ dataset: z.string().optional(), status: RunStatus.optional() }) },
      responses: { 200: json(Page(RunView, 'RunPage'), 'Runs'), ...errorResponses },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const where = and(
        q.dataset ? eq(runs.dataset, q.dataset) : undefined,
        q.status ? eq(runs.status, q.status) : undefined,
      );
      const [count] = await s.db.db.select({ n: sql<number>`count(*)::int` }).from(runs).where(where);
      const rows = await s.db.db
        .select()
        .from(runs)
        .where(where)
        .orderBy(desc(runs.createdAt), desc(runs.id))
        .limit(q.per_page)
        .offset((q.page - 1) * q.per_page);
      return c.json(
        { items: rows.map(runView), page: q.page, per_page: q.per_page, total: count?.n ?? 0 },
        200,
      );
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/runs/{id}',
      tags: ['runs'],
      summary: 'Run status and progress',
      middleware: [read] as const,
      request: { params: IdParam },
      responses: { 200: json(RunView, 'The run'), ...errorResponses, ...notFound },
    }),
    async (c) => c.json(runView(await getRun(s, c.req.valid('param').id)), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/runs/{id}/report',
      tags: ['runs'],
      summary: 'The report of a finished run: outcome counts, metrics with confidence intervals',
      middleware: [read] as const,
      request: { params: IdParam },
      responses: {
        200: json(ReportView, 'The report'),
        ...errorResponses,
        ...notFound,
        409: json(ErrorSchema, 'The run has not finished'),
      },
    }),
    async (c) => {
      const run = await getRun(s, c.req.valid('param').id);
      if (run.status !== 'done' || !run.report)
        throw new ApiError(
          409,
          'run_not_finished',
          `run ${run.id} is ${run.status} (${run.done}/${run.total})`,
          {
            status: run.status,
            error: run.error,
          },
        );
      return c.json(run.report as z.infer<typeof ReportView>, 200);
    },
  );
}

/** GET /v1/runs/{id}/samples (paged) and /v1/runs/{id}/samples/{item} (one, with its prediction). */
function sampleRoutes(app: OpenAPIHono<AppEnv>, s: Services, read: MiddlewareHandler<AppEnv>): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/runs/{id}/samples',
      tags: ['runs'],
      summary: 'Per-item results, paged, optionally filtered by outcome',
      middleware: [read] as const,
      request: {
        params: IdParam,
        query: Paging.extend({ status: ItemOutcome.optional() }),
      },
      responses: { 200: json(Page(SampleView, 'SamplePage'), 'Samples'), ...errorResponses, ...notFound },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const q = c.req.valid('query');
      await getRun(s, id);
      const where = and(eq(results.runId, id), q.status ? eq(results.outcome, q.status) : undefined);
      const [count] = await s.db.db.select({ n: sql<number>`count(*)::int` }).from(results).where(where);
      const rows = await s.db.db
        .select()
        .from(results)
        .where(where)
        .orderBy(results.itemId)
        .limit(q.per_page)
        .offset((q.page - 1) * q.per_page);
      const items = rows.map(sampleOf);
      return c.json({ items, page: q.page, per_page: q.per_page, total: count?.n ?? 0 }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/runs/{id}/samples/{item}',
      tags: ['runs'],
      summary: 'One item of a run: its result and its prediction',
      middleware: [read] as const,
      request: {
        params: IdParam.extend({
          item: z
            .string()
            .min(1)
            .max(500)
            .openapi({ param: { name: 'item', in: 'path' } }),
        }),
      },
      responses: {
        200: json(SampleDetail, 'The sample'),
        ...errorResponses,
        404: json(ErrorSchema, 'No such run or item'),
      },
    }),
    async (c) => {
      const { id, item } = c.req.valid('param');
      await getRun(s, id);
      const [r] = await s.db.db
        .select()
        .from(results)
        .where(and(eq(results.runId, id), eq(results.itemId, item)));
      if (!r) throw new ApiError(404, 'item_not_found', `run '${id}' has no item '${item}'`);
      const [sub] = await s.db.db.select().from(submissions).where(eq(submissions.runId, id));
      const prediction =
        ((sub?.predictions ?? []) as Record<string, unknown>[]).find(
          (p) => String(p.instance_id ?? p.id) === item,
        ) ?? null;
      return c.json({ ...sampleOf(r), prediction }, 200);
    },
  );
}

/** GET /v1/runs/{id}/events: server-sent progress until the run finishes. */
function eventsRoute(app: OpenAPIHono<AppEnv>, s: Services, read: MiddlewareHandler<AppEnv>): void {
  // every open event stream waits on one shared poller (one query per tick for all watched runs)
  const watch = new RunWatch<RunRow>(
    async (ids) =>
      new Map((await s.db.db.select().from(runs).where(inArray(runs.id, ids))).map((r) => [r.id, r])),
    { perOwner: s.config.ssePerKey, total: s.config.sseTotal, intervalMs: 250 },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/runs/{id}/events',
      tags: ['runs'],
      summary: 'Server-sent progress events until the run finishes',
      description:
        'Each `progress` event carries the run (as GET /v1/runs/{id}); the stream ends after `done` or `error`.',
      middleware: [read] as const,
      request: { params: IdParam },
      responses: {
        200: { description: 'An event stream', content: { 'text/event-stream': { schema: z.string() } } },
        ...errorResponses,
        ...notFound,
      },
    }),
    async (c) => {
      const id = c.req.valid('param').id;
      await getRun(s, id);
      const key = c.get('key');
      const release = watch.acquire(key ? `key:${key.id}` : `addr:${clientAddress(c)}`);
      if (typeof release !== 'function')
        throw new ApiError(
          429,
          'rate_limited',
          release.refused === 'owner'
            ? `too many event streams open for this ${key ? 'key' : 'client'} (at most ${release.limit}); close one or poll GET /v1/runs/{id}`
            : `the server holds its maximum of ${release.limit} event streams; retry later or poll GET /v1/runs/{id}`,
          null,
          { 'Retry-After': '5' },
        );
      return streamSSE(c, async (stream) => {
        stream.onAbort(release);
        let last = '';
        let wrote = Date.now();
        try {
          for (let i = 0; !stream.aborted; i++) {
            // the first read too: a burst of new streams costs one query per tick, not one each
            const row = await watch.next(id);
            if (!row) break;
            const view = runView(row);
            const data = JSON.stringify(view);
            if (data !== last) {
              await stream.writeSSE({ event: 'progress', data, id: String(i) });
              wrote = Date.now();
            } else if (Date.now() - wrote >= s.config.sseHeartbeatMs) {
              await stream.write(': heartbeat\n\n'); // a comment: keeps the connection and proxies awake
              wrote = Date.now();
            }
            last = data;
            if (row.status === 'done' || row.status === 'error') {
              await stream.writeSSE({ event: row.status, data });
              break;
            }
          }
        } finally {
          release();
        }
      }) as never;
    },
  );
}

/** DELETE /v1/runs/{id}: the submitting key or an admin deletes a run. */
function deleteRoute(app: OpenAPIHono<AppEnv>, s: Services, key: MiddlewareHandler<AppEnv>): void {
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/v1/runs/{id}',
      tags: ['runs'],
      summary: 'Delete a run, its results and its leaderboard entry (owner or admin key)',
      security: [{ bearer: [] }],
      middleware: [key] as const,
      request: { params: IdParam },
      responses: {
        204: { description: 'Deleted' },
        ...errorResponses,
        ...notFound,
        403: json(ErrorSchema, 'Not yours'),
      },
    }),
    async (c) => {
      const run = await getRun(s, c.req.valid('param').id);
      const key = c.get('key')!;
      if (run.keyId !== key.id && !key.admin)
        throw new ApiError(
          403,
          'forbidden',
          'only the key that submitted a run (or an admin key) can delete it',
        );
      await s.runs.remove(run.id, key.id);
      return c.body(null, 204);
    },
  );
}

export function runRoutes(
  app: OpenAPIHono<AppEnv>,
  s: Services,
  auth: { key: MiddlewareHandler<AppEnv>; read: MiddlewareHandler<AppEnv> },
): void {
  submitRoute(app, s, auth.key);
  readRoutes(app, s, auth.read);
  sampleRoutes(app, s, auth.read);
  eventsRoute(app, s, auth.read);
  deleteRoute(app, s, auth.key);
}
