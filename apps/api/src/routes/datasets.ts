/** Datasets, their statistics, and the leaderboard. */
import { primaryMetricOf } from '@faun/metrics';
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv, Services } from '../context.ts';
import { apiKeys, leaderboard, models, results } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import type { Interval } from '../service/report.ts';
import { DatasetStatsView, DatasetView, ErrorSchema, errorResponses, LeaderboardEntry } from './schemas.ts';

const json = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** The metric a run or leaderboard entry is ranked by: the task's primary metric in the registry. */
export function primaryMetric(task: string, metrics: Record<string, Interval>): string | null {
  return primaryMetricOf(task, Object.keys(metrics));
}

/** Run id → items whose output could not be parsed. */
export async function unparsedCounts(s: Services, runIds: string[]): Promise<Map<string, number>> {
  if (runIds.length === 0) return new Map();
  const rows = await s.db.db
    .select({ runId: results.runId, n: sql<number>`count(*)::int` })
    .from(results)
    .where(and(inArray(results.runId, runIds), sql`${results.data}->>'unparsed' = 'true'`))
    .groupBy(results.runId);
  return new Map(rows.map((r) => [r.runId, r.n]));
}

export async function leaderboardEntries(s: Services, dataset?: string, task?: string) {
  const rows = await s.db.db
    .select()
    .from(leaderboard)
    .where(
      and(
        dataset ? eq(leaderboard.dataset, dataset) : undefined,
        task ? eq(leaderboard.task, task) : undefined,
      ),
    );
  const owners = new Map(
    (
      await s.db.db
        .select({ name: models.name, owner: apiKeys.name })
        .from(models)
        .leftJoin(apiKeys, eq(models.ownerKeyId, apiKeys.id))
        .where(inArray(models.name, [...new Set(rows.map((r) => r.model)), '']))
    ).map((m) => [m.name, m.owner]),
  );
  // one entry per (dataset, task, model): its latest finished run
  const latest = new Map<string, (typeof rows)[number]>();
  const count = new Map<string, number>();
  for (const r of rows) {
    const k = `${r.dataset}\u0000${r.task}\u0000${r.model}`;
    count.set(k, (count.get(k) ?? 0) + 1);
    const cur = latest.get(k);
    const t = r.createdAt.getTime();
    if (!cur || t > cur.createdAt.getTime() || (t === cur.createdAt.getTime() && r.runId > cur.runId))
      latest.set(k, r);
  }
  const entries = [...latest.entries()].map(([k, r]) => ({
    run_id: r.runId,
    dataset: r.dataset,
    task: r.task,
    model: r.model,
    owner: owners.get(r.model) ?? null,
    n: r.n,
    metrics: r.metrics as Record<string, Interval>,
    created_at: r.createdAt.toISOString(),
    runs: count.get(k) ?? 1,
    unparsed: 0,
  }));
  const unparsed = await unparsedCounts(
    s,
    entries.map((e) => e.run_id),
  );
  for (const e of entries) e.unparsed = unparsed.get(e.run_id) ?? 0;
  const score = (e: (typeof entries)[number]) => {
    const m = primaryMetric(e.task, e.metrics);
    return m ? (e.metrics[m]?.value ?? 0) : 0;
  };
  return entries.sort(
    (a, b) => score(b) - score(a) || a.model.localeCompare(b.model) || a.run_id.localeCompare(b.run_id),
  );
}

export function datasetRoutes(app: OpenAPIHono<AppEnv>, s: Services, read: MiddlewareHandler<AppEnv>): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/datasets',
      tags: ['datasets'],
      summary: 'Datasets this server scores against',
      middleware: [read] as const,
      responses: { 200: json(z.object({ items: z.array(DatasetView) }), 'Datasets'), ...errorResponses },
    }),
    (c) =>
      c.json(
        {
          items: s.datasets
            .list()
            .map((d) => ({ name: d.name, task: d.task, items: d.itemCount, sha256: d.sha256 })),
        },
        200,
      ),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/datasets/{name}/stats',
      tags: ['datasets'],
      summary: 'Funnel, per-repository counts and length distribution of a dataset',
      middleware: [read] as const,
      request: {
        params: z.object({
          name: z
            .string()
            .min(1)
            .max(200)
            .openapi({ param: { name: 'name', in: 'path' } }),
        }),
      },
      responses: {
        200: json(DatasetStatsView, 'Statistics'),
        ...errorResponses,
        404: json(ErrorSchema, 'No such dataset'),
      },
    }),
    async (c) => {
      const { name } = c.req.valid('param');
      if (!s.datasets.get(name))
        throw new ApiError(404, 'dataset_not_found', `no dataset named '${name}'`, {
          available: s.datasets.list().map((d) => d.name),
        });
      return c.json(await s.stats.stats(name), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/v1/leaderboard',
      tags: ['leaderboard'],
      summary: 'One entry per model (its latest finished run), ranked by the primary metric, with 95% CIs',
      middleware: [read] as const,
      request: {
        query: z.object({
          dataset: z
            .string()
            .optional()
            .openapi({ param: { name: 'dataset', in: 'query' } }),
          task: z
            .enum(['qa', 'fl', 'ce', 'exec'])
            .optional()
            .openapi({ param: { name: 'task', in: 'query' } }),
        }),
      },
      responses: {
        200: json(z.object({ items: z.array(LeaderboardEntry) }), 'Leaderboard'),
        ...errorResponses,
      },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json({ items: await leaderboardEntries(s, q.dataset, q.task) }, 200);
    },
  );
}
