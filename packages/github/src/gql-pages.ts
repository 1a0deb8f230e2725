/**
 * Adaptive GraphQL paging. GitHub stops a query after 10 s (502 "We couldn't respond to your request
 * in time", or `RESOURCE_LIMITS_EXCEEDED` with `data.repository: null`), and since 2025-07-21 a timeout
 * is charged against the primary limit (GitHub changelog "Including timeouts in primary rate
 * limits"), so retrying the same big page is both slow and expensive (cli/cli and apache/devlake
 * reports of 502s on big repositories). Each stream therefore keeps its own page size: halved on a
 * timeout, 502/504 or resource-limit answer, grown back by half after {@link GROW_AFTER} good pages,
 * and stored with the cursor in the checkpoint, so a resumed stream continues at the smaller size.
 *
 * Other transient answers (500/503, "Something went wrong while executing your query") are retried at
 * the same size with (n+1)² s back-off, three times, then treated as a timeout. Partial answers with
 * `null` nodes (GitHub's partial data beside `errors`) are re-asked twice; nodes still `null` are
 * reported as gaps by the caller.
 */
import { FaunError } from '@faun/kit';
import type { CrawlOptions } from './crawler.ts';
import type { RepoMeta } from './repos.ts';

// biome-ignore lint/suspicious/noExplicitAny: GitHub JSON.
type Json = any;

export const GROW_AFTER = 8;
const TRANSIENT_TRIES = 3;
/** Partial answers with `null` nodes are asked again this many times before the nodes count as gaps. */
const NULL_RETRIES = 2;

/** A stream's position: GraphQL cursor, current page size, gaps seen so far. */
export interface PageState {
  after: string | null;
  first: number;
  ok: number;
  gaps: number;
}

/** Reads a checkpoint cursor (JSON state, or a bare GraphQL cursor from older checkpoints). */
export function decodeState(cursor: string | null | undefined, max: number): PageState {
  if (!cursor) return { after: null, first: max, ok: 0, gaps: 0 };
  try {
    const j = JSON.parse(cursor) as Partial<PageState>;
    if (j && typeof j === 'object' && 'first' in j)
      return {
        after: typeof j.after === 'string' ? j.after : null,
        first: Math.max(1, Math.min(max, Number(j.first) || max)),
        ok: 0,
        gaps: Number(j.gaps) || 0,
      };
  } catch {
    // a bare cursor
  }
  return { after: cursor, first: max, ok: 0, gaps: 0 };
}

export function encodeState(s: PageState): string {
  return JSON.stringify({ after: s.after, first: s.first, gaps: s.gaps });
}

/** GitHub's point cost of a page: (1 + first × nested connections) / 100, rounded, at least 1. */
export function pageCost(first: number, nested: number): number {
  return Math.max(1, Math.round((1 + first * nested) / 100));
}

type Failure = 'timeout' | 'transient' | 'fatal';

function classify(e: unknown): { kind: Failure; data?: Json; errors?: Json[] } {
  const err = e as {
    status?: number;
    errors?: Json[];
    data?: Json;
    message?: string;
    response?: { data?: Json };
  };
  const errors: Json[] | undefined = err.errors ?? err.response?.data?.errors;
  const text = `${err.message ?? ''} ${(errors ?? []).map((x) => x?.message ?? '').join(' ')}`;
  if ((errors ?? []).some((x) => x?.type === 'RESOURCE_LIMITS_EXCEEDED')) return { kind: 'timeout' };
  if (
    err.status === 502 ||
    err.status === 504 ||
    /couldn't respond to your request in time|timed? ?out/i.test(text)
  )
    return { kind: 'timeout' };
  if (
    err.status === 500 ||
    err.status === 503 ||
    /Something went wrong while executing your query/i.test(text)
  )
    return { kind: 'transient' };
  return { kind: 'fatal', data: err.data, errors };
}

/** Sends one GraphQL request with transient retries and no plugin-retry (so timeouts surface here). */
export async function gqlRequest(
  o: CrawlOptions,
  query: string,
  vars: Record<string, unknown>,
  cost: number,
  /** Small requests (one node) retry timeouts like other transient answers instead of throwing. */
  retryTimeouts = false,
): Promise<{ data: Json; errors: Json[] | null }> {
  for (let attempt = 0; ; attempt++) {
    try {
      const data = await o.client.octokit.graphql(query, {
        ...vars,
        // No abort signal: an answer GitHub has charged is never thrown away (the pool stops new sends).
        request: { retries: 0, faunCost: cost, signal: undefined },
      });
      return { data, errors: null };
    } catch (e) {
      const c = classify(e);
      if (c.kind === 'fatal' && c.errors && c.data) return { data: c.data, errors: c.errors };
      const tries = retryTimeouts ? TRANSIENT_TRIES + 3 : TRANSIENT_TRIES;
      if ((c.kind === 'transient' || (retryTimeouts && c.kind === 'timeout')) && attempt < tries) {
        await o.client.clock.sleep((attempt + 1) ** 2 * 1000, o.signal);
        continue;
      }
      throw Object.assign(e as object, { faunKind: c.kind === 'transient' ? 'timeout' : c.kind });
    }
  }
}

/**
 * One page of a paginated connection at the stream's adaptive size. `connection` picks it out of the
 * answer; `nested` is the number of nested connections per node (for the point cost).
 */
export async function adaptivePage(
  o: CrawlOptions,
  meta: RepoMeta,
  query: string,
  vars: Record<string, unknown>,
  state: PageState,
  max: number,
  nested: number,
  connection: (data: Json) => Json,
  log: (line: string) => void,
): Promise<{ conn: Json; errors: Json[] | null }> {
  let nullRetries = 0;
  let atOne = 0;
  for (;;) {
    let res: { data: Json; errors: Json[] | null };
    try {
      res = await gqlRequest(
        o,
        query,
        { ...vars, cursor: state.after, first: state.first },
        pageCost(state.first, nested),
      );
    } catch (e) {
      if ((e as { faunKind?: string }).faunKind !== 'timeout') throw wrap(e, meta);
      if (state.first === 1 && ++atOne > 5)
        throw new FaunError(`GraphQL pages of ${meta.full} keep timing out even at 1 node per page`, {
          cause: e,
        });
      const before = state.first;
      state.first = Math.max(1, Math.floor(state.first / 2));
      state.ok = 0;
      log(`GraphQL page of ${meta.full} timed out at ${before} nodes; retrying with ${state.first}`);
      continue;
    }
    const conn = connection(res.data);
    if (!conn) {
      if (res.errors?.some((x) => x?.type === 'NOT_FOUND'))
        throw new FaunError(`repository ${meta.full} not found through GraphQL`);
      throw new FaunError(
        `GraphQL answer for ${meta.full} has no data${res.errors ? `: ${res.errors.map((x) => x.message).join('; ')}` : ''}`,
      );
    }
    const hasNull = (conn.nodes ?? []).some((n: Json) => n === null);
    if (hasNull && nullRetries < NULL_RETRIES) {
      nullRetries++;
      continue;
    }
    if (++state.ok >= GROW_AFTER && state.first < max) {
      state.first = Math.min(max, Math.ceil(state.first * 1.5));
      state.ok = 0;
    }
    return { conn, errors: res.errors };
  }
}

function wrap(e: unknown, meta: RepoMeta): unknown {
  if (e instanceof FaunError) return e;
  const { errors } = e as { errors?: Json[] };
  if (!errors) return e;
  if (errors.some((x) => x.type === 'NOT_FOUND'))
    return new FaunError(`repository ${meta.full} not found through GraphQL`);
  return new FaunError(`GraphQL error for ${meta.full}: ${errors.map((x) => x.message).join('; ')}`, {
    cause: e,
  });
}
