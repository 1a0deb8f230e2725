/** Parsing the `--repos` argument and resolving repositories (default branch, renames) before a crawl. */
import { existsSync, readFileSync } from 'node:fs';
import { FaunError, InputError, UsageError } from '@faun/kit';
import type { GitHubClient } from './client.ts';

const NAME = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

/**
 * `owner/repo,owner/repo` or a file with one `owner/repo` per line (`#` comments and blank lines
 * allowed; a GitHub URL is accepted too). Errors name the file and line.
 */
export function parseRepos(arg: string): string[] {
  const fromFile = existsSync(arg);
  if (!fromFile && !arg.includes('/'))
    throw new UsageError(`--repos "${arg}" is neither a file nor a list of owner/repo names`, {
      hint: 'pass e.g. --repos pallets/flask,psf/requests or --repos repos.txt',
    });
  const lines = fromFile ? readFileSync(arg, 'utf8').split('\n') : arg.split(',');
  const out: string[] = [];
  lines.forEach((raw, i) => {
    const line = raw
      .replace(/#.*$/, '')
      .trim()
      .replace(/^https?:\/\/github\.com\//, '')
      .replace(/\.git$|\/$/g, '');
    if (!line) return;
    if (!NAME.test(line)) {
      const where = fromFile ? `${arg}:${i + 1}` : `--repos item ${i + 1}`;
      const msg = `${where}: "${raw.trim()}" is not an owner/repo name`;
      throw fromFile ? new InputError(msg, { hint: 'one owner/repo per line' }) : new UsageError(msg);
    }
    if (!out.includes(line)) out.push(line);
  });
  if (!out.length)
    throw new UsageError(`--repos ${fromFile ? `file ${arg}` : `"${arg}"`} names no repository`);
  return out;
}

export interface RepoMeta {
  /** The name asked for. */
  requested: string;
  /** `full_name` as GitHub answers it (differs after a rename). */
  full: string;
  defaultBranch: string;
  renamed: boolean;
  language?: string | null;
  stars?: number | null;
  githubId?: number | null;
  /** `has_issues` (false: the issue endpoints answer 410). */
  hasIssues?: boolean;
}

/** `GET /repos/{o}/{r}` for each repository; a 404 or 401 fails with a clear error before any write. */
export async function resolveRepos(client: GitHubClient, repos: string[]): Promise<RepoMeta[]> {
  const out: RepoMeta[] = [];
  for (const requested of repos) {
    const [owner, repo] = requested.split('/') as [string, string];
    try {
      const res = await client.octokit.request('GET /repos/{owner}/{repo}', { owner, repo });
      const data = res.data as { full_name: string; default_branch: string; has_issues?: boolean };
      out.push({
        requested,
        full: data.full_name,
        defaultBranch: data.default_branch,
        renamed: data.full_name.toLowerCase() !== requested.toLowerCase(),
        ...(data.has_issues === false ? { hasIssues: false } : {}),
      });
    } catch (e) {
      const status = (e as { status?: number }).status;
      if (status === 404)
        throw new InputError(`repository ${requested} not found (404)`, {
          hint: 'check the spelling; private repositories need a token with access',
        });
      if (e instanceof FaunError) throw e;
      throw new FaunError(`could not read repository ${requested}: ${(e as Error).message}`, { cause: e });
    }
  }
  return out;
}
