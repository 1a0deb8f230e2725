/**
 * The HTML pages (server-rendered, no scripts): /, /leaderboard, /runs, /runs/:id, /runs/:id/items/:item,
 * /compare, /datasets, /datasets/:name, /datasets/:name/items. Failures render as HTML error pages.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, Services } from '../context.ts';
import { comparePage } from './compare.ts';
import { datasetPage, datasetsPage, runsPage } from './dataset.ts';
import { datasetItemsPage } from './dataset-items.ts';
import { errorPage } from './error.ts';
import { itemPage } from './item.ts';
import { leaderboardPage } from './leaderboard.ts';
import { runPage } from './run.ts';

type Render = (c: Context<AppEnv>) => Promise<string>;

export function pageRoutes(app: OpenAPIHono<AppEnv>, s: Services, read: MiddlewareHandler<AppEnv>): void {
  const page = (render: Render) => async (c: Context<AppEnv>) => {
    try {
      return c.html(await render(c));
    } catch (e) {
      const { status, html } = errorPage(e, c.req.path, (f) => s.log(f));
      return c.html(html, status);
    }
  };
  app.get('/', read, (c) => c.redirect('/leaderboard', 302));
  app.get(
    '/leaderboard',
    read,
    page((c) => leaderboardPage(s, c.req.query('dataset') || undefined, c.req.query('task') || undefined)),
  );
  app.get(
    '/runs',
    read,
    page((c) => runsPage(s, Math.max(1, Number(c.req.query('page')) || 1))),
  );
  app.get(
    '/runs/:id',
    read,
    page((c) => runPage(s, c.req.param('id') ?? '', c.req.query())),
  );
  app.get(
    '/runs/:id/items/:item',
    read,
    page((c) => itemPage(s, c.req.param('id') ?? '', c.req.param('item') ?? '', c.req.query())),
  );
  app.get(
    '/compare',
    read,
    page((c) =>
      comparePage(s, {
        runs: c.req.queries('runs') ?? [],
        dataset: c.req.query('dataset') || undefined,
        metric: c.req.query('metric') || undefined,
        page: c.req.query('page'),
      }),
    ),
  );
  app.get(
    '/datasets',
    read,
    page(() => datasetsPage(s)),
  );
  app.get(
    '/datasets/:name',
    read,
    page((c) => datasetPage(s, c.req.param('name') ?? '')),
  );
  app.get(
    '/datasets/:name/items',
    read,
    page((c) => datasetItemsPage(s, c.req.param('name') ?? '', c.req.query())),
  );
}
