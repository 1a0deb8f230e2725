/**
 * Who is behind a token, as the fake GitHub sees it. Primary budgets belong to the identity, not the
 * token: "5,000 requests per hour per user" for personal access tokens, so several tokens of one
 * account share one budget; a GitHub App installation has its own, 5,000 plus 50 per repository and
 * per user above 20, up to 12,500 (docs "Rate limits for the REST API", "Primary rate limit for GitHub
 * App installations"; the GraphQL docs give installations the same points). `GET /user` tells users
 * apart; an installation token answers it 403 "Resource not accessible by integration".
 *
 * The App flow is octokit's `@octokit/auth-app`: a JWT signed with the App's key, then
 * `POST /app/installations/{id}/access_tokens` → an hour-long installation token.
 */

export type Owner = string | { installation: number };

export interface FakeApp {
  id: number;
  installations: number[];
}

export interface Identity {
  /** `user:<login>`, `installation:<id>` or `anonymous`. */
  key: string;
  kind: 'user' | 'installation' | 'anonymous';
  login?: string;
  userId?: number;
  installation?: number;
}

export const INSTALLATION_LIMIT = 12_500;

export class Identities {
  private readonly minted = new Map<string, { installation: number; expires: number }>();
  private seq = 0;
  constructor(
    private readonly tokens: string[],
    private readonly owners: Record<string, Owner>,
    readonly app: FakeApp | null,
  ) {}

  /** Every token is valid if listed or minted (and unexpired); `null` = anonymous. */
  valid(token: string | null, now: number): boolean {
    if (token === null) return true;
    if (this.tokens.includes(token)) return true;
    const m = this.minted.get(token);
    return m !== undefined && m.expires > Date.now() && now >= 0;
  }

  of(token: string | null): Identity {
    if (token === null) return { key: 'anonymous', kind: 'anonymous' };
    const m = this.minted.get(token);
    const owner: Owner = m
      ? { installation: m.installation }
      : (this.owners[token] ?? defaultLogin(this.tokens, token));
    if (typeof owner === 'string')
      return { key: `user:${owner}`, kind: 'user', login: owner, userId: userIdOf(owner) };
    return {
      key: `installation:${owner.installation}`,
      kind: 'installation',
      installation: owner.installation,
    };
  }

  /** Whether `authorization: bearer <jwt>` is a JWT issued for this App (`iss` = App id; not verified). */
  isAppJwt(auth: string | null): boolean {
    if (!this.app || !auth) return false;
    const jwt = auth.replace(/^bearer\s+/i, '');
    const parts = jwt.split('.');
    if (parts.length !== 3) return false;
    try {
      const payload = JSON.parse(Buffer.from(parts[1] ?? '', 'base64url').toString()) as { iss?: unknown };
      return String(payload.iss) === String(this.app.id);
    } catch {
      return false;
    }
  }

  /**
   * Mints an installation token valid for one hour of wall-clock time: the App client
   * (`@octokit/auth-app`) refreshes by the real clock, whatever clock the fake's budgets run on.
   */
  mint(installation: number, _now: number): { token: string; expires_at: string } | null {
    if (!this.app?.installations.includes(installation)) return null;
    const token = `ghs_fake${installation}x${++this.seq}`;
    const expires = Date.now() + 3600_000;
    this.minted.set(token, { installation, expires });
    return { token, expires_at: new Date(expires).toISOString().replace(/\.\d{3}Z$/, 'Z') };
  }
}

function defaultLogin(tokens: string[], token: string): string {
  const i = tokens.indexOf(token);
  return `fake-user-${i < 0 ? token : i}`;
}

function userIdOf(login: string): number {
  let h = 0;
  for (const c of login) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return 1_000_000 + (h % 1_000_000);
}
