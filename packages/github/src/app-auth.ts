/**
 * GitHub App installation tokens as a {@link TokenProvider}, through octokit's `@octokit/auth-app`: it
 * signs a JWT with the App's private key, exchanges it for an installation token
 * (`POST /app/installations/{id}/access_tokens`) and caches and refreshes it before its hour runs
 * out. Each installation is its own identity with its own budget (up to 12,500 requests/h). The key
 * and ids come from the environment only.
 */
import { UsageError } from '@faun/kit';
import { Octokit } from '@octokit/core';
import type { TokenProvider, TokenSource } from './tokens.ts';

export interface AppAuthOptions {
  appId: number | string;
  privateKey: string;
  installationIds: number[];
  baseUrl?: string;
}

export function appTokens(o: AppAuthOptions): TokenProvider {
  return {
    sources: async (): Promise<TokenSource[]> => {
      // Loaded only when an App is configured (it pulls in JWT signing).
      const { createAppAuth } = await import('@octokit/auth-app');
      const request = new Octokit({ baseUrl: o.baseUrl ?? 'https://api.github.com' }).request;
      const auth = createAppAuth({ appId: o.appId, privateKey: o.privateKey, request });
      return o.installationIds.map((id) => ({
        label: `App installation ${id}`,
        identity: `installation:${id}`,
        token: async () =>
          ((await auth({ type: 'installation', installationId: id })) as { token: string }).token,
      }));
    },
  };
}

/**
 * `GITHUB_APP_ID`, `GITHUB_APP_PRIVATE_KEY` (PEM text, `\n` escapes allowed) or
 * `GITHUB_APP_PRIVATE_KEY_FILE`, and `GITHUB_APP_INSTALLATION_IDS` (comma-separated). Null when no App
 * is configured; a usage error when it is half configured.
 */
export async function appFromEnv(
  env: Record<string, string | undefined> = process.env,
  baseUrl?: string,
): Promise<TokenProvider | null> {
  const id = env.GITHUB_APP_ID?.trim();
  if (!id) return null;
  let key = env.GITHUB_APP_PRIVATE_KEY?.replace(/\\n/g, '\n');
  if (!key && env.GITHUB_APP_PRIVATE_KEY_FILE) key = await Bun.file(env.GITHUB_APP_PRIVATE_KEY_FILE).text();
  const ids = (env.GITHUB_APP_INSTALLATION_IDS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
  if (!key || !ids.length || ids.some((n) => !Number.isInteger(n) || n <= 0))
    throw new UsageError('GITHUB_APP_ID is set but the App is not fully configured', {
      hint: 'set GITHUB_APP_PRIVATE_KEY (or GITHUB_APP_PRIVATE_KEY_FILE) and GITHUB_APP_INSTALLATION_IDS=id1,id2',
    });
  return appTokens({ appId: id, privateKey: key, installationIds: ids, ...(baseUrl ? { baseUrl } : {}) });
}
