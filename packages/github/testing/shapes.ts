/** JSON shapes the fake serves, following GitHub's REST v3 (2022-11-28) field names. */
import { patchFor } from './code.ts';
import type { Corpus } from './corpus.ts';
import type { FakeComment, FakeEntry, FakeEvent, FakeRepo, FakeUser } from './corpus-types.ts';
import { fakeSha } from './rng.ts';

export function iso(sec: number): string {
  return new Date(sec * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * The account REST shows for deleted users: `ghost` (id 10137), a `User` object rather than `null`
 * (github.com/ghost; the GraphQL API answers `author: null` for the same accounts).
 */
export const GHOST_USER: FakeUser = { login: 'ghost', id: 10137, type: 'User' };

export function userJson(api: string, user: FakeUser | null): Record<string, unknown> {
  const u = user ?? GHOST_USER;
  const slug = u.login.replace(/\[bot\]$/, '');
  return {
    login: u.login,
    id: u.id,
    node_id: `U_${u.id}`,
    type: u.type,
    site_admin: false,
    url: `${api}/users/${encodeURIComponent(u.login)}`,
    html_url: u.type === 'Bot' ? `https://github.com/apps/${slug}` : `https://github.com/${u.login}`,
  };
}

const REACTIONS = {
  total_count: 0,
  '+1': 0,
  '-1': 0,
  laugh: 0,
  hooray: 0,
  confused: 0,
  heart: 0,
  rocket: 0,
  eyes: 0,
};

export function repoJson(api: string, repo: FakeRepo, hasIssues = true): Record<string, unknown> {
  return {
    has_issues: hasIssues,
    id: repo.id,
    node_id: `R_${repo.id}`,
    name: repo.name,
    full_name: repo.full,
    owner: { login: repo.owner, id: 9000, type: 'Organization' },
    private: false,
    html_url: `https://github.com/${repo.full}`,
    url: `${api}/repos/${repo.full}`,
    default_branch: repo.defaultBranch,
    language: {
      python: 'Python',
      java: 'Java',
      javascript: 'JavaScript',
      typescript: 'TypeScript',
      go: 'Go',
    }[repo.language],
    stargazers_count: 1000 + repo.index,
    created_at: iso(repo.createdAt),
  };
}

export function issueJson(api: string, repoFull: string, e: FakeEntry): Record<string, unknown> {
  const base = `${api}/repos/${repoFull}`;
  const out: Record<string, unknown> = {
    url: `${base}/issues/${e.number}`,
    repository_url: base,
    comments_url: `${base}/issues/${e.number}/comments`,
    events_url: `${base}/issues/${e.number}/events`,
    timeline_url: `${base}/issues/${e.number}/timeline`,
    html_url: `https://github.com/${repoFull}/${e.kind === 'pr' ? 'pull' : 'issues'}/${e.number}`,
    id: idOf(e),
    node_id: `${e.kind === 'pr' ? 'PR' : 'I'}_${idOf(e)}`,
    number: e.number,
    title: e.title,
    user: userJson(api, e.user),
    labels: e.labels.map((name) => ({ id: 1, name, color: 'd73a4a', default: true })),
    state: e.state,
    locked: e.locked,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: e.comments.length,
    created_at: iso(e.createdAt),
    updated_at: iso(e.updatedAt),
    closed_at: e.closedAt === null ? null : iso(e.closedAt),
    author_association: e.association,
    active_lock_reason: e.locked ? 'too heated' : null,
    body: e.body,
    reactions: { url: `${base}/issues/${e.number}/reactions`, ...REACTIONS },
    state_reason: e.stateReason,
    performed_via_github_app: null,
  };
  if (e.pull)
    out.pull_request = {
      url: `${base}/pulls/${e.number}`,
      html_url: `https://github.com/${repoFull}/pull/${e.number}`,
      diff_url: `https://github.com/${repoFull}/pull/${e.number}.diff`,
      patch_url: `https://github.com/${repoFull}/pull/${e.number}.patch`,
      merged_at: e.pull.mergedAt === null ? null : iso(e.pull.mergedAt),
    };
  return out;
}

function idOf(e: FakeEntry): number {
  const m = /(\d+)$/.exec(e.repo);
  return (Number(m?.[1] ?? 0) + 1) * 10_000_000 + e.number;
}

export function pullJson(api: string, repo: FakeRepo, e: FakeEntry): Record<string, unknown> {
  const p = e.pull;
  if (!p) throw new Error('not a PR');
  return {
    ...issueJson(api, repo.full, e),
    url: `${api}/repos/${repo.full}/pulls/${e.number}`,
    merged: p.merged,
    merged_at: p.mergedAt === null ? null : iso(p.mergedAt),
    merge_commit_sha: p.mergeSha,
    draft: false,
    mergeable: null,
    base: {
      ref: p.base,
      sha: repo.baseSha,
      repo: { full_name: repo.full, default_branch: repo.defaultBranch },
    },
    head: { ref: `fix-${e.number}`, sha: p.headSha, repo: { full_name: repo.full } },
    changed_files: p.edits.length,
    additions: p.edits.length,
    deletions: p.edits.length,
    commits: 1,
  };
}

export function prFilesJson(
  api: string,
  corpus: Corpus,
  repo: FakeRepo,
  e: FakeEntry,
): Record<string, unknown>[] {
  return (e.pull?.edits ?? []).map((edit) => {
    const before = corpus.file(repo, edit.path, repo.baseSha) ?? '';
    return {
      sha: fakeSha(`${repo.full}:${e.number}:${edit.path}`),
      filename: edit.path,
      status: 'modified',
      additions: 1,
      deletions: 1,
      changes: 2,
      blob_url: `https://github.com/${repo.full}/blob/${e.pull?.headSha}/${edit.path}`,
      raw_url: `https://github.com/${repo.full}/raw/${e.pull?.headSha}/${edit.path}`,
      contents_url: `${api}/repos/${repo.full}/contents/${edit.path}?ref=${e.pull?.headSha}`,
      patch: patchFor(before, edit),
    };
  });
}

export function commentJson(
  api: string,
  repoFull: string,
  n: number,
  c: FakeComment,
): Record<string, unknown> {
  return {
    id: c.id,
    node_id: `IC_${c.id}`,
    url: `${api}/repos/${repoFull}/issues/comments/${c.id}`,
    html_url: `https://github.com/${repoFull}/issues/${n}#issuecomment-${c.id}`,
    issue_url: `${api}/repos/${repoFull}/issues/${n}`,
    user: userJson(api, c.user),
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    author_association: c.association,
    body: c.body,
    reactions: REACTIONS,
    performed_via_github_app: null,
  };
}

export function eventJson(api: string, repoFull: string, ev: FakeEvent): Record<string, unknown> {
  return {
    id: ev.id,
    node_id: `E_${ev.id}`,
    url: `${api}/repos/${repoFull}/issues/events/${ev.id}`,
    actor: userJson(api, ev.actor),
    event: ev.event,
    commit_id: ev.commitId,
    commit_url: ev.commitId ? `${api}/repos/${repoFull}/commits/${ev.commitId}` : null,
    created_at: iso(ev.createdAt),
    ...(ev.label ? { label: { name: ev.label, color: 'd73a4a' } } : {}),
    performed_via_github_app: null,
  };
}

/** Timeline: events, comments and cross-references in time order. */
export function timelineJson(
  api: string,
  corpus: Corpus,
  repo: FakeRepo,
  e: FakeEntry,
): Record<string, unknown>[] {
  const items: [number, Record<string, unknown>][] = [];
  for (const ev of e.events) items.push([ev.createdAt, eventJson(api, repo.full, ev)]);
  for (const c of e.comments)
    items.push([c.createdAt, { event: 'commented', ...commentJson(api, repo.full, e.number, c) }]);
  for (const x of e.crossrefs) {
    const src = corpus.entry(repo, x.sourceNumber);
    if (!src) continue;
    items.push([
      x.at,
      {
        event: 'cross-referenced',
        actor: userJson(api, src.user),
        created_at: iso(x.at),
        updated_at: iso(x.at),
        source: { type: 'issue', issue: issueJson(api, repo.full, src) },
      },
    ]);
  }
  return items.sort((a, b) => a[0] - b[0]).map((x) => x[1]);
}
