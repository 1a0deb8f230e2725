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

  private async handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const at = this.clock.now();
    const auth = req.headers.get('authorization');
    const isJwt = /^bearer\s+[^.\s]+\.[^.\s]+\.[^.\s]+$/i.test(auth ?? '');
    const token = auth && !isJwt ? auth.replace(/^(token|bearer)\s+/i, '') : null;
    const id = this.identities.of(token);
    const pathQ = `${url.pathname}${url.search}`;
    const isGraphql = req.method === 'POST' && url.pathname === '/graphql';
    const resource = isGraphql ? 'graphql' : 'core';
    const headers = new Headers({
      'content-type': 'application/json; charset=utf-8',
      'x-github-request-id': `FAKE:${++this.seq}`,
    });
    let detail: string | undefined;
    const valid = !isJwt && this.identities.valid(token, at);
    const finish = (
      status: number,
      body: unknown,
      charged: boolean,
      cost = 0,
      extra: Record<string, string> = {},
    ) => {
      let bucket: Bucket | null = null;
      if (valid) {
        bucket = this.bucketOf(id, resource);
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
          identity: id.key,
          ...(detail ? { detail } : {}),
          ...(status === 200 &&
          body !== null &&
          typeof body === 'object' &&
          'errors' in body &&
          (body as { data?: unknown }).data
            ? { partial: true }
            : {}),
        });
      const text =
        body === null
          ? null
          : typeof body === 'string' && headers.get('content-type')?.startsWith('text/')
            ? body
            : JSON.stringify(body);
      return new Response(text, { status, headers });
    };
    const appRoute = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(url.pathname);
    if (isJwt) {
      if (!appRoute || req.method !== 'POST' || !this.identities.isAppJwt(auth))
        return finish(401, { message: 'A JSON web token could not be decoded' }, false);
      const minted = this.identities.mint(Number(appRoute[1]), at);
      if (!minted) return finish(404, { message: 'Not Found' }, false);
      return finish(
        201,
        { ...minted, permissions: { issues: 'read', pull_requests: 'read' }, repository_selection: 'all' },
        false,
      );
    }
    if (!valid)
      return finish(
        401,
        { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' },
        false,
      );
    if (isGraphql && token === null)
      return finish(
        401,
        {
          message: 'This endpoint requires you to be authenticated.',
          documentation_url:
            'https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql',
        },
        false,
      );
    if (req.method === 'GET' && url.pathname === '/rate_limit') {
      const core = this.bucketOf(id, 'core');
      const gql = this.bucketOf(id, 'graphql');
      const view = (b: Bucket) => ({
        limit: b.limit,
        remaining: b.remaining,
        used: b.limit - b.remaining,
        reset: b.reset,
      });
      return finish(200, { resources: { core: view(core), graphql: view(gql) }, rate: view(core) }, false);
    }
    const secondary = (retryAfter: number | null, status: 403 | 429 = 403) =>
      finish(
        status,
        {
          message:
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
          documentation_url: `${DOCS_LIMITS}#about-secondary-rate-limits`,
        },
        false,
        0,
        retryAfter === null ? {} : { 'retry-after': String(retryAfter) },
      );
    const fault = this.faults.next(pathQ, isGraphql);
    if (fault?.kind === 'secondary') return secondary(fault.retryAfter, fault.status);
    if (fault?.kind === 'server')
      return finish(fault.status, { message: fault.status === 502 ? 'Bad Gateway' : 'Server Error' }, false);
    const load = this.faults.load;
    const arrival = load ? this.load.arrive(id.key, at) : null;
    if (arrival && !arrival.ok) return secondary(arrival.retryAfter);
    try {
      return await this.serve(req, url, id, token, at, isGraphql, fault, finish, (d) => {
        detail = d;
      });
    } finally {
      if (arrival?.ok) arrival.release();
    }
  }

  private async serve(
    req: Request,
    url: URL,
    id: Identity,
    token: string | null,
    at: number,
    isGraphql: boolean,
    fault: FaultAnswer | null,
    finish: (
      s: number,
      b: unknown,
      charged: boolean,
      cost?: number,
      extra?: Record<string, string>,
    ) => Response,
    setDetail: (d: string) => void,
  ): Promise<Response> {
    const resource = isGraphql ? 'graphql' : 'core';
    const load = this.faults.load;
    const state = this.load.of(id.key);
    const arrivedWith = state.inflight;
    /** Holds the answer for its service time (so concurrent requests overlap), then charges it. */
    const overLoad = async (serviceMs: number, points: number) => {
      if (!load) return null;
      await this.clock.sleep(serviceMs);
      const v = this.load.charge(id.key, at, serviceMs, isGraphql, points, Math.max(1, state.inflight));
      if (!v || v.ok) return null;
      return finish(
        403,
        {
          message:
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
          documentation_url: `${DOCS_LIMITS}#about-secondary-rate-limits`,
        },
        false,
        0,
        { 'retry-after': String(v.retryAfter) },
      );
    };
    if (fault?.kind === 'primary') this.bucketOf(id, resource).remaining = 0;
    const bucket = this.bucketOf(id, resource);
    const rateLimited = () => {
      const type =
        (this.options.graphqlLimitType ?? 'both') === 'both'
          ? ++this.limitedSeq % 2
            ? 'RATE_LIMIT'
            : 'RATE_LIMITED'
          : this.options.graphqlLimitType;
      return finish(
        200,
        {
          errors: [
            {
              type,
              ...(type === 'RATE_LIMIT' ? { code: 'graphql_rate_limit' } : {}),
              message: `API rate limit already exceeded for user ID ${id.userId ?? 1}.`,
            },
          ],
        },
        false,
      );
    };
    if (bucket.remaining <= 0) {
      if (isGraphql) return rateLimited();
      return finish(
        fault?.kind === 'primary' ? fault.status : (this.options.primaryStatus ?? 403),
        { message: `API rate limit exceeded for user ID ${id.userId ?? 1}.`, documentation_url: DOCS_LIMITS },
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
      const query = parsed.query ?? '';
      const found = this.corpus.find(`${String(v.owner)}/${String(v.name)}`);
      const pageFaults =
        /pullRequests\s*\(|issues\s*\(/.test(query) && found ? this.faults.graphqlPage() : {};
      if (load && arrivedWith > 1 && /pullRequests\s*\(|issues\s*\(/.test(query))
        pageFaults.truncateNested = true;
      const disabled = found && this.issuesDisabled.has(found.repo.full) && /issues\s*\(/.test(query);
      const r = graphql(this.corpus, query, v, pageFaults);
      // Issues disabled: the connection is empty (`hasIssuesEnabled: false`).
      const rd = r.body.data as { repository?: { issues?: unknown } } | undefined;
      if (disabled && rd?.repository)
        rd.repository.issues = { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [] };
      setDetail(
        `${r.connection ?? 'other'} ${String(v.owner)}/${String(v.name)}${v.number === undefined ? '' : `#${String(v.number)}`} after ${String(v.cursor ?? v.after ?? null)}${v.first === undefined ? '' : ` first ${String(v.first)}`}`,
      );
      // GitHub checks the query's cost before running it: too few points left → a rate-limit answer.
      if (r.cost > bucket.remaining) return rateLimited();
      const service = graphqlServiceMs(r.nodes, found && load ? this.weight(found.repo) : 1, arrivedWith);
      const refused = await overLoad(Math.min(service, TIMEOUT_MS), r.cost);
      if (refused) return refused;
      if (load && service > TIMEOUT_MS) {
        this.timeouts.set(id.key, (this.timeouts.get(id.key) ?? 0) + 1);
        if (found && this.weight(found.repo) >= 3)
          return finish(
            200,
            {
              data: { repository: null },
              errors: [
                {
                  type: 'RESOURCE_LIMITS_EXCEEDED',
                  path: ['repository'],
                  message: 'Resource limits for this query exceeded.',
                },
              ],
            },
            true,
            r.cost,
          );
        return finish(
          502,
          {
            data: null,
            errors: [
              {
                message:
                  "We couldn't respond to your request in time. Sorry about that. Please try resubmitting your request and contact us if the problem persists.",
              },
            ],
          },
          true,
          r.cost,
        );
      }
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
    if (req.method === 'GET' && url.pathname === '/user') {
      if (id.kind === 'installation')
        return finish(
          403,
          {
            message: 'Resource not accessible by integration',
            documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user',
          },
          true,
          1,
        );
      if (id.kind === 'anonymous')
        return finish(
          401,
          { message: 'Requires authentication', documentation_url: 'https://docs.github.com/rest' },
          false,
        );
      return finish(200, { login: id.login, id: id.userId, type: 'User', site_admin: false }, true, 1);
    }
    if (req.method !== 'GET') return finish(404, { message: 'Not Found' }, true, 1);
    let res: RouteResult;
    try {
      res = route(this.corpus, this.lists, url, req.headers.get('accept') ?? '', {
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
        .update(`${token ?? ''}\0${text}`)
        .digest('hex')}"`;
      extra.etag = etag;
      extra['last-modified'] = LAST_MODIFIED;
      const inm = req.headers.get('if-none-match');
      const ims = req.headers.get('if-modified-since');
      if ((inm && inm === etag) || (!inm && ims && Date.parse(ims) >= Date.parse(LAST_MODIFIED))) {
        const refused = await overLoad(restServiceMs(0), 1);
        if (refused) return refused;
        return finish(304, null, false, 0, extra);
      }
    }
    const refused = await overLoad(restServiceMs(items), 1);
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
