/** Pure mappings from GitHub answers (REST and GraphQL) to the records in @faun/schema. */
import type { Actor, Comment, CrossRef, IssueEvent, PrFile, PullInfo, RawEntry } from '@faun/schema';

// biome-ignore lint/suspicious/noExplicitAny: GitHub JSON is read field by field.
type Json = any;

/**
 * GitHub's stand-in for deleted accounts: REST answers the `ghost` user (id 10137) where GraphQL answers
 * `null`. Both become `null`, the one deleted-user marker, so every deleted account is not merged into
 * one human named "ghost" (curation leaves `null` out of participant counts).
 */
export const GHOST_LOGIN = 'ghost';
export const GHOST_ID = 10137;

export function isGhost(u: Json): boolean {
  return u != null && u.login === GHOST_LOGIN && (u.id === undefined || Number(u.id) === GHOST_ID);
}

/** REST `user` → Actor; `null` and the `ghost` user (a deleted account) become null. */
export function actorFromRest(u: Json): Actor | null {
  if (!u || typeof u.login !== 'string' || isGhost(u)) return null;
  return { login: u.login, type: String(u.type ?? 'User') };
}

/**
 * One vocabulary for file status, REST's (`added`, `removed`, `modified`, `renamed`, `copied`,
 * `changed`, `unchanged`): GraphQL's `PatchStatus` says `DELETED` where REST says `removed`.
 */
export function fileStatus(s: unknown): string {
  const v = String(s ?? 'modified').toLowerCase();
  return v === 'deleted' ? 'removed' : v;
}

/**
 * GraphQL `author` → Actor. GraphQL spells bots without the `[bot]` suffix REST uses; it is added back
 * so both sources agree.
 */
export function actorFromGraphql(a: Json): Actor | null {
  if (!a || typeof a.login !== 'string') return null;
  const type = String(a.__typename ?? 'User');
  return { login: type === 'Bot' && !a.login.endsWith('[bot]') ? `${a.login}[bot]` : a.login, type };
}

/** An item of `GET /repos/{o}/{r}/issues` → RawEntry (PR details are filled in by the GraphQL pass). */
export function entryFromRest(item: Json, repo: string, defaultBranch: string | null): RawEntry {
  const isPr = item.pull_request != null;
  const mergedAt: string | null = isPr ? (item.pull_request.merged_at ?? null) : null;
  return {
    v: 1,
    repo,
    number: item.number,
    kind: isPr ? 'pr' : 'issue',
    node_id: item.node_id ?? null,
    title: String(item.title ?? ''),
    body: item.body ?? null,
    state: item.state === 'closed' ? 'closed' : 'open',
    state_reason: item.state_reason ?? null,
    author: actorFromRest(item.user),
    author_association: item.author_association ?? null,
    labels: Array.isArray(item.labels)
      ? item.labels.map((l: Json) => (typeof l === 'string' ? l : String(l.name)))
      : [],
    locked: Boolean(item.locked),
    comments_count: Number(item.comments ?? 0),
    created_at: item.created_at,
    updated_at: item.updated_at,
    closed_at: item.closed_at ?? null,
    transferred_to: null,
    default_branch: defaultBranch,
    pr: isPr ? { merged: mergedAt !== null, merged_at: mergedAt, base_ref: '' } : null,
  };
}

/** A GraphQL `pullRequests` node → PullInfo (closing issues restricted to `repo` itself). */
export function pullFromGraphql(node: Json, repo: string): PullInfo {
  const same = (n: Json) => String(n?.repository?.nameWithOwner ?? '').toLowerCase() === repo.toLowerCase();
  return {
    merged: Boolean(node.merged),
    merged_at: node.mergedAt ?? null,
    base_ref: String(node.baseRefName ?? ''),
    base_sha: node.baseRefOid ?? null,
    head_sha: node.headRefOid ?? null,
    changed_files: node.changedFiles ?? null,
    additions: node.additions ?? null,
    deletions: node.deletions ?? null,
    closing_issues: (node.closingIssuesReferences?.nodes ?? [])
      .filter(same)
      .map((n: Json) => Number(n.number))
      .sort((a: number, b: number) => a - b),
    files: (node.files?.nodes ?? []).map(
      (f: Json): PrFile => ({
        filename: String(f.path),
        status: fileStatus(f.changeType),
        additions: Number(f.additions ?? 0),
        deletions: Number(f.deletions ?? 0),
      }),
    ),
  };
}

/** CrossReferencedEvent / ConnectedEvent timeline items of a GraphQL issue node → CrossRef records. */
export function crossrefsFromGraphql(node: Json, repo: string): CrossRef[] {
  const out: CrossRef[] = [];
  for (const it of node.timelineItems?.nodes ?? []) {
    if (it.__typename === 'CrossReferencedEvent' && it.source?.number) {
      out.push({
        v: 1,
        target_repo: repo,
        target_number: Number(node.number),
        source_repo: String(it.source.repository?.nameWithOwner ?? repo),
        source_number: Number(it.source.number),
        source_kind: it.source.__typename === 'PullRequest' ? 'pr' : 'issue',
        will_close_target: typeof it.willCloseTarget === 'boolean' ? it.willCloseTarget : null,
        created_at: String(it.referencedAt ?? it.createdAt),
        via: 'cross-referenced',
      });
    } else if (it.__typename === 'ConnectedEvent' && it.subject?.number) {
      out.push({
        v: 1,
        target_repo: repo,
        target_number: Number(node.number),
        source_repo: repo,
        source_number: Number(it.subject.number),
        source_kind: it.subject.__typename === 'PullRequest' ? 'pr' : 'issue',
        will_close_target: null,
        created_at: String(it.createdAt),
        via: 'connected',
      });
    }
  }
  return out;
}

export function commentFromRest(c: Json, repo: string, number: number): Comment {
  return {
    v: 1,
    repo,
    number,
    id: Number(c.id),
    author: actorFromRest(c.user),
    author_association: c.author_association ?? null,
    body: String(c.body ?? ''),
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

export function eventFromRest(ev: Json, repo: string, number: number): IssueEvent {
  return {
    v: 1,
    repo,
    number,
    id: String(ev.id),
    event: String(ev.event),
    actor: actorFromRest(ev.actor),
    created_at: ev.created_at,
    commit_id: ev.commit_id ?? null,
  };
}

export function fileFromRest(f: Json): PrFile {
  return {
    filename: String(f.filename),
    status: fileStatus(f.status),
    additions: Number(f.additions ?? 0),
    deletions: Number(f.deletions ?? 0),
    patch: f.patch ?? null,
    previous_filename: f.previous_filename ?? null,
  };
}
