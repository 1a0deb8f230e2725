/**
 * Tokens grouped by the identity behind them. GitHub's primary budgets belong to the user (all of one
 * account's personal access tokens share 5,000 requests/h and 5,000 GraphQL points/h) or to an App
 * installation (up to 12,500/h), so budgets, pauses and the concurrency governor are kept per
 * identity, not per token (spec §1.4; docs "Rate limits for the REST API").
 *
 * {@link TokenPool.acquire} hands out a token of an identity whose lane is free, whose budget covers
 * the request, and which has used the least of its hourly limit so far, and, when every identity is spent or paused, waits (on the injected clock) until the earliest
 * reset or pause end — it never sends a request while all are waiting.
 *
 * The governor (docs "Best practices for using the REST API": "make requests serially instead of
 * concurrently"; secondary limits on concurrency, points per minute and CPU time):
 * - `perIdentity` requests in flight per identity (default 1: serial);
 * - at most 800 REST requests and 1,800 GraphQL points per identity per minute (under 900 / 2,000);
 * - measured response time as the CPU-time proxy (the docs' own estimate): when an identity's response
 *   times over the last minute pass 60 s (40 s for GraphQL) its lane count drops back to 1;
 * - a secondary limit pauses only the identity that was hit, for `retry-after` or 60 s × 2^n, and the
 *   request is retried (never abandoned while budget remains).
 * GraphQL requests carry their expected point cost, and an identity is only chosen when its remaining
 * points (from `x-ratelimit-*` and `rateLimit{cost remaining resetAt}`) cover it.
 */
import { FaunError } from '@faun/kit';
import type { Clock } from './clock.ts';

export type Resource = 'core' | 'graphql';

/** One credential: a fixed token or a refreshing one (an App installation token). */
export interface TokenSource {
  /** How the token appears in messages (never its value). */
  label: string;
  /** The token to send now (App installation tokens are refreshed by the provider). */
  token(): string | Promise<string>;
  /** The identity, when the provider knows it (an installation); otherwise `GET /user` decides. */
  identity?: string;
}

/** Where tokens come from: personal access tokens, or a GitHub App's installations (app-auth.ts). */
export interface TokenProvider {
  sources(): Promise<TokenSource[]> | TokenSource[];
}

/** A fixed list of personal access tokens. */
export function staticTokens(tokens: string[]): TokenProvider {
  return { sources: () => tokens.map((t, i) => ({ label: `token #${i + 1}`, token: () => t })) };
}

/** Tokens from `--token` values, `GITHUB_TOKENS` (comma-separated) and `GITHUB_TOKEN`, de-duplicated. */
export function tokensFromEnv(
  flags: string[] = [],
  env: Record<string, string | undefined> = process.env,
): string[] {
  const all = [...flags, ...(env.GITHUB_TOKENS ?? '').split(','), env.GITHUB_TOKEN ?? ''];
  return [...new Set(all.map((t) => t.trim()).filter(Boolean))];
}

interface Budget {
  remaining: number | null;
  limit: number | null;
  /** Epoch ms; 0 = unknown. */
  reset: number;
  /** Requests (core) or expected points (graphql) reserved by requests in flight. */
  reserved: number;
}

interface IdentityState {
  key: string;
  budgets: Record<Resource, Budget>;
  inflight: number;
  lanes: number;
  pausedUntil: number;
  /** Consecutive secondary limits (reset by a success). */
  strikes: number;
  /** Requests (core) and points (graphql) sent over the crawl. */
  used: Record<Resource, number>;
  /** Clock-time samples of the last minute: sends (core count / graphql points) and response times. */
  recent: { at: number; resource: Resource; points: number; responseMs: number }[];
}

interface TokenState {
  source: TokenSource;
  label: string;
  identity: IdentityState;
}

export interface Slot {
  token: string | null;
  label: string;
  identity: string;
  /** Records the answer's rate-limit headers (or none) and frees the slot. */
  release(headers: Record<string, string | number | undefined> | null): void;
}

export interface BudgetView {
  label: string;
  identity: string;
  resource: Resource;
  remaining: number | null;
  limit: number | null;
  resetAt: number;
}

export interface PoolOptions {
  /** Requests in flight per identity (default 1). */
  perIdentity?: number;
  onWait?: (why: string, ms: number) => void;
}

const fresh = (): Budget => ({ remaining: null, limit: null, reset: 0, reserved: 0 });
const MINUTE = 60_000;
const REST_PER_MINUTE = 800;
const GRAPHQL_POINTS_PER_MINUTE = 1_800;
const CPU_PROXY_MS: Record<Resource, number> = { core: 60_000, graphql: 40_000 };

export class TokenPool {
  private readonly states: TokenState[];
  private readonly byKey = new Map<string, IdentityState>();
  /** Requests sent per resource (successful or not). */
  readonly sent: Record<Resource, number> = { core: 0, graphql: 0 };
  /** Secondary-limit pauses per identity. */
  readonly pauses = new Map<string, number>();
  /** Clock time during which requests were held back for a reset or a pause (ms; overlaps counted once). */
  waitedMs = 0;
  private waitedUntil = 0;
  private waiters: (() => void)[] = [];
  private readonly perIdentity: number;
  private readonly onWait?: (why: string, ms: number) => void;

  constructor(
    tokens: (string | null | TokenSource)[],
    private readonly clock: Clock,
    opts: PoolOptions | ((why: string, ms: number) => void) = {},
  ) {
    const o = typeof opts === 'function' ? { onWait: opts } : opts;
    this.onWait = o.onWait;
    this.perIdentity = Math.max(1, o.perIdentity ?? 1);
    const list = tokens.length ? tokens : [null];
    this.states = list.map((t, i) => {
      const source: TokenSource =
        t === null
          ? { label: 'anonymous', token: () => '' }
          : typeof t === 'string'
            ? { label: `token #${i + 1}`, token: () => t }
            : t;
      const key = source.identity ?? (t === null ? 'anonymous' : `token:${i + 1}`);
      return { source, label: source.label, identity: this.identityOf(key) };
    });
  }

  private identityOf(key: string): IdentityState {
    let s = this.byKey.get(key);
    if (!s) {
      s = {
        key,
        budgets: { core: fresh(), graphql: fresh() },
        inflight: 0,
        lanes: this.perIdentity,
        pausedUntil: 0,
        strikes: 0,
        used: { core: 0, graphql: 0 },
        recent: [],
      };
      this.byKey.set(key, s);
    }
    return s;
  }

  get size(): number {
    return this.states.length;
  }

  /** Distinct identities behind the tokens. */
  identities(): string[] {
    return [...new Set(this.states.map((s) => s.identity.key))];
  }

  /** The tokens (labels and current values) whose identity is still unknown. */
  unidentified(): { index: number; label: string; source: TokenSource }[] {
    return this.states
      .map((s, index) => ({ index, label: s.label, source: s.source, key: s.identity.key }))
      .filter((s) => s.key.startsWith('token:'));
  }

  /** Records who is behind token `index` (tokens of one identity then share budgets and lanes). */
  setIdentity(index: number, key: string): void {
    const s = this.states[index];
    if (!s || s.identity.key === key) return;
    const old = s.identity;
    const next = this.identityOf(key);
    for (const r of ['core', 'graphql'] as const) {
      const a = old.budgets[r];
      const b = next.budgets[r];
      if (a.reset > b.reset) Object.assign(b, { remaining: a.remaining, limit: a.limit, reset: a.reset });
    }
    s.identity = next;
    if (!this.states.some((x) => x.identity === old)) this.byKey.delete(old.key);
  }

  /** Pauses every identity until `until` (clock ms). */
  pause(until: number): void {
    for (const s of this.byKey.values()) s.pausedUntil = Math.max(s.pausedUntil, until);
  }

  /**
   * A secondary limit hit `identity`: pause it for `retryAfter` seconds, or 60 s × 2^strikes (capped
   * at 16 min) without the header. Returns the pause in ms.
   */
  secondary(identity: string, retryAfter: number | null): number {
    const s = this.byKey.get(identity);
    if (!s) return 0;
    const ms = retryAfter !== null ? retryAfter * 1000 : 60_000 * 2 ** Math.min(s.strikes, 4);
    s.strikes++;
    s.lanes = 1;
    s.pausedUntil = Math.max(s.pausedUntil, this.clock.now() + ms);
    this.pauses.set(identity, (this.pauses.get(identity) ?? 0) + 1);
    return ms;
  }

  /** Marks an identity's budget spent until `resetMs` (a primary-limit answer). */
  exhausted(identity: string, resource: Resource, resetMs: number): void {
    const s = this.byKey.get(identity);
    if (!s) return;
    s.budgets[resource].remaining = 0;
    s.budgets[resource].reset = Math.max(s.budgets[resource].reset, resetMs);
  }

  /** GraphQL `rateLimit{cost remaining resetAt}` of an answer. */
  graphqlObserved(identity: string, remaining: number, resetAt: string): void {
    const s = this.byKey.get(identity);
    const reset = Date.parse(resetAt);
    if (!s || !Number.isFinite(remaining) || !Number.isFinite(reset)) return;
    const b = s.budgets.graphql;
    if (reset > b.reset) Object.assign(b, { reset, remaining });
    else if (reset === b.reset)
      b.remaining = b.remaining === null ? remaining : Math.min(b.remaining, remaining);
  }

  private minuteOf(
    s: IdentityState,
    now: number,
  ): { core: number; graphql: number; rt: Record<Resource, number> } {
    while (s.recent.length && (s.recent[0]?.at ?? 0) <= now - MINUTE) s.recent.shift();
    const out = { core: 0, graphql: 0, rt: { core: 0, graphql: 0 } };
    for (const x of s.recent) {
      out[x.resource] += x.points;
      out.rt[x.resource] += x.responseMs;
    }
    return out;
  }

  /**
   * Waits for an identity with budget for `resource` (and `cost` GraphQL points) and a free lane;
   * reserves the request on it.
   */
  async acquire(resource: Resource, signal?: AbortSignal, cost = 1): Promise<Slot> {
    for (;;) {
      if (signal?.aborted) throw new FaunError('interrupted', { exitCode: 130 });
      const now = this.clock.now();
      let best: TokenState | null = null;
      let bestShare = Number.POSITIVE_INFINITY;
      let earliest = Number.POSITIVE_INFINITY;
      let why = 'primary rate limit reset';
      let laneBusy = false;
      const counted = new Set<IdentityState>();
      for (const t of this.states) {
        const s = t.identity;
        const b = s.budgets[resource];
        if (b.reset !== 0 && now >= b.reset) {
          b.remaining = null;
          b.reset = 0;
        }
        if (s.pausedUntil > now) {
          if (s.pausedUntil < earliest) {
            earliest = s.pausedUntil;
            why = 'secondary rate limit';
          }
          continue;
        }
        const m = this.minuteOf(s, now);
        const perMinute = resource === 'core' ? REST_PER_MINUTE : GRAPHQL_POINTS_PER_MINUTE;
        if (m[resource] + cost > perMinute) {
          const first = s.recent.find((x) => x.resource === resource);
          const until = (first?.at ?? now) + MINUTE;
          if (until < earliest) {
            earliest = until;
            why = 'points per minute';
          }
          continue;
        }
        if (s.lanes > 1 && m.rt[resource] > CPU_PROXY_MS[resource]) s.lanes = 1;
        if (s.inflight >= s.lanes) {
          laneBusy = true;
          continue;
        }
        const avail = b.remaining === null ? Number.MAX_SAFE_INTEGER - b.reserved : b.remaining - b.reserved;
        // Among identities that can pay, the one that has used the least of its hourly limit so far
        // (so work spreads over identities in proportion to their budgets).
        const share = s.used[resource] / (b.limit ?? 5000);
        if (avail >= cost && share < bestShare && !counted.has(s)) {
          best = t;
          bestShare = share;
        }
        counted.add(s);
        if (avail < cost && b.reset > 0 && b.reset < earliest) {
          earliest = b.reset;
          why = 'primary rate limit reset';
        }
      }
      if (best) return this.reserve(best, resource, cost);
      if (laneBusy) {
        await new Promise<void>((resolve) => this.waiters.push(resolve));
        continue;
      }
      const wait = Number.isFinite(earliest)
        ? earliest - now + (why === 'primary rate limit reset' ? 1000 : 0)
        : 1000;
      await this.wait(why, Math.max(1, wait), signal);
    }
  }

  private async reserve(t: TokenState, resource: Resource, cost: number): Promise<Slot> {
    const s = t.identity;
    const b = s.budgets[resource];
    s.inflight++;
    s.used[resource] += cost;
    b.reserved += cost;
    this.sent[resource]++;
    const started = this.clock.now();
    let released = false;
    let token: string;
    try {
      token = await t.source.token();
    } catch (e) {
      s.inflight--;
      b.reserved -= cost;
      this.wake();
      throw e;
    }
    return {
      token: token || null,
      label: t.label,
      identity: s.key,
      release: (headers) => {
        if (released) return;
        released = true;
        s.inflight--;
        b.reserved -= cost;
        const now = this.clock.now();
        s.recent.push({ at: now, resource, points: cost, responseMs: now - started });
        if (headers) this.observe(s, headers);
        this.wake();
      },
    };
  }

  /** A success on `identity` clears its secondary-limit strikes. */
  succeeded(identity: string): void {
    const s = this.byKey.get(identity);
    if (s) s.strikes = 0;
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private async wait(why: string, ms: number, signal?: AbortSignal): Promise<void> {
    this.onWait?.(why, ms);
    const start = this.clock.now();
    const end = start + ms;
    this.waitedMs += Math.max(0, end - Math.max(start, this.waitedUntil));
    this.waitedUntil = Math.max(this.waitedUntil, end);
    await this.clock.sleep(ms, signal);
  }

  private observe(s: IdentityState, h: Record<string, string | number | undefined>): void {
    const res = (String(h['x-ratelimit-resource'] ?? '') || null) as Resource | null;
    if (res !== 'core' && res !== 'graphql') return;
    const remaining = Number(h['x-ratelimit-remaining']);
    const reset = Number(h['x-ratelimit-reset']) * 1000;
    const limit = Number(h['x-ratelimit-limit']);
    if (!Number.isFinite(remaining) || !Number.isFinite(reset)) return;
    const b = s.budgets[res];
    if (Number.isFinite(limit)) b.limit = limit;
    if (reset > b.reset) {
      b.reset = reset;
      b.remaining = remaining;
    } else if (reset === b.reset)
      b.remaining = b.remaining === null ? remaining : Math.min(b.remaining, remaining);
  }

  /** Current budgets per identity, for the progress display. */
  view(): BudgetView[] {
    return [...this.byKey.values()].flatMap((s) =>
      (['core', 'graphql'] as const).map((resource) => ({
        label: this.states
          .filter((t) => t.identity === s)
          .map((t) => t.label)
          .join('+'),
        identity: s.key,
        resource,
        remaining: s.budgets[resource].remaining,
        limit: s.budgets[resource].limit,
        resetAt: s.budgets[resource].reset,
      })),
    );
  }

  /** The primary limits known per identity (from headers), for ETA estimates. */
  limits(resource: Resource): Map<string, number | null> {
    return new Map([...this.byKey.values()].map((s) => [s.key, s.budgets[resource].limit]));
  }
}
