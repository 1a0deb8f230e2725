/**
 * A small hand-planted corpus for this package's tests: one repository whose issues and PRs each
 * trigger exactly one funnel step, with the expected removals written out by hand.
 * @module
 */
import type { Comment, CrossRef, IssueEvent, PrFile, RawEntry } from '@faun/schema';
import type { RepoData } from './funnel.ts';

export const REPO = 'acme/widget';
const T = '2024-01-01T00:00:00Z';

const prose = (n: number) =>
  `Issue ${n}: when calling widget.render() with an empty layout the renderer crashes with a KeyError. ` +
  `Steps: create a layout, remove every pane, call render. Expected an empty canvas, got a traceback ` +
  `pointing at layout.py line ${100 + n}. See https://github.com/acme/widget/issues/${n} for context.`;

export function issue(n: number, over: Partial<RawEntry> = {}): RawEntry {
  return {
    v: 1,
    repo: REPO,
    number: n,
    kind: 'issue',
    title: `Renderer crash ${n}`,
    body: prose(n),
    state: 'closed',
    author: { login: `user${n}`, type: 'User' },
    author_association: 'NONE',
    labels: [],
    locked: false,
    comments_count: 1,
    created_at: T,
    updated_at: T,
    default_branch: 'main',
    ...over,
  };
}

export function file(filename: string, patch = '@@ -1 +1 @@\n-a\n+b'): PrFile {
  return { filename, status: 'modified', additions: 1, deletions: 1, patch };
}

export function pr(n: number, body: string, over: Partial<NonNullable<RawEntry['pr']>> = {}): RawEntry {
  return {
    ...issue(n),
    kind: 'pr',
    title: `Fix renderer ${n}`,
    body,
    author: { login: 'dev', type: 'User' },
    pr: {
      merged: true,
      merged_at: T,
      base_ref: 'main',
      base_sha: `base${n}`,
      head_sha: `head${n}`,
      files: [file('src/widget/layout.py')],
      ...over,
    },
  };
}

export function xref(
  issueN: number,
  prN: number,
  sourceRepo = REPO,
  willClose: boolean | null = null,
): CrossRef {
  return {
    v: 1,
    target_repo: REPO,
    target_number: issueN,
    source_repo: sourceRepo,
    source_number: prN,
    source_kind: 'pr',
    will_close_target: willClose,
    created_at: T,
    via: 'cross-referenced',
  };
}

export function comment(n: number, id: number, login: string, assoc: string, body: string): Comment {
  return {
    v: 1,
    repo: REPO,
    number: n,
    id,
    author: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' },
    author_association: assoc,
    body,
    created_at: `2024-01-0${Math.min(9, 1 + (id % 9))}T00:00:00Z`,
  };
}

/** Removals the funnel must report, per step (issue numbers, or `issue:pr` for pair steps). */
export const EXPECTED: Record<string, string[]> = {
  botAuthored: ['3'],
  shortBody: ['4'],
  tooLarge: ['5'],
  duplicate: ['6'],
  manyEvents: ['7'],
  externalLink: ['8'],
  singleHumanParticipant: ['9'],
  unpaired: ['10', '24', '26'],
  notMerged: ['11:12'],
  notDefaultBranch: ['13:14'],
  notOneToOne: ['15:16', '15:17', '30:32', '31:32'],
  multiFile: ['18:19'],
  docsOrTestOnly: ['20:21'],
  commentOrStringOnly: ['22:23'],
};
/** The pairs that survive every step. */
export const SURVIVORS = ['1:2', '28:29'];

/** Builds the planted repository. */
export function plantedRepo(): RepoData {
  const entries: RawEntry[] = [];
  const crossrefs: CrossRef[] = [];
  const comments: Comment[] = [];
  const events: IssueEvent[] = [];
  const link = (i: number, p: number, body: string, over: Partial<NonNullable<RawEntry['pr']>> = {}) => {
    entries.push(pr(p, body, over));
    crossrefs.push(xref(i, p));
  };
  const plain = [1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 18, 20, 22, 24, 26, 28, 30, 31];
  for (const n of plain) entries.push(issue(n));
  const set = (n: number, over: Partial<RawEntry>) => {
    const i = entries.findIndex((e) => e.number === n);
    entries[i] = { ...(entries[i] as RawEntry), ...over };
  };
  set(3, { author: { login: 'dependabot[bot]', type: 'Bot' } });
  set(4, { body: 'too short' });
  set(5, { body: prose(5) + 'x'.repeat(30_000) });
  set(6, { body: `  ${prose(1).toUpperCase()}  ` });
  set(8, { body: `${prose(8)} Logs: https://pastebin.com/abc` });
  for (let k = 0; k < 11; k++)
    events.push({ v: 1, repo: REPO, number: 7, id: `e${k}`, event: 'labeled', actor: null, created_at: T });
  for (const n of plain) {
    if (n === 9) continue;
    comments.push(comment(n, n * 10 + 1, 'maint', 'MEMBER', `Thanks, confirmed for ${n}.`));
  }
  comments.push(comment(9, 91, 'user9', 'NONE', 'any news?'));
  comments.push(comment(9, 92, 'stale[bot]', 'NONE', 'This issue has been automatically marked as stale.'));
  comments.push(comment(9, 93, 'k8s-ci-robot', 'NONE', '/lifecycle stale'));

  link(1, 2, 'This PR fixes #1 by guarding the empty layout.', { closing_issues: [1] });
  link(11, 12, 'Fixes #11', { merged: false, merged_at: null });
  link(13, 14, 'Fixes #13', { base_ref: 'dev' });
  link(15, 16, 'Fixes #15');
  link(15, 17, 'Closes #15 (alternative)');
  link(18, 19, 'Resolves #18', { files: [file('src/a.py'), file('src/b.py')] });
  link(20, 21, 'Fixes #20', { files: [file('docs/usage.md')] });
  link(22, 23, 'Fixes #22', { files: [file('src/widget/strings.py')] });
  // Cross-repository decoys: a same-repo PR closing another repo's #24, and a foreign PR closing ours.
  link(24, 25, 'Fixes other/lib#24, see #24');
  crossrefs.push(xref(24, 99, 'other/lib', true));
  // Code-block decoy: the keyword is only inside a fenced block.
  link(26, 27, 'Refactor.\n\n```\nfixes #26\n```\n');
  link(28, 29, 'Fixes: #28', { closing_issues: [] });
  entries.push(pr(32, 'Fixes #30, fixes #31'));
  crossrefs.push(xref(30, 32), xref(31, 32));
  return { repo: REPO, entries, comments, events, crossrefs, prFiles: new Map() };
}
