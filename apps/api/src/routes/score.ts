/** POST /v1/score/{qa|fl|ce}: synchronous scoring of a small batch with `scoreTask` (as `faun score`). */
import type { ScoreTaskOptions } from '@faun/metrics';
import { createRoute, type OpenAPIHono, type z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv, Services } from '../context.ts';
import { isLight } from '../service/score-pool.ts';
import { ScoreQuota } from '../service/usage.ts';
import { boundedJson } from './body.ts';
import { errorResponses, ScoreResponse, scoreBody } from './schemas.ts';

const TASKS = ['qa', 'fl', 'ce'] as const;

export function scoreRoutes(app: OpenAPIHono<AppEnv>, s: Services, auth: MiddlewareHandler<AppEnv>): void {
  const quota = new ScoreQuota(s.db.db);
  const max = s.config.maxScoreItems;
  const limit = boundedJson({
    maxBytes: s.config.scoreBodyLimit,
    // items (with their trees and contexts) and predictions
    maxContainers: max * 64 + 64,
    maxValues: max * 4096 + 256,
    hint: `at most ${max} items per request`,
  });
  for (const task of TASKS) {
    const route = createRoute({
      method: 'post',
      path: `/v1/score/${task}`,
      tags: ['score'],
      summary: `Score ${task.toUpperCase()} predictions`,
      description:
        'Scores the predictions against the items with the same function as `faun score`: per-item scores and ' +
        'aggregates with bootstrap confidence intervals. The batch size is bounded; heavy batches are scored on worker threads.',
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
      await quota.take(key.id, body.items.length, key.itemsPerDay);
      // heavy calls (many items, many bootstrap resamples) run on the scoring threads
      const scoreTask =
        s.scorePool && !isLight(body.items.length, body.bootstrap)
          ? s.scorePool.scoreTask
          : await s.loadScoreTask();
      // the body was validated against the same records scoreTask would check them with
      const opts: ScoreTaskOptions = { validated: true };
      if (body.bootstrap !== undefined) opts.bootstrap = body.bootstrap;
      if (body.seed !== undefined) opts.seed = body.seed;
      const result = await scoreTask(task, body.items, body.predictions, opts);
      return c.json(result satisfies z.infer<typeof ScoreResponse>, 200);
    });
  }
}
