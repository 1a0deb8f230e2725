/**
 * The Hono application: request ids, JSON request logs, one error envelope through `app.onError`,
 * validation errors as 400 with field paths, the /v1 routes, /openapi.json, /docs and the HTML pages.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Next } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import { createAuth } from './auth/middleware.ts';
import type { AppEnv, Services } from './context.ts';
import { ApiError, envelope, invalid } from './errors.ts';
import { errorPage, wantsHtml } from './pages/error.ts';
import { pageRoutes } from './pages/routes.ts';
import { controlRoutes } from './routes/control.ts';
import { datasetRoutes } from './routes/datasets.ts';
import { docsPage } from './routes/docs.ts';
import { healthRoutes } from './routes/health.ts';
import { runRoutes } from './routes/runs.ts';
import { scoreRoutes } from './routes/score.ts';

/** Codes of the statuses hono itself raises (body parsing, media type, limits). */
const HTTP_CODES: Record<number, [string, string]> = {
  400: ['invalid_request', 'the request body is not valid JSON'],
  413: ['payload_too_large', 'the body is too large'],
  415: ['unsupported_media_type', 'send the body as JSON with "Content-Type: application/json"'],
};

/**
 * Headers on every response. The pages have no scripts, so the policy allows nothing but inline styles;
 * no framing, no MIME sniffing, no referrer leaving the site.
 */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

/**
 * One middleware for the checks every request passes and its log line (each layer of middleware costs
 * a dispatch per request):
 * - page numbers anywhere (API and pages) are small decimal integers: `page=1e308` is a 400, not a 500
 * - bodies longer than any route accepts are refused before anything reads them (JSON envelope, not
 *   the engine's bare 413)
 * A request refused by these checks is answered by onError and not logged.
 */
function checkAndLog(s: Services) {
  const maxBody = Math.max(s.config.runBodyLimit, s.config.scoreBodyLimit, 64 << 10);
  return async (c: Context<AppEnv>, next: Next) => {
    if (c.req.url.includes('page=')) {
      for (const name of ['page', 'per_page']) {
        const v = c.req.query(name);
        if (v !== undefined && !/^[0-9]{1,6}$/.test(v))
          throw new ApiError(
            400,
            'invalid_request',
            `query.${name}: expected a whole number from 1 to 999999, got '${v.slice(0, 40)}'`,
            [{ path: `query.${name}`, message: 'expected a whole number from 1 to 999999' }],
          );
      }
    }
    const declared = c.req.header('content-length');
    if (declared !== undefined && Number(declared) > maxBody)
      throw new ApiError(413, 'payload_too_large', `the body exceeds ${maxBody} bytes`, { limit: maxBody });
    const started = performance.now();
    await next();
    if (s.config.logRequests)
      s.log({
        event: 'request',
        request_id: c.get('requestId'),
        method: c.req.method,
        path: c.req.path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        key_id: c.get('key')?.id ?? null,
      });
  };
}

export function createApp(s: Services): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw invalid(result.error, result.target === 'json' ? 'body' : result.target);
    },
  });
  app.use(
    requestId({
      headerName: 'x-request-id',
      generator: () => crypto.randomUUID(),
      limitLength: 100,
    }),
  );
  const security = Object.entries(SECURITY_HEADERS);
  app.use(async (c, next) => {
    await next();
    const h = c.res.headers;
    for (const [k, v] of security) h.set(k, v);
  });
  app.use(checkAndLog(s));

  app.onError((err, c) => {
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
      return c.json(envelope(err.code, err.message, err.details), err.status);
    }
    if (err instanceof HTTPException) {
      const [code, fallback] = HTTP_CODES[err.status] ?? ['http_error', 'the request failed'];
      return c.json(envelope(code, err.status === 415 ? fallback : err.message || fallback), err.status);
    }
    s.log({
      event: 'error',
      level: 'error',
      request_id: c.get('requestId'),
      error: String((err as Error)?.stack ?? err),
    });
    return c.json(envelope('internal', 'internal server error', { request_id: c.get('requestId') }), 500);
  });
  app.notFound((c) => {
    const message = `no route for ${c.req.method} ${c.req.path}`;
    if (wantsHtml(c.req.path, c.req.header('accept')))
      return c.html(errorPage(new ApiError(404, 'not_found', message), c.req.path, s.log).html, 404);
    return c.json(envelope('not_found', message), 404);
  });

  const auth = createAuth(s);
  const key = auth('key');
  const read = auth('read');
  healthRoutes(app, s);
  scoreRoutes(app, s, key);
  runRoutes(app, s, { key, read });
  datasetRoutes(app, s, read);
  controlRoutes(app, s);

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key from `faun serve keys create`',
  });
  const info = {
    title: 'faun API',
    version: '1',
    description: 'Scoring, runs, datasets and leaderboards of faun.',
  };
  app.doc31('/openapi.json', { openapi: '3.1.0', info });
  app.get('/docs', (c) => c.html(docsPage(app.getOpenAPI31Document({ openapi: '3.1.0', info }))));
  pageRoutes(app, s, read);
  return app;
}
