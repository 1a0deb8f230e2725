/** The HTML pages (server-rendered, no scripts): /, /leaderboard, /runs, /runs/:id, /datasets, /datasets/:name. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv, Services } from '../context.ts';
import { datasetPage, datasetsPage, runsPage } from './dataset.ts';
import { leaderboardPage } from './leaderboard.ts';
import { runPage } from './run.ts';

export function pageRoutes(app: OpenAPIHono<AppEnv>, s: Services, read: MiddlewareHandler<AppEnv>): void {
  app.get('/', read, (c) => c.redirect('/leaderboard', 302));
  app.get('/leaderboard', read, async (c) =>
    c.html(await leaderboardPage(s, c.req.query('dataset') || undefined, c.req.query('task') || undefined)),
  );
  app.get('/runs', read, async (c) =>
    c.html(await runsPage(s, Math.max(1, Number(c.req.query('page')) || 1))),
  );
  app.get('/runs/:id', read, async (c) =>
    c.html(
      await runPage(s, c.req.param('id'), {
        status: c.req.query('status'),
        metric: c.req.query('metric'),
        min: c.req.query('min'),
        max: c.req.query('max'),
        page: c.req.query('page'),
      }),
    ),
  );
  app.get('/datasets', read, async (c) => c.html(await datasetsPage(s)));
  app.get('/datasets/:name', read, async (c) => c.html(await datasetPage(s, c.req.param('name'))));
}
