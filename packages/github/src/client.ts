/**
 * The octokit client configured for long crawls (spec §1.5): core + paginate-rest + retry + throttling,
 * `X-GitHub-Api-Version: 2022-11-28`, several tokens behind a {@link TokenPool}, an ETag cache as the
 * outermost `request` hook, and every wait on an injectable {@link Clock}.
 *
 * - Primary limit: always retried; the pool waits until the token's (or the earliest) reset.
 * - Secondary limit: retried at most `maxSecondaryRetries` times; the whole pool pauses for
 *   `retry-after` (or 60 s) × 2^attempt.
 * - 429 is in plugin-retry's `doNotRetry`, so only throttling handles it (no double retry).
 * - 5xx and GraphQL "Something went wrong" are retried by plugin-retry with (n+1)² s back-off.
 */
import { FaunError } from '@faun/kit';
import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck';
import { type Clock, realClock } from './clock.ts';
import { type EtagCache, MemoryEtagCache } from './etag.ts';
import { type Resource, TokenPool } from './tokens.ts';

export const API_VERSION = '2022-11-28';

const CrawlOctokit = Octokit.plugin(paginateRest, retry, throttling);
export type CrawlOctokit = InstanceType<typeof CrawlOctokit>;

export interface ClientOptions {
  /** REST base URL (default https://api.github.com; a GHE `/api/v3` URL or the fake). */
  baseUrl?: string;
  /** Tokens (never logged); empty = unauthenticated. */
  tokens: string[];
  clock?: Clock;
  etags?: EtagCache;
  /** Secondary-limit retries per request (default 6). */
  maxSecondaryRetries?: number;
  /** 5xx retries per request (default 5). */
  retries?: number;
  /** Concurrent requests per client (default 10). */
  maxConcurrent?: number;
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
}

export interface GitHubClient {
  octokit: CrawlOctokit;
  pool: TokenPool;
  etags: EtagCache;
  clock: Clock;
  counters: ClientCounters;
  /** Requests sent (all attempts), per resource. */
  sent(): Record<Resource, number>;
}

let clientSeq = 0;

type Hdrs = Record<string, string | number | undefined>;
interface ReqErr {
  status?: number;
  response?: { headers?: Hdrs; data?: unknown };
}

/** Builds a crawl client. */
export function createClient(opts: ClientOptions): GitHubClient {
  const clock = opts.clock ?? realClock;
  const log = opts.log ?? (() => {});
  const pool = new TokenPool(opts.tokens, clock, opts.onWait);
  const etags = opts.etags ?? new MemoryEtagCache();
  const counters: ClientCounters = { notModified: 0, primaryLimited: 0, secondaryLimited: 0 };
  const id = `faun-${process.pid}-${++clientSeq}`;
  const maxSecondary = opts.maxSecondaryRetries ?? 6;

  const authStrategy = () => {
    const hook = async (
      request: ((o: unknown) => Promise<{ headers: Hdrs }>) & {
        endpoint: { merge: (r: unknown, p?: unknown) => { url: string; headers: Record<string, string> } };
      },
      route: unknown,
      parameters?: unknown,
    ) => {
      const endpoint = request.endpoint.merge(route, parameters);
      const resource: Resource = /\/graphql$/.test(endpoint.url) ? 'graphql' : 'core';
      const slot = await pool.acquire(resource, opts.signal);
      if (slot.token) endpoint.headers.authorization = `token ${slot.token}`;
      endpoint.headers['x-github-api-version'] = API_VERSION;
      try {
        const res = await request(endpoint);
        slot.release(res.headers);
        return res;
      } catch (e) {
        const err = e as ReqErr;
        slot.release(err.response?.headers ?? null);
        if (err.status === 401)
          throw new FaunError(`GitHub rejected ${slot.label} (401 Bad credentials)`, {
            hint: 'check the token in --token / GITHUB_TOKEN / GITHUB_TOKENS (it may be expired or revoked)',
          });
        throw e;
      }
    };
    return Object.assign(async () => ({ type: 'pool' }), { hook });
  };

  const octokit = new CrawlOctokit({
    baseUrl: opts.baseUrl ?? 'https://api.github.com',
    authStrategy,
    userAgent: 'faun-crawler',
    request: opts.signal ? { signal: opts.signal } : {},
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
      global: new Bottleneck.Group({ maxConcurrent: opts.maxConcurrent ?? 10 }),
      write: new Bottleneck.Group({ maxConcurrent: 1, minTime: Math.ceil(1000 / clock.scale) }),
      onRateLimit: (_after: number, options: { method: string; url: string }) => {
        counters.primaryLimited++;
        log(`primary rate limit on ${options.method} ${options.url}; waiting for the reset`);
        return true;
      },
      onSecondaryRateLimit: (
        after: number,
        options: { method: string; url: string },
        _o: unknown,
        retryCount: number,
      ) => {
        counters.secondaryLimited++;
        if (retryCount >= maxSecondary) {
          log(
            `secondary rate limit on ${options.method} ${options.url}: giving up after ${retryCount} retries`,
          );
          return false;
        }
        const ms = after * 1000 * 2 ** retryCount;
        log(`secondary rate limit on ${options.method} ${options.url}; pausing ${Math.round(ms / 1000)} s`);
        pool.pause(clock.now() + ms);
        return true;
      },
    } as never,
  });

  octokit.hook.wrap('request', async (request, options) => {
    if (options.method !== 'GET') return request(options);
    const key = octokit.request.endpoint.parse(options as never).url;
    const cached = etags.get(key);
    if (cached) options.headers = { ...options.headers, 'if-none-match': cached.etag };
    try {
      const res = await request(options);
      const etag = res.headers.etag;
      if (res.status === 200 && typeof etag === 'string') {
        const headers: Record<string, string> = {};
        if (typeof res.headers.link === 'string') headers.link = res.headers.link;
        etags.set(key, { etag, data: res.data, headers });
      }
      return res;
    } catch (e) {
      const err = e as ReqErr;
      if (err.status === 304 && cached) {
        counters.notModified++;
        etags.stats.hits++;
        return {
          status: 200,
          url: key,
          headers: { ...(err.response?.headers ?? {}), ...cached.headers },
          data: cached.data,
        } as never;
      }
      throw e;
    }
  });

  return { octokit, pool, etags, clock, counters, sent: () => ({ ...pool.sent }) };
}
