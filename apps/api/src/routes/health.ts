/** GET /healthz (liveness, version) and GET /readyz (database and queue reachable). */
import { FAUN_VERSION } from '@faun/kit';
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv, Services } from '../context.ts';

const Health = z.object({ status: z.literal('ok'), version: z.string() }).openapi('Health');
const Ready = z
  .object({
    status: z.enum(['ready', 'unavailable']),
    database: z.object({ ok: z.boolean(), backend: z.string() }),
    queue: z.object({ ok: z.boolean(), backend: z.string() }),
  })
  .openapi('Ready');

export function healthRoutes(app: OpenAPIHono<AppEnv>, s: Services): void {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/healthz',
      tags: ['health'],
      summary: 'Liveness and version',
      responses: { 200: { description: 'Alive', content: { 'application/json': { schema: Health } } } },
    }),
    (c) => c.json({ status: 'ok' as const, version: FAUN_VERSION }, 200),
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/readyz',
      tags: ['health'],
      summary: 'Readiness: database and queue reachable',
      responses: {
        200: { description: 'Ready', content: { 'application/json': { schema: Ready } } },
        503: { description: 'Not ready', content: { 'application/json': { schema: Ready } } },
      },
    }),
    async (c) => {
      const [dbOk, qOk] = await Promise.all([s.db.ping(), s.work.ping()]);
      const body = {
        status: dbOk && qOk ? ('ready' as const) : ('unavailable' as const),
        database: { ok: dbOk, backend: s.db.backend },
        queue: { ok: qOk, backend: s.work.backend },
      };
      return dbOk && qOk ? c.json(body, 200) : c.json(body, 503);
    },
  );
}
