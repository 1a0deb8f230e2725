/** POST /v1/score/{qa|fl|ce}: synchronous scoring of a small batch with `scoreTask` (as `faun score`). */
import type { ScoreTaskOptions } from '@faun/metrics';
import { createRoute, type OpenAPIHono, type z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv, Services } from '../context.ts';
import { ApiError } from '../errors.ts';
import { errorResponses, ScoreResponse, scoreBody } from './schemas.ts';

const TASKS = ['qa', 'fl', 'ce'] as const;

/** Items scored per key per UTC day through this endpoint (kept in this process). */
class DailyItems {
  private day = '';
  private used = new Map<string, number>();
  add(keyId: string, n: number, limit: number): void {
    const today = new Date().toISOString().slice(0, 10);
    if (today !== this.day) {
      this.day = today;
      this.used = new Map();
    }
    const u = this.used.get(keyId) ?? 0;
    if (u + n > limit)
      throw new ApiError(
        429,
        'quota_exceeded',
        `item quota reached: ${u} + ${n} exceeds ${limit} items per day`,
        {
          quota: 'items_per_day',
          limit,
          used: u,
        },
      );
    this.used.set(keyId, u + n);
  }
}

export function scoreRoutes(app: OpenAPIHono<AppEnv>, s: Services, auth: MiddlewareHandler<AppEnv>): void {
  const daily = new DailyItems();
  const limit = bodyLimit({
    maxSize: s.config.scoreBodyLimit,
    onError: () => {
      throw new ApiError(413, 'payload_too_large', `the body exceeds ${s.config.scoreBodyLimit} bytes`, {
        limit: s.config.scoreBodyLimit,
      });
    },
  });
  for (const task of TASKS) {
    const route = createRoute({
      method: 'post',
      path: `/v1/score/${task}`,
      tags: ['score'],
      summary: `Score ${task.toUpperCase()} predictions`,
      description:
        'Scores the predictions against the items with the same function as `faun score`: per-item scores and ' +
        'aggregates with bootstrap confidence intervals. Synchronous; the batch size is bounded.',
      security: [{ bearer: [] }],
      middleware: [auth, limit] as const,
      request: {
        body: {
          content: { 'application/json': { schema: scoreBody(task, s.config.maxScoreItems) } },
          required: true,
        },
      },
      responses: {
        200: { description: 'Scores', content: { 'application/json': { schema: ScoreResponse } } },
        ...errorResponses,
        413: {
          description: 'Body too large',
          content: { 'application/json': { schema: errorResponses[400].content['application/json'].schema } },
        },
      },
    });
    app.openapi(route, async (c) => {
      const body = c.req.valid('json');
      const key = c.get('key')!;
      daily.add(key.id, body.items.length, key.itemsPerDay);
      const scoreTask = await s.loadScoreTask();
      const opts: ScoreTaskOptions = {};
      if (body.bootstrap !== undefined) opts.bootstrap = body.bootstrap;
      if (body.seed !== undefined) opts.seed = body.seed;
      const result = await scoreTask(task, body.items, body.predictions, opts);
      return c.json(result satisfies z.infer<typeof ScoreResponse>, 200);
    });
  }
}
