/**
 * The octokit client configured for long crawls (spec §1.5): core + paginate-rest + retry + throttling,
 * `X-GitHub-Api-Version: 2022-11-28`, tokens behind a {@link TokenPool} grouped by identity, an ETag
 * cache keyed by (identity, URL), and every wait on an injectable {@link Clock}.
 *
 * Limits are handled in the auth hook, per attempt, where the token and its identity are known:
 * - primary limit (REST 403/429 with remaining 0, GraphQL `RATE_LIMITED` or `RATE_LIMIT` in a 200 —
 *   plugin-throttling 11 matches only the former, plugin-throttling.js#824): the identity is marked
 *   spent until its reset and the request goes to another identity or waits;
 * - secondary limit: only that identity pauses (`retry-after`, or 60 s × 2^n), and the request is
 *   retried — never abandoned while budget remains;
 * - 429 is in plugin-retry's `doNotRetry`; 5xx are retried by plugin-retry with (n+1)² s back-off,
 *   except GraphQL requests sent with `request.retries: 0` (the crawler adapts their page size).
 */
import { FaunError } from '@faun/kit';
import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck';
import { type Clock, realClock } from './clock.ts';
import { type EtagCache, MemoryEtagCache } from './etag.ts';
import { type FetchLike, identifyTokens } from './identity.ts';
import { type Resource, type Slot, TokenPool, type TokenSource } from './tokens.ts';

export const API_VERSION = '2022-11-28';

const CrawlOctokit = Octokit.plugin(paginateRest, retry, throttling);
export type CrawlOctokit = InstanceType<typeof CrawlOctokit>;

export interface ClientOptions {
  /** REST base URL (default https://api.github.com; a GHE `/api/v3` URL or the fake). */
  baseUrl?: string;
  /** Tokens (never logged); empty = unauthenticated. */
  tokens: string[];
  /** Further credentials, e.g. App installations ({@link appTokens}). */
  sources?: TokenSource[];
  clock?: Clock;
  etags?: EtagCache;
  /** 5xx retries per request (default 5). */
  retries?: number;
  /** Requests in flight per identity (default 1: serial, as GitHub asks). */
  perIdentity?: number;
  /** Look up who is behind each token (`GET /user`, once per token) before the first request (default true). */
  identify?: boolean;
  /** Instead of the global fetch, for identity lookups and every API request (tests, an in-process fake). */
  fetch?: FetchLike;
  /** Called when the client waits (reason, clock ms). */
  onWait?: (why: string, ms: number) => void;
  /** Called for retries and limit hits (never with a token). */
  log?: (line: string) => void;
  signal?: AbortSignal;
}

export interface ClientCounters {
  /** 304 answers turned into cached 200s. */
  notModified: number;
  primaryLimited: number;
  secondaryLimited: number;
  /** Requests abandoned because of rate limits (always 0: limits are waited out). */
  aborted: number;
}

export interface GitHubClient {
  octokit: CrawlOctokit;
  pool: TokenPool;
  etags: EtagCache;
  clock: Clock;
  counters: ClientCounters;
  /** Requests sent (all attempts), per resource. */
  sent(): Record<Resource, number>;
  /** Resolves identities now (otherwise done before the first request). */
  identify(): Promise<void>;
}

let clientSeq = 0;

type Hdrs = Record<string, string | number | undefined>;
interface ReqErr {
  status?: number;
  response?: { headers?: Hdrs; data?: unknown };
}

/** `errors[].type` of a GraphQL primary-limit answer (both spellings GitHub uses). */
function graphqlLimited(data: unknown): boolean {
  const errors = (data as { errors?: { type?: string }[] } | null)?.errors;
  return Array.isArray(errors) && errors.some((e) => e?.type === 'RATE_LIMITED' || e?.type === 'RATE_LIMIT');
}

function resetMs(h: Hdrs | undefined, clock: Clock): number {
  const r = Number(h?.['x-ratelimit-reset']);
  return Number.isFinite(r) && r > 0 ? r * 1000 : clock.now() + 60_000;
}

/** What the auth hook shares across requests. */
interface HookDeps {
  pool: TokenPool;
  etags: EtagCache;
  counters: ClientCounters;
  clock: Clock;
  log: (line: string) => void;
  identify: () => Promise<void>;
  signal?: AbortSignal;
}

type Answer = { status: number; headers: Hdrs; data: unknown };
type OctoRequest = ((o: unknown) => Promise<Answer>) & {
  endpoint: {
    merge: (
      r: unknown,
      p?: unknown,
    ) => { method: string; url: string; headers: Record<string, string>; request?: { faunCost?: number } };
    parse: (o: unknown) => { url: string };
  };
};

/** One request's fixed parts: what it asks, where it is charged, the URL its ETag is kept under. */
interface Asked {
  endpoint: ReturnType<OctoRequest['endpoint']['merge']>;
  resource: Resource;
  /** GET requests only. */
  url: string | null;
}

/**
 * A failed attempt: the cached answer of a 304, `retry` after a rate limit (waited out by the pool), or a
 * thrown error (401s as errors that say what to do; anything else as it came).
 */
function failedAttempt(
  d: HookDeps,
  q: Asked,
  slot: Slot,
  e: unknown,
  cached: Awaited<ReturnType<EtagCache['get']>>,
): Answer | 'retry' {
  const err = e as ReqErr & { message?: string };
  const h = err.response?.headers;
  slot.release(h ?? null);
  if (err.status === 304 && cached) {
    d.counters.notModified++;
    d.etags.stats.hits++;
    d.pool.succeeded(slot.identity);
    return {
      status: 200,
      url: q.url,
      headers: { ...(h ?? {}), ...cached.headers },
      data: cached.data,
    } as Answer;
  }
  if (err.status === 401 && !slot.token && q.resource === 'graphql')
    throw new FaunError("GitHub's GraphQL API needs a token (401 without one)", {
      hint: 'set GITHUB_TOKEN (or GITHUB_TOKENS, --token, or a GitHub App) — pairing runs through GraphQL',
    });
  if (err.status === 401)
    throw new FaunError(`GitHub rejected ${slot.label} (401 Bad credentials)`, {
      hint: 'check the token in --token / GITHUB_TOKEN / GITHUB_TOKENS (it may be expired or revoked)',
    });
  const message = String(
    (err.response?.data as { message?: string } | undefined)?.message ?? err.message ?? '',
  );
  const { method, url } = q.endpoint;
  if ((err.status === 403 || err.status === 429) && /\bsecondary rate\b/i.test(message)) {
    d.counters.secondaryLimited++;
    const after = Number(h?.['retry-after']);
    const ms = d.pool.secondary(slot.identity, Number.isFinite(after) && after > 0 ? after : null);
    d.log(`secondary rate limit on ${method} ${url}; ${slot.identity} pauses ${Math.round(ms / 1000)} s`);
    return 'retry';
  }
  if ((err.status === 403 || err.status === 429) && String(h?.['x-ratelimit-remaining']) === '0') {
    d.counters.primaryLimited++;
    d.pool.exhausted(slot.identity, q.resource, resetMs(h, d.clock));
    d.log(`primary rate limit on ${method} ${url}; waiting for the reset`);
    return 'retry';
  }
  throw e;
}

/** A successful attempt: `retry` for a GraphQL rate-limit answer; else the budgets noted, the ETag kept. */
async function answeredAttempt(d: HookDeps, q: Asked, slot: Slot, res: Answer): Promise<Answer | 'retry'> {
  slot.release(res.headers);
  if (q.resource === 'graphql' && graphqlLimited(res.data)) {
    d.counters.primaryLimited++;
    d.pool.exhausted(slot.identity, 'graphql', resetMs(res.headers, d.clock));
    d.log(`GraphQL rate limit on ${q.endpoint.url}; waiting for the reset`);
    return 'retry';
  }
  d.pool.succeeded(slot.identity);
  const rl = (res.data as { data?: { rateLimit?: { remaining?: number; resetAt?: string } } } | null)?.data
    ?.rateLimit;
  if (q.resource === 'graphql' && rl?.resetAt)
    d.pool.graphqlObserved(slot.identity, Number(rl.remaining), rl.resetAt);
  const etag = res.headers.etag;
  if (q.url && res.status === 200 && typeof etag === 'string') {
    const keep: Record<string, string> = {};
    if (typeof res.headers.link === 'string') keep.link = res.headers.link;
    await d.etags.set(slot.identity, q.url, { etag, data: res.data, headers: keep });
  }
  return res;
}

/** The octokit auth strategy: every request goes through the token pool, the ETag cache and the limits. */
function poolAuthStrategy(d: HookDeps) {
  const hook = async (request: OctoRequest, route: unknown, parameters?: unknown) => {
    await d.identify();
    const endpoint = request.endpoint.merge(route, parameters);
    const resource: Resource = /\/graphql$/.test(endpoint.url) ? 'graphql' : 'core';
    const cost = resource === 'graphql' ? Math.max(1, Number(endpoint.request?.faunCost ?? 1)) : 1;
    const q: Asked = {
      endpoint,
      resource,
      url: endpoint.method === 'GET' ? request.endpoint.parse(endpoint).url : null,
    };
    for (;;) {
      const slot = await d.pool.acquire(resource, d.signal, cost);
      const headers: Record<string, string> = { ...endpoint.headers, 'x-github-api-version': API_VERSION };
      if (slot.token) headers.authorization = `token ${slot.token}`;
      const cached = q.url ? await d.etags.get(slot.identity, q.url) : undefined;
      if (cached) headers['if-none-match'] = cached.etag;
      let res: Answer;
      try {
        res = await request({ ...endpoint, headers });
      } catch (e) {
        const after = failedAttempt(d, q, slot, e, cached);
        if (after === 'retry') continue;
        return after;
      }
      const kept = await answeredAttempt(d, q, slot, res);
      if (kept !== 'retry') return kept;
    }
  };
  return () => Object.assign(async () => ({ type: 'pool' }), { hook });
}

/** Builds a crawl client. */
export function createClient(opts: ClientOptions): GitHubClient {
  const clock = opts.clock ?? realClock;
  const log = opts.log ?? (() => {});
  const pool = new TokenPool([...opts.tokens, ...(opts.sources ?? [])], clock, {
    onWait: opts.onWait,
    perIdentity: opts.perIdentity,
  });
  const etags = opts.etags ?? new MemoryEtagCache();
  const counters: ClientCounters = { notModified: 0, primaryLimited: 0, secondaryLimited: 0, aborted: 0 };
  const id = `faun-${process.pid}-${++clientSeq}`;
  const baseUrl = opts.baseUrl ?? 'https://api.github.com';
  let identified: Promise<void> | null = opts.identify === false ? Promise.resolve() : null;
  const identify = () => {
    identified ??= identifyTokens(pool, baseUrl, API_VERSION, opts.fetch, opts.signal);
    return identified;
  };
  const authStrategy = poolAuthStrategy({ pool, etags, counters, clock, log, identify, signal: opts.signal });

  const octokit = new CrawlOctokit({
    baseUrl,
    authStrategy,
    userAgent: 'faun-crawler',
    request: {
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.fetch ? { fetch: opts.fetch as unknown as typeof fetch } : {}),
    },
    log: { debug: () => {}, info: () => {}, warn: (m: string) => log(m), error: (m: string) => log(m) },
    retry: {
      retries: opts.retries ?? 5,
      doNotRetry: [400, 401, 403, 404, 410, 422, 429, 451],
      retryAfterBaseValue: 1000 / clock.scale,
    },
    throttle: {
      id,
      retryAfterBaseValue: 0,
      fallbackSecondaryRateRetryAfter: 60,
      // The pool governs concurrency per identity; Bottleneck only spaces GraphQL POSTs (1 s).
      global: new Bottleneck.Group({ maxConcurrent: 100 }),
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime: Math.ceil(1000 / clock.scale) }),
      onRateLimit: () => true,
      onSecondaryRateLimit: () => true,
    } as never,
  });

  return {
    octokit,
    pool,
    etags,
    clock,
    counters,
    sent: () => ({ ...pool.sent }),
    identify,
  };
}
