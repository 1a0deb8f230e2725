/** Which entries get per-entity calls after the cheap filters (pure). */
import type { PullInfo, RawEntry } from '@faun/schema';

export type SurvivorRule = 'strict' | 'linked';

export interface DetailTask {
  kind: 'comments' | 'events' | 'files';
  number: number;
}

/**
 * Per-entity work left after the cheap filters, in a stable order. A link is a merged PR into the
 * default branch whose closingIssuesReferences name a closed issue of the same repository. `strict`
 * keeps issues with a body ≥ `minBody` characters and PRs with exactly one changed file; `linked` keeps
 * every linked issue and PR. With `since` (incremental), only links where the issue or the PR changed
 * since then.
 */
/** What {@link survivorTasks} needs of an entry (bodies are reduced to their length to save memory). */
export interface SurvivorEntry {
  number: number;
  kind: 'issue' | 'pr';
  state: 'open' | 'closed';
  /** Length of the trimmed body. */
  bodyLength: number;
  comments_count: number;
  updated_at: string;
  pr?: Pick<PullInfo, 'merged' | 'base_ref' | 'changed_files' | 'closing_issues'> | null;
}

/** Reduces an entry to what survivor selection reads. */
export function survivorEntry(e: RawEntry): SurvivorEntry {
  return {
    number: e.number,
    kind: e.kind,
    state: e.state,
    bodyLength: (e.body ?? '').trim().length,
    comments_count: e.comments_count,
    updated_at: e.updated_at,
    pr: e.pr
      ? {
          merged: e.pr.merged,
          base_ref: e.pr.base_ref,
          changed_files: e.pr.changed_files ?? null,
          closing_issues: e.pr.closing_issues ?? null,
        }
      : null,
  };
}

export function survivorTasks(
  entries: SurvivorEntry[],
  defaultBranch: string,
  rule: SurvivorRule,
  minBody = 200,
  since: string | null = null,
): DetailTask[] {
  const byNumber = new Map(entries.map((e) => [e.number, e]));
  const issues = new Set<number>();
  const prs = new Set<number>();
  for (const p of entries) {
    if (p.kind !== 'pr' || !p.pr?.merged || p.pr.base_ref !== defaultBranch) continue;
    let linked = false;
    for (const n of p.pr.closing_issues ?? []) {
      const i = byNumber.get(n);
      if (i?.kind !== 'issue' || i.state !== 'closed') continue;
      if (
        since &&
        Date.parse(i.updated_at) < Date.parse(since) &&
        Date.parse(p.updated_at) < Date.parse(since)
      )
        continue;
      linked = true;
      if (rule === 'linked' || i.bodyLength >= minBody) issues.add(n);
    }
    if (linked && (rule === 'linked' || p.pr.changed_files === 1)) prs.add(p.number);
  }
  const tasks: DetailTask[] = [];
  for (const n of [...issues].sort((a, b) => a - b)) {
    if ((byNumber.get(n)?.comments_count ?? 0) > 0) tasks.push({ kind: 'comments', number: n });
    tasks.push({ kind: 'events', number: n });
  }
  for (const n of [...prs].sort((a, b) => a - b)) tasks.push({ kind: 'files', number: n });
  return tasks;
}
