/**
 * The fake GitHub: a real HTTP server (Bun.serve on 127.0.0.1) over a generated {@link Corpus}, with
 * per-token primary budgets on a (possibly simulated) clock, secondary limits, 5xx bursts, ETags and free
 * 304s, 301/410/404, 401 for bad tokens, and a request log (spec §5).
 */
import { createHash } from 'node:crypto';
import { type Clock, realClock } from '../src/clock.ts';
import { Corpus } from './corpus.ts';
import type { CorpusOptions } from './corpus-types.ts';
import { type FaultOptions, FaultPlan } from './faults.ts';
import { graphql } from './graphql.ts';
import { Lists } from './lists.ts';
import { type RouteResult, route } from './rest.ts';

export interface FakeGitHubOptions {
  corpus: Corpus | CorpusOptions;
  /** Valid tokens; any other `authorization` answers 401. Default: `fake-token-0` … `fake-token-2`. */
  tokens?: string[];
  /** Primary REST budget per token per window (default 5000; 60 without a token). */
  budget?: number;
  /** GraphQL points per token per window (default 5000). */
  graphqlBudget?: number;
  /** Rate-limit window in seconds (default 3600). */
  windowSeconds?: number;
  clock?: Clock;
  faults?: FaultOptions;
  /** Status of a primary-limit answer (default 403). */
  primaryStatus?: 403 | 429;
  issuesCursorAfterPage?: number;
  commentsPageCap?: number;
  port?: number;
  /** Keep at most this many log rows (default 2,000,000). */
  maxLog?: number;
}

export interface LoggedRequest {
  seq: number;
  method: string;
  /** Path with query string. */
  path: string;
  token: string | null;
  status: number;
  /** Whether the request spent primary budget. */
  charged: boolean;
  /** Points or requests charged. */
  cost: number;
  resource: 'core' | 'graphql';
  /** Clock time (ms) when the request arrived. */
  at: number;
  /** The budget's reset time (ms) after this request. */
  resetAt: number;
  /** Budget left after this request. */
  remaining: number;
  /** GraphQL: `<connection> <owner/name> after <cursor>`, so pages can be told apart. */
  detail?: string;
}

interface Bucket {
  limit: number;
  remaining: number;
  /** Epoch seconds; 0 = no window open. */
  reset: number;
}

const DOCS_LIMITS = 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api';
const LAST_MODIFIED = 'Mon, 01 Jan 2024 00:00:00 GMT';

export class FakeGitHub {
  readonly corpus: Corpus;
  readonly faults: FaultPlan;
  readonly log: LoggedRequest[] = [];
  readonly tokens: string[];
  readonly clock: Clock;
  private readonly lists: Lists;
  private readonly buckets = new Map<string, Bucket>();
  private server: ReturnType<typeof Bun.serve> | null = null;
  private seq = 0;

  private constructor(readonly options: FakeGitHubOptions) {
    this.corpus = options.corpus instanceof Corpus ? options.corpus : new Corpus(options.corpus);
    this.faults = new FaultPlan(options.faults);
    this.tokens = options.tokens ?? ['fake-token-0', 'fake-token-1', 'fake-token-2'];
    this.clock = options.clock ?? realClock;
    this.lists = new Lists(this.corpus, {
      issuesCursorAfterPage: options.issuesCursorAfterPage ?? 100,
      commentsPageCap: options.commentsPageCap ?? 400,
    });
  }

  /** Starts a server on 127.0.0.1 (an ephemeral port unless `port` is set). */
  static start(options: FakeGitHubOptions): FakeGitHub {
    const fake = new FakeGitHub(options);
    fake.server = Bun.serve({
      hostname: '127.0.0.1',
      port: options.port ?? 0,
      fetch: (req) => fake.handle(req),
    });
    return fake;
  }

  /** Base URL, e.g. `http://127.0.0.1:43123`. */
  get url(): string {
    return `http://127.0.0.1:${this.server?.port}`;
  }

  async stop(): Promise<void> {
    await this.server?.stop(true);
    this.server = null;
  }

  /** Budget of a token for a resource (as the next request would see it). */
  bucket(token: string | null, resource: 'core' | 'graphql'): Bucket {
    const key = `${token ?? ''}|${resource}`;
    let b = this.buckets.get(key);
    const limit =
      token === null
        ? 60
        : resource === 'core'
          ? (this.options.budget ?? 5000)
          : (this.options.graphqlBudget ?? 5000);
    if (!b) {
      b = { limit, remaining: limit, reset: 0 };
      this.buckets.set(key, b);
    }
    const nowSec = this.clock.now() / 1000;
    if (b.reset !== 0 && nowSec >= b.reset) {
      b.remaining = b.limit;
      b.reset = 0;
    }
    if (b.reset === 0) b.reset = Math.ceil(nowSec + (this.options.windowSeconds ?? 3600));
    return b;
  }

  private async handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const at = this.clock.now();
    const auth = req.headers.get('authorization');
    const token = auth ? auth.replace(/^(token|bearer)\s+/i, '') : null;
    const pathQ = `${url.pathname}${url.search}`;
    const isGraphql = req.method === 'POST' && url.pathname === '/graphql';
    const resource = isGraphql ? 'graphql' : 'core';
    const headers = new Headers({
      'content-type': 'application/json; charset=utf-8',
      'x-github-request-id': `FAKE:${++this.seq}`,
    });
    let detail: string | undefined;
    const finish = (
      status: number,
      body: unknown,
      charged: boolean,
      cost = 0,
      extra: Record<string, string> = {},
    ) => {
      let bucket: Bucket | null = null;
      if (token === null || this.tokens.includes(token)) {
        bucket = this.bucket(token, resource);
        if (charged) bucket.remaining = Math.max(0, bucket.remaining - cost);
        headers.set('x-ratelimit-limit', String(bucket.limit));
        headers.set('x-ratelimit-remaining', String(bucket.remaining));
        headers.set('x-ratelimit-used', String(bucket.limit - bucket.remaining));
        headers.set('x-ratelimit-reset', String(bucket.reset));
        headers.set('x-ratelimit-resource', resource);
      }
      for (const [k, v] of Object.entries(extra)) headers.set(k, v);
      if (this.log.length < (this.options.maxLog ?? 2_000_000))
        this.log.push({
          seq: this.seq,
          method: req.method,
          path: pathQ,
          token,
          status,
          charged,
          cost: charged ? cost : 0,
          resource,
          at,
          resetAt: (bucket?.reset ?? 0) * 1000,
          remaining: bucket?.remaining ?? 0,
          ...(detail ? { detail } : {}),
        });
      const text =
        body === null
          ? null
          : typeof body === 'string' && headers.get('content-type')?.startsWith('text/')
            ? body
            : JSON.stringify(body);
      return new Response(text, { status, headers });
    };
    if (token !== null && !this.tokens.includes(token))
      return finish(
        401,
        { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' },
        false,
      );
    if (req.method === 'GET' && url.pathname === '/rate_limit') {
      const core = this.bucket(token, 'core');
      const gql = this.bucket(token, 'graphql');
      const view = (b: Bucket) => ({
        limit: b.limit,
        remaining: b.remaining,
        used: b.limit - b.remaining,
        reset: b.reset,
      });
      return finish(200, { resources: { core: view(core), graphql: view(gql) }, rate: view(core) }, false);
    }
    const fault = this.faults.next(pathQ, isGraphql);
    if (fault?.kind === 'secondary')
      return finish(
        fault.status,
        {
          message:
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
          documentation_url: `${DOCS_LIMITS}#about-secondary-rate-limits`,
        },
        false,
        0,
        fault.retryAfter === null ? {} : { 'retry-after': String(fault.retryAfter) },
      );
    if (fault?.kind === 'server')
      return finish(fault.status, { message: fault.status === 502 ? 'Bad Gateway' : 'Server Error' }, false);
    if (fault?.kind === 'primary') this.bucket(token, resource).remaining = 0;
    const bucket = this.bucket(token, resource);
    if (bucket.remaining <= 0) {
      if (isGraphql)
        return finish(
          200,
          { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user ID 1.' }] },
          false,
        );
      return finish(
        fault?.kind === 'primary' ? fault.status : (this.options.primaryStatus ?? 403),
        { message: 'API rate limit exceeded for user ID 1.', documentation_url: DOCS_LIMITS },
        false,
      );
    }
    if (fault?.kind === 'graphql-error')
      return finish(
        200,
        {
          data: null,
          errors: [
            {
              message:
                'Something went wrong while executing your query. Please include `FAKE:1` when reporting this issue.',
            },
          ],
        },
        false,
      );
    if (isGraphql) {
      let parsed: { query?: string; variables?: Record<string, unknown> };
      try {
        parsed = (await req.json()) as typeof parsed;
      } catch {
        return finish(400, { message: 'Problems parsing JSON' }, true, 1);
      }
      const v = parsed.variables ?? {};
      const conn = /pullRequests\s*\(/.test(parsed.query ?? '')
        ? 'pullRequests'
        : /issues\s*\(/.test(parsed.query ?? '')
          ? 'issues'
          : 'other';
      detail = `${conn} ${String(v.owner)}/${String(v.name)} after ${String(v.cursor ?? null)}`;
      const r = graphql(this.corpus, parsed.query ?? '', v);
      const data = r.body.data as Record<string, unknown> | undefined;
      if (data && 'rateLimit' in data) {
        const after = Math.max(0, bucket.remaining - r.cost);
        data.rateLimit = {
          cost: r.cost,
          remaining: after,
          resetAt: new Date(bucket.reset * 1000).toISOString(),
        };
      }
      return finish(r.status, r.body, true, r.cost);
    }
    if (req.method !== 'GET') return finish(404, { message: 'Not Found' }, true, 1);
    let res: RouteResult;
    try {
      res = route(this.corpus, this.lists, url, req.headers.get('accept') ?? '');
    } catch (e) {
      return finish(500, { message: `fake error: ${(e as Error).message}` }, false);
    }
    const extra: Record<string, string> = {};
    if (res.link) extra.link = res.link;
    if (res.location) extra.location = res.location;
    if (res.raw) headers.set('content-type', 'text/plain; charset=utf-8');
    if (res.status === 200) {
      const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
      const etag = `W/"${createHash('sha1').update(text).digest('hex')}"`;
      extra.etag = etag;
      extra['last-modified'] = LAST_MODIFIED;
      const inm = req.headers.get('if-none-match');
      const ims = req.headers.get('if-modified-since');
      if ((inm && inm === etag) || (!inm && ims && Date.parse(ims) >= Date.parse(LAST_MODIFIED)))
        return finish(304, null, false, 0, extra);
    }
    return finish(res.status, res.body, true, 1, extra);
  }

  /** Requests per status, and charged totals (for tests and benchmarks). */
  stats(): { requests: number; charged: number; byStatus: Record<string, number> } {
    const byStatus: Record<string, number> = {};
    let charged = 0;
    for (const r of this.log) {
      byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
      if (r.charged) charged++;
    }
    return { requests: this.log.length, charged, byStatus };
  }
}
