/**
 * Control endpoints of a server that holds an embedded PGlite folder: `faun serve keys …` run beside it
 * manage keys through these (PGlite allows one process per folder). They answer only requests carrying
 * the random token the server wrote into the folder's lock file (mode 0600); they are not part of /v1.
 */
import { timingSafeEqual } from 'node:crypto';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv, Services } from '../context.ts';
import { ApiError } from '../errors.ts';
import { createKey, type KeyOptions, listKeys, revokeKey } from '../service/keys.ts';

export const CONTROL_HEADER = 'x-faun-control';

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function controlRoutes(app: OpenAPIHono<AppEnv>, s: Services): void {
  const guard: MiddlewareHandler<AppEnv> = async (c, next) => {
    const token = s.control?.token;
    const given = c.req.header(CONTROL_HEADER) ?? '';
    if (!token || !same(given, token)) throw new ApiError(404, 'not_found', `no route for ${c.req.path}`);
    await next();
  };
  app.use('/internal/*', guard);
  app.get('/internal/keys', async (c) => c.json(await listKeys(s.db.db)));
  app.post('/internal/keys', async (c) => {
    const o = (await c.req.json()) as KeyOptions;
    if (typeof o?.name !== 'string' || !o.name.trim())
      throw new ApiError(400, 'invalid_request', 'name is required');
    return c.json(await createKey(s.db.db, o), 201);
  });
  app.post('/internal/keys/:id/revoke', async (c) => {
    const ok = await revokeKey(s.db.db, c.req.param('id'));
    s.onKeyRevoked?.(c.req.param('id'));
    return c.json({ revoked: ok });
  });
}
