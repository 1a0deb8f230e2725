/**
 * The fake GitHub: a real HTTP server (Bun.serve on 127.0.0.1) over a generated {@link Corpus}, with
 * primary budgets per identity (user or App installation, identity.ts) on a (possibly simulated) clock,
 * load-driven secondary limits and GraphQL timeouts (load.ts), 5xx bursts, token-dependent ETags and
 * free 304s, 301/410/404, 401 for bad tokens and token-less GraphQL, and a request log (spec §5).
 */
import { createHash } from 'node:crypto';
import { type Clock, realClock } from '../src/clock.ts';
import { Corpus } from './corpus.ts';
import type { CorpusOptions, FakeRepo } from './corpus-types.ts';
import { type FaultAnswer, type FaultOptions, FaultPlan } from './faults.ts';
import { graphql } from './graphql.ts';
import { type FakeApp, Identities, type Identity, INSTALLATION_LIMIT, type Owner } from './identity.ts';
import { Lists } from './lists.ts';
import {
  DEFAULT_LIMITS,
  graphqlServiceMs,
  type IdentityLoad,
  type LoadLimits,
  LoadModel,
  restServiceMs,
  TIMEOUT_MS,
} from './load.ts';
import { type RouteResult, route } from './rest.ts';

export interface FakeGitHubOptions {
  corpus: Corpus | CorpusOptions;
  /** Valid tokens; any other `authorization` answers 401. Default: `fake-token-0` … `fake-token-2`. */
  tokens?: string[];
  /**
   * Who owns each token: a user login (tokens of one login share its budgets) or an App installation.
   * Default: every token its own user (`fake-user-<i>`).
   */
  owners?: Record<string, Owner>;
  /** A GitHub App whose installations can mint tokens (`POST /app/installations/{id}/access_tokens`). */
  app?: FakeApp;
  /** Primary budget (REST requests and GraphQL points) per installation per window (default 12,500). */
  installationBudget?: number;
  /**
   * `errors[].type` of a GraphQL primary-limit answer. GitHub documents `RATE_LIMITED`, but answers
   * `RATE_LIMIT` (with `code: "graphql_rate_limit"`) too (githubkit#271, plugin-throttling.js#824).
   * Default `both`: they alternate.
   */
  graphqlLimitType?: 'RATE_LIMITED' | 'RATE_LIMIT' | 'both';
  /** Repositories (full names) with issues disabled: their issue endpoints answer 410. */
  issuesDisabled?: string[];
  /** Load limits (load.ts) when `faults.load` is on. */
  limits?: Partial<LoadLimits>;
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
  /** The identity behind the token (`user:<login>`, `installation:<id>`, `anonymous`). */
  identity: string;
  /** GraphQL: the answer carried partial data beside errors (a client may ask again). */
  partial?: boolean;
}

/** Per identity: what a crawl cost it (for benchmarks). */
export interface IdentityUsage {
  identity: string;
  kind: Identity['kind'];
  coreLimit: number;
  graphqlLimit: number;
  coreCharged: number;
  graphqlPoints: number;
  requests: number;
  /** Busy time and secondary-limit penalties (load model), ms. */
  busyMs: number;
  penaltyMs: number;
  secondary: number;
  peakInflight: number;
  timeouts: number;
}

interface Bucket {
  limit: number;
  remaining: number;
  /** Epoch seconds; 0 = no window open. */
  reset: number;
}

const DOCS_LIMITS = 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api';
const LAST_MODIFIED = 'Mon, 01 Jan 2024 00:00:00 GMT';

/** One request being answered: who asks, and what. */
interface Exchange {
  req: Request;
  url: URL;
  at: number;
  auth: string | null;
  /** An App's JSON web token (it may only mint installation tokens). */
  isJwt: boolean;
  token: string | null;
  id: Identity;
  /** Path with query string. */
  pathQ: string;
  isGraphql: boolean;
  resource: 'core' | 'graphql';
  headers: Headers;
  valid: boolean;
  /** The log row's detail (GraphQL pages). */
  detail?: string;
}

type Finish = (
  status: number,
  body: unknown,
  charged: boolean,
  cost?: number,
  extra?: Record<string, string>,
) => Response;

/** A request past the free answers: its identity's load state and budget. */
interface Serving {
  x: Exchange;
  finish: Finish;
  state: IdentityLoad;
  /** Requests of this identity in flight when it arrived. */
  arrivedWith: number;
  bucket: Bucket;
}

/** A GraphQL answer carrying partial data beside errors. */
const isPartial = (body: unknown): boolean =>
  body !== null && typeof body === 'object' && 'errors' in body && Boolean((body as { data?: unknown }).data);

/** A secondary-limit answer (403 or 429), with `retry-after` when there is one. */
function secondaryLimit(finish: Finish, retryAfter: number | null, status: 403 | 429 = 403): Response {
  return finish(
    status,
    {
      message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
      documentation_url: `${DOCS_LIMITS}#about-secondary-rate-limits`,
    },
    false,
    0,
    retryAfter === null ? {} : { 'retry-after': String(retryAfter) },
  );
}

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
  private limitedSeq = 0;
  readonly identities: Identities;
  readonly load: LoadModel;
  private readonly issuesDisabled: Set<string>;
  private readonly timeouts = new Map<string, number>();

  private constructor(readonly options: FakeGitHubOptions) {
    this.corpus = options.corpus instanceof Corpus ? options.corpus : new Corpus(options.corpus);
    this.faults = new FaultPlan(options.faults);
    this.tokens = options.tokens ?? ['fake-token-0', 'fake-token-1', 'fake-token-2'];
    this.clock = options.clock ?? realClock;
    this.lists = new Lists(this.corpus, {
      issuesCursorAfterPage: options.issuesCursorAfterPage ?? 100,
      ...(options.commentsPageCap === undefined ? {} : { commentsPageCap: options.commentsPageCap }),
    });
    this.identities = new Identities(this.tokens, options.owners ?? {}, options.app ?? null);
    this.load = new LoadModel({ ...DEFAULT_LIMITS, ...options.limits });
    this.issuesDisabled = new Set(options.issuesDisabled ?? []);
  }

  /**
   * How heavy a repository's GraphQL pages are (service time multiplier under `faults.load`): index ≡ 7
   * (mod 10) very heavy (3×: resource limits past 10 s), index ≡ 1 (mod 3) heavy (1.6×), else 1.
   */
  weight(repo: FakeRepo): number {
    if (repo.index % 10 === 7) return 3;
    if (repo.index % 3 === 1) return 1.6;
    return 1;
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

  /**
   * Answers a request in process, exactly as the server would but without a socket (for simulations
   * that run many requests: pass it as the client's `fetch`).
   */
  readonly fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
    this.handle(input instanceof Request && !init ? input : new Request(input, init));

  /** Base URL, e.g. `http://127.0.0.1:43123`. */
  get url(): string {
    return `http://127.0.0.1:${this.server?.port}`;
  }

  async stop(): Promise<void> {
    await this.server?.stop(true);
    this.server = null;
  }

  /** Budget of a token's identity for a resource (as the next request would see it). */
  bucket(token: string | null, resource: 'core' | 'graphql'): Bucket {
    return this.bucketOf(this.identities.of(token), resource);
  }

  private limitOf(id: Identity, resource: 'core' | 'graphql'): number {
    if (id.kind === 'anonymous') return 60;
    if (id.kind === 'installation') return this.options.installationBudget ?? INSTALLATION_LIMIT;
    return resource === 'core' ? (this.options.budget ?? 5000) : (this.options.graphqlBudget ?? 5000);
  }

  private bucketOf(id: Identity, resource: 'core' | 'graphql'): Bucket {
    const key = `${id.key}|${resource}`;
    let b = this.buckets.get(key);
    const limit = this.limitOf(id, resource);
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

  /** Who asks, and what: the parts of a request every answer needs. */
  private exchangeOf(req: Request): Exchange {
    const url = new URL(req.url);
    const at = this.clock.now();
    const auth = req.headers.get('authorization');
    const isJwt = /^bearer\s+[^.\s]+\.[^.\s]+\.[^.\s]+$/i.test(auth ?? '');
    const token = auth && !isJwt ? auth.replace(/^(token|bearer)\s+/i, '') : null;
    const isGraphql = req.method === 'POST' && url.pathname === '/graphql';
    const headers = new Headers({
      'content-type': 'application/json; charset=utf-8',
      'x-github-request-id': `FAKE:${++this.seq}`,
    });
    return {
      req,
      url,
      at,
      auth,
      isJwt,
      token,
      id: this.identities.of(token),
      pathQ: `${url.pathname}${url.search}`,
      isGraphql,
      resource: isGraphql ? 'graphql' : 'core',
      headers,
      valid: !isJwt && this.identities.valid(token, at),
    };
  }

  /** The response: rate-limit headers (for a valid identity), the budget charged, the log row. */
  private finish(
    x: Exchange,
    status: number,
    body: unknown,
    charged: boolean,
    cost = 0,
    extra: Record<string, string> = {},
  ): Response {
    const { headers, resource } = x;
    let bucket: Bucket | null = null;
    if (x.valid) {
      bucket = this.bucketOf(x.id, resource);
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
        method: x.req.method,
        path: x.pathQ,
        token: x.token,
        status,
        charged,
        cost: charged ? cost : 0,
        resource,
        at: x.at,
        resetAt: (bucket?.reset ?? 0) * 1000,
        remaining: bucket?.remaining ?? 0,
        identity: x.id.key,
        ...(x.detail ? { detail: x.detail } : {}),
        ...(status === 200 && isPartial(body) ? { partial: true } : {}),
      });
    const text =
      body === null
        ? null
        : typeof body === 'string' && headers.get('content-type')?.startsWith('text/')
          ? body
          : JSON.stringify(body);
    return new Response(text, { status, headers });
  }

  /** The answers that need no budget: App token minting, 401s, `/rate_limit`; null for the rest. */
  private unchargedAnswer(x: Exchange, finish: Finish): Response | null {
    const appRoute = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(x.url.pathname);
    if (x.isJwt) {
      if (!appRoute || x.req.method !== 'POST' || !this.identities.isAppJwt(x.auth))
        return finish(401, { message: 'A JSON web token could not be decoded' }, false);
      const minted = this.identities.mint(Number(appRoute[1]), x.at);
      if (!minted) return finish(404, { message: 'Not Found' }, false);
      return finish(
        201,
        { ...minted, permissions: { issues: 'read', pull_requests: 'read' }, repository_selection: 'all' },
        false,
      );
    }
    if (!x.valid)
      return finish(
        401,
        { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' },
        false,
      );
    if (x.isGraphql && x.token === null)
      return finish(
        401,
        {
          message: 'This endpoint requires you to be authenticated.',
          documentation_url:
            'https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql',
        },
        false,
      );
    if (x.req.method === 'GET' && x.url.pathname === '/rate_limit') {
      const core = this.bucketOf(x.id, 'core');
      const gql = this.bucketOf(x.id, 'graphql');
      const view = (b: Bucket) => ({
        limit: b.limit,
        remaining: b.remaining,
        used: b.limit - b.remaining,
        reset: b.reset,
      });
      return finish(200, { resources: { core: view(core), graphql: view(gql) }, rate: view(core) }, false);
    }
    return null;
  }

  private async handle(req: Request): Promise<Response> {
    const x = this.exchangeOf(req);
    const finish: Finish = (status, body, charged, cost, extra) =>
      this.finish(x, status, body, charged, cost, extra);
    const uncharged = this.unchargedAnswer(x, finish);
    if (uncharged) return uncharged;
    const fault = this.faults.next(x.pathQ, x.isGraphql);
    if (fault?.kind === 'secondary') return secondaryLimit(finish, fault.retryAfter, fault.status);
    if (fault?.kind === 'server')
      return finish(fault.status, { message: fault.status === 502 ? 'Bad Gateway' : 'Server Error' }, false);
    const arrival = this.faults.load ? this.load.arrive(x.id.key, x.at) : null;
    if (arrival && !arrival.ok) return secondaryLimit(finish, arrival.retryAfter);
    try {
      return await this.serve(x, fault, finish);
    } finally {
      if (arrival?.ok) arrival.release();
    }
  }

  /** Holds the answer for its service time (so concurrent requests overlap), then charges it. */
  private async overLoad(c: Serving, serviceMs: number, points: number): Promise<Response | null> {
    if (!this.faults.load) return null;
    await this.clock.sleep(serviceMs);
    const inflight = Math.max(1, c.state.inflight);
    const v = this.load.charge(c.x.id.key, c.x.at, serviceMs, c.x.isGraphql, points, inflight);
    if (!v || v.ok) return null;
    return secondaryLimit(c.finish, v.retryAfter, 403);
  }

  /** A GraphQL primary-limit answer (200 with a rate-limit error). */
  private rateLimited(c: Serving): Response {
    const type =
      (this.options.graphqlLimitType ?? 'both') === 'both'
        ? ++this.limitedSeq % 2
          ? 'RATE_LIMIT'
          : 'RATE_LIMITED'
        : this.options.graphqlLimitType;
    const error = {
      type,
      ...(type === 'RATE_LIMIT' ? { code: 'graphql_rate_limit' } : {}),
      message: `API rate limit already exceeded for user ID ${c.x.id.userId ?? 1}.`,
    };
    return c.finish(200, { errors: [error] }, false);
  }

  private async serve(x: Exchange, fault: FaultAnswer | null, finish: Finish): Promise<Response> {
    const state = this.load.of(x.id.key);
    if (fault?.kind === 'primary') this.bucketOf(x.id, x.resource).remaining = 0;
    const c: Serving = {
      x,
      finish,
      state,
      arrivedWith: state.inflight,
      bucket: this.bucketOf(x.id, x.resource),
    };
    if (c.bucket.remaining <= 0) {
      if (x.isGraphql) return this.rateLimited(c);
      return finish(
        fault?.kind === 'primary' ? fault.status : (this.options.primaryStatus ?? 403),
        {
          message: `API rate limit exceeded for user ID ${x.id.userId ?? 1}.`,
          documentation_url: DOCS_LIMITS,
        },
        false,
      );
    }
    if (fault?.kind === 'graphql-error') {
      const message =
        'Something went wrong while executing your query. Please include `FAKE:1` when reporting this issue.';
      return finish(200, { data: null, errors: [{ message }] }, false);
    }
    if (x.isGraphql) return this.serveGraphql(c);
    if (x.req.method === 'GET' && x.url.pathname === '/user') return this.serveUser(c);
    if (x.req.method !== 'GET') return finish(404, { message: 'Not Found' }, true, 1);
    return this.serveRest(c);
  }

  private async serveGraphql(c: Serving): Promise<Response> {
    const { x, finish, bucket } = c;
    let parsed: { query?: string; variables?: Record<string, unknown> };
    try {
      parsed = (await x.req.json()) as typeof parsed;
    } catch {
      return finish(400, { message: 'Problems parsing JSON' }, true, 1);
    }
    const load = this.faults.load;
    const v = parsed.variables ?? {};
    const query = parsed.query ?? '';
    const found = this.corpus.find(`${String(v.owner)}/${String(v.name)}`);
    const pages = /pullRequests\s*\(|issues\s*\(/.test(query);
    const pageFaults = pages && found ? this.faults.graphqlPage() : {};
    if (load && c.arrivedWith > 1 && pages) pageFaults.truncateNested = true;
    const disabled = found && this.issuesDisabled.has(found.repo.full) && /issues\s*\(/.test(query);
    const r = graphql(this.corpus, query, v, pageFaults);
    // Issues disabled: the connection is empty (`hasIssuesEnabled: false`).
    const rd = r.body.data as { repository?: { issues?: unknown } } | undefined;
    if (disabled && rd?.repository)
      rd.repository.issues = { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [] };
    x.detail = `${r.connection ?? 'other'} ${String(v.owner)}/${String(v.name)}${v.number === undefined ? '' : `#${String(v.number)}`} after ${String(v.cursor ?? v.after ?? null)}${v.first === undefined ? '' : ` first ${String(v.first)}`}`;
    // GitHub checks the query's cost before running it: too few points left → a rate-limit answer.
    if (r.cost > bucket.remaining) return this.rateLimited(c);
    const service = graphqlServiceMs(r.nodes, found && load ? this.weight(found.repo) : 1, c.arrivedWith);
    const refused = await this.overLoad(c, Math.min(service, TIMEOUT_MS), r.cost);
    if (refused) return refused;
    if (load && service > TIMEOUT_MS)
      return this.graphqlTimeout(c, found ? this.weight(found.repo) : 0, r.cost);
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

  /** A query that ran past the time limit: resource limits (heavy repositories, weight ≥ 3) or a 502. */
  private graphqlTimeout(c: Serving, weight: number, cost: number): Response {
    this.timeouts.set(c.x.id.key, (this.timeouts.get(c.x.id.key) ?? 0) + 1);
    if (weight >= 3) {
      const error = {
        type: 'RESOURCE_LIMITS_EXCEEDED',
        path: ['repository'],
        message: 'Resource limits for this query exceeded.',
      };
      return c.finish(200, { data: { repository: null }, errors: [error] }, true, cost);
    }
    const message =
      "We couldn't respond to your request in time. Sorry about that. Please try resubmitting your request and contact us if the problem persists.";
    return c.finish(502, { data: null, errors: [{ message }] }, true, cost);
  }

  private serveUser(c: Serving): Response {
    const { id } = c.x;
    if (id.kind === 'installation')
      return c.finish(
        403,
        {
          message: 'Resource not accessible by integration',
          documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
        },
        true,
        1,
      );
    if (id.kind === 'anonymous')
      return c.finish(
        401,
        { message: 'Requires authentication', documentation_url: 'https://docs.github.com/rest' },
        false,
      );
    return c.finish(200, { login: id.login, id: id.userId, type: 'User', site_admin: false }, true, 1);
  }

  private async serveRest(c: Serving): Promise<Response> {
    const { x, finish } = c;
    let res: RouteResult;
    try {
      res = route(this.corpus, this.lists, x.url, x.req.headers.get('accept') ?? '', {
        issuesDisabled: this.issuesDisabled,
      });
    } catch (e) {
      return finish(500, { message: `fake error: ${(e as Error).message}` }, false);
    }
    const extra: Record<string, string> = {};
    if (res.link) extra.link = res.link;
    if (res.location) extra.location = res.location;
    if (res.raw) extra['content-type'] = 'text/plain; charset=utf-8';
    const items = Array.isArray(res.body) ? res.body.length : 1;
    if (res.status === 200) {
      const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
      // ETags are specific to the auth token ("It's currently expected for ETags to be auth token
      // specific", GitHub support, quoted in eclipse-csi/otterdog#201): another token gets a 200.
      const etag = `W/"${createHash('sha1')
        .update(`${x.token ?? ''}\0${text}`)
        .digest('hex')}"`;
      extra.etag = etag;
      extra['last-modified'] = LAST_MODIFIED;
      const inm = x.req.headers.get('if-none-match');
      const ims = x.req.headers.get('if-modified-since');
      if ((inm && inm === etag) || (!inm && ims && Date.parse(ims) >= Date.parse(LAST_MODIFIED))) {
        const refused = await this.overLoad(c, restServiceMs(0), 1);
        if (refused) return refused;
        return finish(304, null, false, 0, extra);
      }
    }
    const refused = await this.overLoad(c, restServiceMs(items), 1);
    if (refused) return refused;
    return finish(res.status, res.body, true, 1, extra);
  }

  /** What the crawl cost each identity (budgets spent, busy time, secondary limits). */
  usage(): IdentityUsage[] {
    const out = new Map<string, IdentityUsage>();
    const idOf = new Map<string, Identity>();
    for (const r of this.log) {
      let u = out.get(r.identity);
      if (!u) {
        const id = this.identities.of(r.token);
        idOf.set(r.identity, id);
        const l = this.load.of(r.identity);
        u = {
          identity: r.identity,
          kind: id.kind,
          coreLimit: this.limitOf(id, 'core'),
          graphqlLimit: this.limitOf(id, 'graphql'),
          coreCharged: 0,
          graphqlPoints: 0,
          requests: 0,
          busyMs: l.busyMs,
          penaltyMs: l.penaltyMs,
          secondary: l.secondary,
          peakInflight: l.peakInflight,
          timeouts: this.timeouts.get(r.identity) ?? 0,
        };
        out.set(r.identity, u);
      }
      u.requests++;
      if (r.charged && r.resource === 'core') u.coreCharged += r.cost;
      if (r.charged && r.resource === 'graphql') u.graphqlPoints += r.cost;
    }
    return [...out.values()].sort((a, b) => (a.identity < b.identity ? -1 : 1));
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
