/**
 * Several tokens, each with its own primary budgets (`core`, `graphql`) tracked from `x-ratelimit-*`
 * headers. {@link TokenPool.acquire} hands out the token with the most budget left and, when every
 * token is spent, waits (on the injected clock) until the earliest reset — it never sends a request
 * while all tokens are waiting. A secondary limit pauses the whole pool (one queue, spec §1.5 #629).
 */
import { FaunError } from '@faun/kit';
import type { Clock } from './clock.ts';

export type Resource = 'core' | 'graphql';

/** Where tokens come from. A GitHub App provider returns installation tokens and refreshes them. */
export interface TokenProvider {
  /** The tokens to use now (called once per crawl and again after a 401). */
  tokens(): Promise<string[]> | string[];
}

/** A fixed list of personal access tokens. */
export function staticTokens(tokens: string[]): TokenProvider {
  return { tokens: () => tokens };
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
  inflight: number;
}

interface TokenState {
  token: string | null;
  /** `token #1`… — how tokens appear in messages (never the value). */
  label: string;
  budgets: Record<Resource, Budget>;
}

export interface Slot {
  token: string | null;
  label: string;
  /** Records the answer's rate-limit headers (or none) and frees the slot. */
  release(headers: Record<string, string | number | undefined> | null): void;
}

export interface BudgetView {
  label: string;
  resource: Resource;
  remaining: number | null;
  limit: number | null;
  resetAt: number;
}

const fresh = (): Budget => ({ remaining: null, limit: null, reset: 0, inflight: 0 });

export class TokenPool {
  private readonly states: TokenState[];
  private pausedUntil = 0;
  /** Requests sent per resource (successful or not). */
  readonly sent: Record<Resource, number> = { core: 0, graphql: 0 };
  /** Clock time during which requests were held back for a reset or a pause (ms; overlaps counted once). */
  waitedMs = 0;
  private waitedUntil = 0;

  constructor(
    tokens: (string | null)[],
    private readonly clock: Clock,
    private readonly onWait?: (why: string, ms: number) => void,
  ) {
    const list = tokens.length ? tokens : [null];
    this.states = list.map((token, i) => ({
      token,
      label: token === null ? 'anonymous' : `token #${i + 1}`,
      budgets: { core: fresh(), graphql: fresh() },
    }));
  }

  get size(): number {
    return this.states.length;
  }

  /** Pauses every token until `until` (clock ms), e.g. after a secondary limit. */
  pause(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }

  /** Marks a token's budget spent until `resetMs` (a primary-limit answer). */
  exhausted(token: string | null, resource: Resource, resetMs: number): void {
    const s = this.states.find((x) => x.token === token);
    if (!s) return;
    s.budgets[resource].remaining = 0;
    s.budgets[resource].reset = Math.max(s.budgets[resource].reset, resetMs);
  }

  /** Waits for a token with budget for `resource`, reserves one request on it. */
  async acquire(resource: Resource, signal?: AbortSignal): Promise<Slot> {
    for (;;) {
      if (signal?.aborted) throw new FaunError('interrupted', { exitCode: 130 });
      const now = this.clock.now();
      if (this.pausedUntil > now) {
        await this.wait('secondary rate limit', this.pausedUntil - now, signal);
        continue;
      }
      let best: TokenState | null = null;
      let bestAvail = 0;
      let earliest = Number.POSITIVE_INFINITY;
      for (const s of this.states) {
        const b = s.budgets[resource];
        if (b.reset !== 0 && now >= b.reset) {
          b.remaining = null;
          b.reset = 0;
        }
        const avail = b.remaining === null ? Number.MAX_SAFE_INTEGER - b.inflight : b.remaining - b.inflight;
        if (avail > bestAvail) {
          best = s;
          bestAvail = avail;
        }
        if (avail <= 0 && b.reset > 0) earliest = Math.min(earliest, b.reset);
      }
      if (best) {
        const b = best.budgets[resource];
        b.inflight++;
        this.sent[resource]++;
        const state = best;
        let released = false;
        return {
          token: state.token,
          label: state.label,
          release: (headers) => {
            if (released) return;
            released = true;
            b.inflight--;
            if (headers) this.observe(state, headers);
          },
        };
      }
      const wait = Number.isFinite(earliest) ? earliest - now + 1000 : 1000;
      await this.wait('primary rate limit reset', wait, signal);
    }
  }

  private async wait(why: string, ms: number, signal?: AbortSignal): Promise<void> {
    this.onWait?.(why, ms);
    const start = this.clock.now();
    const end = start + ms;
    this.waitedMs += Math.max(0, end - Math.max(start, this.waitedUntil));
    this.waitedUntil = Math.max(this.waitedUntil, end);
    await this.clock.sleep(ms, signal);
  }

  private observe(s: TokenState, h: Record<string, string | number | undefined>): void {
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

  /** Current budgets, for the progress display. */
  view(): BudgetView[] {
    return this.states.flatMap((s) =>
      (['core', 'graphql'] as const).map((resource) => ({
        label: s.label,
        resource,
        remaining: s.budgets[resource].remaining,
        limit: s.budgets[resource].limit,
        resetAt: s.budgets[resource].reset,
      })),
    );
  }
}
