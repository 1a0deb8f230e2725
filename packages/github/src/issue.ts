/** Single-issue lookups with GitHub's special answers: 301 (transferred), 410 (deleted), 404. */
import type { RawEntry } from '@faun/schema';
import type { GitHubClient } from './client.ts';
import { entryFromRest } from './records.ts';

export type IssueLookup =
  | { kind: 'ok'; entry: RawEntry }
  | { kind: 'transferred'; entry: RawEntry; to: string }
  | { kind: 'deleted' }
  | { kind: 'missing' };

/**
 * `GET /repos/{o}/{r}/issues/{n}`. fetch follows a 301 silently, so a transfer shows as an answer whose
 * `repository_url` names another repository; the entry is then recorded under the asked repo with
 * `transferred_to`.
 */
export async function fetchIssue(
  client: GitHubClient,
  repo: string,
  number: number,
  defaultBranch: string | null = null,
): Promise<IssueLookup> {
  const [owner, name] = repo.split('/') as [string, string];
  try {
    const res = await client.octokit.request('GET /repos/{owner}/{repo}/issues/{issue_number}', {
      owner,
      repo: name,
      issue_number: number,
    });
    const data = res.data as { repository_url?: string; number: number };
    const at = /\/repos\/([^/]+\/[^/]+)$/.exec(data.repository_url ?? '')?.[1] ?? repo;
    const entry = entryFromRest(data, repo, defaultBranch);
    if (at.toLowerCase() !== repo.toLowerCase())
      return {
        kind: 'transferred',
        entry: { ...entry, number, transferred_to: `${at}#${data.number}` },
        to: at,
      };
    return { kind: 'ok', entry };
  } catch (e) {
    const status = (e as { status?: number }).status;
    if (status === 410) return { kind: 'deleted' };
    if (status === 404) return { kind: 'missing' };
    throw e;
  }
}
