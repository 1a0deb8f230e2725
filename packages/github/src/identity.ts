/**
 * Who is behind each token: `GET /user` once per token (spec §1.4: budgets are per user). A 200 names
 * the user (`user:<login>`); an App installation token answers 403 "Resource not accessible by
 * integration" and, when its provider did not say which installation it is, all such tokens are
 * counted as one installation (`installation:?`) — the cautious reading of a shared budget. A token
 * that cannot be identified (another error) keeps its own identity.
 */
import type { TokenPool } from './tokens.ts';

export type FetchLike = (url: string, init: { headers: Record<string, string> }) => Promise<Response>;

export async function identifyTokens(
  pool: TokenPool,
  baseUrl: string,
  apiVersion: string,
  fetchImpl: FetchLike = (u, i) => fetch(u, i),
  signal?: AbortSignal,
): Promise<void> {
  for (const t of pool.unidentified()) {
    if (signal?.aborted) return;
    const token = await t.source.token();
    if (!token) continue;
    try {
      const res = await fetchImpl(`${baseUrl.replace(/\/$/, '')}/user`, {
        headers: {
          authorization: `token ${token}`,
          accept: 'application/vnd.github+json',
          'x-github-api-version': apiVersion,
          'user-agent': 'faun-crawler',
        },
      });
      if (res.status === 200) {
        const body = (await res.json()) as { login?: string };
        if (body.login) pool.setIdentity(t.index, `user:${body.login.toLowerCase()}`);
      } else if (res.status === 403) {
        const body = (await res.json().catch(() => ({}))) as { message?: string };
        if (/not accessible by integration/i.test(body.message ?? ''))
          pool.setIdentity(t.index, 'installation:?');
      } else await res.body?.cancel();
    } catch {
      // Unreachable /user: the token keeps its own identity (the crawl itself reports network errors).
    }
  }
}

/** What the identities mean for the crawl's duration (for the CLI). */
export function identitySummary(tokens: number, identities: string[]): string {
  const n = identities.length;
  const users = identities.filter((i) => i.startsWith('user:')).length;
  const apps = identities.filter((i) => i.startsWith('installation:')).length;
  const kinds = [
    users ? `${users} user${users > 1 ? 's' : ''}` : '',
    apps ? `${apps} App installation${apps > 1 ? 's' : ''}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const head = `${tokens} token${tokens === 1 ? '' : 's'}, ${n} distinct identit${n === 1 ? 'y' : 'ies'}${kinds ? ` (${kinds})` : ''}`;
  if (tokens > n)
    return `${head}: tokens of one account share its budget, so the ${tokens - n} extra token${tokens - n === 1 ? '' : 's'} do not shorten the crawl; expect about 1/${n} of one identity's time`;
  return `${head}: expect about 1/${n} of one identity's time${apps ? ' (an App installation has up to 12,500 requests/h against 5,000 for a user)' : ''}`;
}
