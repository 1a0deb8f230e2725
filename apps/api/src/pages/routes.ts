/**
 * The HTML pages (server-rendered, no scripts): /, /leaderboard, /runs, /runs/:id, /runs/:id/items/:item,
 * /compare, /datasets, /datasets/:name, /datasets/:name/items; the exports of the filtered tables
 * (/runs/:id/items.csv|jsonl, /compare.csv|jsonl). Failures render as HTML error pages.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, Services } from '../context.ts';
import { type CompareQuery, compareExport, comparePage } from './compare.ts';
import { datasetPage, datasetsPage, runsPage } from './dataset.ts';
import { datasetItemsPage } from './dataset-items.ts';
import { errorPage } from './error.ts';
import { type ExportFormat, exportBody } from './export.ts';
import { itemPage } from './item.ts';
import { leaderboardPage } from './leaderboard.ts';
import { filteredRows, runPage } from './run.ts';

type Render = (c: Context<AppEnv>) => Promise<string>;

const TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson; charset=utf-8',
};

const compareQuery = (c: Context<AppEnv>): CompareQuery => ({
  runs: c.req.queries('runs') ?? [],
  dataset: c.req.query('dataset') || undefined,
  metric: c.req.query('metric') || undefined,
  page: c.req.query('page'),
  show: c.req.query('show') || undefined,
  q: c.req.query('q') || undefined,
});

export function pageRoutes(app: OpenAPIHono<AppEnv>, s: Services, read: MiddlewareHandler<AppEnv>): void {
  const fail = (c: Context<AppEnv>, e: unknown) => {
    const { status, html } = errorPage(e, c.req.path, (f) => s.log(f));
    return c.html(html, status);
  };
  const page = (render: Render) => async (c: Context<AppEnv>) => {
    try {
      return c.html(await render(c));
    } catch (e) {
      return fail(c, e);
    }
  };
  const file =
    (name: (c: Context<AppEnv>) => string, format: ExportFormat, render: Render) =>
    async (c: Context<AppEnv>) => {
      try {
        const body = await render(c);
        c.header(
          'content-disposition',
          `attachment; filename="${name(c).replace(/[^\w.-]/g, '_')}.${format}"`,
        );
        return c.body(body, 200, { 'content-type': TYPES[format] });
      } catch (e) {
        return fail(c, e);
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
    page((c) =>
      runsPage(s, {
        page: Math.max(1, Number(c.req.query('page')) || 1),
        dataset: c.req.query('dataset') || undefined,
        model: c.req.query('model') || undefined,
        status: c.req.query('status') || undefined,
      }),
    ),
  );
  for (const format of ['csv', 'jsonl'] as const) {
    app.get(
      `/runs/:id/items.${format}`,
      read,
      file(
        (c) => `${c.req.param('id')}-items`,
        format,
        async (c) => {
          const { list, metrics } = await filteredRows(s, c.req.param('id') ?? '', c.req.query());
          return exportBody(list, metrics, format);
        },
      ),
    );
    app.get(
      `/compare.${format}`,
      read,
      file(
        () => 'comparison',
        format,
        (c) => compareExport(s, compareQuery(c), format),
      ),
    );
  }
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
    page((c) => comparePage(s, compareQuery(c))),
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
