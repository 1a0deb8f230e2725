/** HTML error pages for the browser (the /v1 routes keep the JSON envelope). */
import { ApiError } from '../errors.ts';
import { h } from './h.ts';
import { layout } from './layout.ts';

type Status = 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 503;

const TITLES: Partial<Record<Status, string>> = {
  400: 'Bad request',
  401: 'Sign-in required',
  403: 'Not allowed',
  404: 'Not found',
  503: 'Unavailable',
};

const HINTS: Record<string, string> = {
  run_not_found: 'The run may have been deleted, or the link is mistyped.',
  item_not_found: 'The run has no result for this item.',
  dataset_not_found: 'The server does not serve a dataset of that name.',
  not_found: 'There is no page at this address.',
};

/** An HTML page for `e` (an ApiError keeps its status; anything else is a logged 500). */
export function errorPage(
  e: unknown,
  path: string,
  log: (fields: Record<string, unknown>) => void,
): { status: Status; html: string } {
  let status: Status = 500;
  let code = 'internal';
  let message = 'internal server error';
  if (e instanceof ApiError) {
    status = e.status;
    code = e.code;
    message = e.message;
  } else log({ event: 'error', level: 'error', path, error: String((e as Error)?.stack ?? e) });
  const title = TITLES[status] ?? (status >= 500 ? 'Something went wrong' : 'Error');
  const body = h`<h1>${title}</h1><div class="card error" id="error"><p><b>${status}</b> · <code>${code}</code></p><p>${message}</p>${HINTS[code] ? h`<p class="muted">${HINTS[code]}</p>` : ''}
<p><a href="/leaderboard">Leaderboard</a> · <a href="/runs">Runs</a> · <a href="/datasets">Datasets</a></p></div>`;
  return { status, html: layout(title, body) };
}

/** True for a browser request to a page (not an API route). */
export function wantsHtml(path: string, accept: string | undefined): boolean {
  if (path.startsWith('/v1/') || path === '/v1' || path.endsWith('.json')) return false;
  return (accept ?? '').includes('text/html');
}
