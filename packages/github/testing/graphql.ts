/**
 * `POST /graphql` for the query shapes the crawler sends (issue side with timeline items, PR side with
 * closingIssuesReferences and files), matched by pattern rather than parsed. Costs follow GitHub's
 * rule: (1 + nested connection requests) / 100, rounded, at least 1.
 */
import type { Corpus } from './corpus.ts';
import type { FakeEntry, FakeRepo, FakeUser } from './corpus-types.ts';
import { decodeCursor, encodeCursor } from './paging.ts';
import { iso } from './shapes.ts';

export interface GraphqlResult {
  status: number;
  body: Record<string, unknown>;
  /** Points charged on success. */
  cost: number;
  /** Nodes the query asks for (GitHub's node count: `first` × nested `first`s), for service time. */
  nodes: number;
  /** The paginated connection answered (`pullRequests`, `issues`, `pullRequest`, `issue`), if any. */
  connection?: string;
}

/**
 * Faults applied to one answer. `nullNode`: the node at that index of the page comes back `null` with
 * a partial error beside the data (GitHub answers partial data this way, e.g. a node it failed to
 * resolve; octokit's GraphqlResponseError carries both). `truncateNested`: nested connections of every
 * node come back with `nodes: []` but their true `totalCount` (nested connections answered empty under
 * load).
 */
export interface GraphqlFaults {
  nullNode?: number;
  truncateNested?: boolean;
}

function actor(u: FakeUser | null): Record<string, unknown> | null {
  if (!u) return null;
  return u.type === 'Bot'
    ? { __typename: 'Bot', login: u.login.replace(/\[bot\]$/, '') }
    : { __typename: 'User', login: u.login };
}

/** `first:` of a connection, as a literal or a `$variable`; GitHub allows 1–100. */
function firstOf(query: string, field: string, dflt: number, vars: Record<string, unknown> = {}): number {
  const m = new RegExp(`${field}\\([^)]*first:\\s*(\\$\\w+|\\d+)`).exec(query);
  const raw = m?.[1];
  if (!raw) return dflt;
  const n = raw.startsWith('$') ? Number(vars[raw.slice(1)]) : Number(raw);
  return Number.isInteger(n) ? Math.max(1, Math.min(100, n)) : dflt;
}

/** `after:` of a nested connection given as a `$variable`. */
function afterOf(query: string, field: string, vars: Record<string, unknown>): string | null {
  const m = new RegExp(`${field}\\([^)]*after:\\s*\\$(\\w+)`).exec(query);
  const v = m?.[1] ? vars[m[1]] : null;
  return typeof v === 'string' ? v : null;
}

/** One page of a connection: `first` nodes that `keep` accepts, after `cursor`. */
type Pager = (
  corpus: Corpus,
  repo: FakeRepo,
  cursor: string | null,
  first: number,
  keep: (e: FakeEntry) => boolean,
) => { nodes: FakeEntry[]; hasNextPage: boolean; endCursor: string | null };

/** Pages nodes by number (cursor = the last number). */
const pageOver: Pager = (corpus, repo, cursor, first, keep) => {
  let n = cursor ? (decodeCursor(cursor) ?? 0) + 1 : 1;
  const nodes: FakeEntry[] = [];
  let last = n - 1;
  for (; n <= repo.size; n++) {
    const e = corpus.entry(repo, n);
    if (!e || e.gap || !keep(e)) continue;
    if (nodes.length === first) return { nodes, hasNextPage: true, endCursor: encodeCursor(last) };
    nodes.push(e);
    last = n;
  }
  return { nodes, hasNextPage: false, endCursor: nodes.length ? encodeCursor(last) : (cursor ?? null) };
};

const UPDATED_ORDER = new WeakMap<FakeRepo, number[]>();

/** Pages nodes by `updatedAt` descending (cursor = position in that order). */
const pageByUpdated: Pager = (corpus, repo, cursor, first, keep) => {
  let order = UPDATED_ORDER.get(repo);
  if (!order) {
    const rows: [number, number][] = [];
    for (let n = 1; n <= repo.size; n++) {
      const e = corpus.entry(repo, n);
      if (e && !e.gap && keep(e)) rows.push([e.updatedAt, n]);
    }
    rows.sort((a, b) => b[0] - a[0] || b[1] - a[1]);
    order = rows.map((r) => r[1]);
    UPDATED_ORDER.set(repo, order);
  }
  const from = cursor ? (decodeCursor(cursor) ?? 0) : 0;
  const nums = order.slice(from, from + first);
  const nodes = nums.map((n) => corpus.entry(repo, n)).filter((e): e is FakeEntry => e !== null);
  const end = from + nums.length;
  return { nodes, hasNextPage: end < order.length, endCursor: nums.length ? encodeCursor(end) : cursor };
};

interface PrFirsts {
  closing: number;
  files: number;
}

/** File change types of GraphQL's `PatchStatus` (ADDED, CHANGED, COPIED, DELETED, MODIFIED, RENAMED). */
const CHANGE_TYPES = ['MODIFIED', 'MODIFIED', 'MODIFIED', 'ADDED', 'DELETED', 'RENAMED'] as const;

function prNode(repo: FakeRepo, e: FakeEntry, f: PrFirsts): Record<string, unknown> {
  const p = e.pull;
  const files = p?.edits ?? [];
  const closing = p?.closing ?? [];
  return {
    number: e.number,
    state: p?.merged ? 'MERGED' : e.state === 'open' ? 'OPEN' : 'CLOSED',
    merged: p?.merged ?? false,
    mergedAt: p?.mergedAt ? iso(p.mergedAt) : null,
    updatedAt: iso(e.updatedAt),
    baseRefName: p?.base ?? repo.defaultBranch,
    baseRefOid: repo.baseSha,
    headRefOid: p?.headSha ?? null,
    changedFiles: files.length,
    additions: files.length,
    deletions: files.length,
    author: actor(e.user),
    authorAssociation: e.association,
    closingIssuesReferences: {
      totalCount: closing.length,
      nodes: closing
        .slice(0, f.closing)
        .map((c) => ({ number: c.number, repository: { nameWithOwner: c.repo } })),
    },
    files: {
      totalCount: files.length,
      nodes: files.slice(0, f.files).map((x) => ({
        path: x.path,
        // Multi-file PRs carry the other change types; single-file PRs (the planted pairs) are edits.
        changeType:
          files.length > 1 ? (CHANGE_TYPES[(e.number + x.path.length) % 6] ?? 'MODIFIED') : 'MODIFIED',
        additions: 1,
        deletions: 1,
      })),
    },
  };
}

function timelineOf(corpus: Corpus, repo: FakeRepo, e: FakeEntry): Record<string, unknown>[] {
  const items: Record<string, unknown>[] = [];
  for (const x of e.crossrefs) {
    const src = corpus.entry(repo, x.sourceNumber);
    items.push({
      __typename: 'CrossReferencedEvent',
      referencedAt: iso(x.at),
      isCrossRepository: x.sourceRepo !== repo.full,
      willCloseTarget: x.willCloseTarget,
      source: {
        __typename: 'PullRequest',
        number: x.sourceNumber,
        merged: src?.pull?.merged ?? false,
        mergedAt: src?.pull?.mergedAt ? iso(src.pull.mergedAt) : null,
        baseRefName: src?.pull?.base ?? repo.defaultBranch,
        repository: { nameWithOwner: x.sourceRepo },
      },
      target: { __typename: 'Issue', number: e.number },
    });
  }
  if (e.state === 'closed' && e.closedAt !== null) {
    const closer = e.closerPr === null ? null : corpus.entry(repo, e.closerPr);
    items.push({
      __typename: 'ClosedEvent',
      createdAt: iso(e.closedAt),
      stateReason: (e.stateReason ?? 'completed').toUpperCase(),
      closer: closer?.pull
        ? {
            __typename: 'PullRequest',
            number: closer.number,
            merged: closer.pull.merged,
            baseRefName: closer.pull.base,
            repository: { nameWithOwner: repo.full },
          }
        : null,
    });
  }
  return items;
}

function issueNode(
  corpus: Corpus,
  repo: FakeRepo,
  e: FakeEntry,
  timelineFirst: number,
  after: string | null = null,
): Record<string, unknown> {
  const items = timelineOf(corpus, repo, e);
  const from = after ? (decodeCursor(after) ?? 0) : 0;
  const slice = items.slice(from, from + timelineFirst);
  const end = from + slice.length;
  return {
    number: e.number,
    updatedAt: iso(e.updatedAt),
    timelineItems: {
      totalCount: items.length,
      pageInfo: { hasNextPage: end < items.length, endCursor: slice.length ? encodeCursor(end) : after },
      nodes: slice,
    },
  };
}

/** GitHub's point cost: (1 + requests for nested connections) / 100, rounded, at least 1. */
function costOf(first: number, nestedPerNode: number): number {
  return Math.max(1, Math.round((1 + first * nestedPerNode) / 100));
}

/** Applies {@link GraphqlFaults} to a page of nodes under `path`. */
function applyFaults(
  nodes: Record<string, unknown>[],
  nested: string[],
  faults: GraphqlFaults,
  path: string[],
): { nodes: (Record<string, unknown> | null)[]; errors: Record<string, unknown>[] } {
  const out: (Record<string, unknown> | null)[] = nodes.map((n) => {
    if (!faults.truncateNested) return n;
    const copy = { ...n };
    for (const k of nested) {
      const c = copy[k] as { totalCount?: number; nodes?: unknown[] } | undefined;
      if (c && (c.nodes?.length ?? 0) > 0) copy[k] = { ...c, nodes: [] };
    }
    return copy;
  });
  const errors: Record<string, unknown>[] = [];
  const i = faults.nullNode;
  if (i !== undefined && out.length > 0) {
    const at = i % out.length;
    out[at] = null;
    errors.push({
      type: 'SERVICE_UNAVAILABLE',
      path: [...path, 'nodes', at],
      locations: [{ line: 1, column: 1 }],
      message: 'Something went wrong while resolving this field; try again later.',
    });
  }
  return { nodes: out, errors };
}

/** One GraphQL request: its query, variables, page faults and the repository it names (when it exists). */
interface GraphqlAsk {
  corpus: Corpus;
  query: string;
  variables: Record<string, unknown>;
  faults: GraphqlFaults;
  repo: FakeRepo;
  cursor: string | null;
}

function repositoryNotFound(owner: string, name: string): GraphqlResult {
  return {
    status: 200,
    body: {
      data: { repository: null },
      errors: [
        {
          type: 'NOT_FOUND',
          path: ['repository'],
          message: `Could not resolve to a Repository with the name '${owner}/${name}'.`,
        },
      ],
    },
    cost: 1,
    nodes: 1,
  };
}

/** The `data` of an answer about `repo`: its `key` field and the errors beside it. */
function wrap(
  repo: FakeRepo,
  key: string,
  inner: unknown,
  errors: Record<string, unknown>[],
): Record<string, unknown> {
  return {
    data: { rateLimit: null, repository: { defaultBranchRef: { name: repo.defaultBranch }, [key]: inner } },
    ...(errors.length ? { errors } : {}),
  };
}

const prFirsts = (g: GraphqlAsk): PrFirsts => ({
  closing: firstOf(g.query, 'closingIssuesReferences', 10, g.variables),
  files: firstOf(g.query, 'files', 2, g.variables),
});

/** `pullRequest(number:)`. */
function pullRequestAnswer(g: GraphqlAsk): GraphqlResult {
  const e = g.corpus.entry(g.repo, Number(g.variables.number));
  const f = prFirsts(g);
  const node = e?.pull && !e.gap ? prNode(g.repo, e, f) : null;
  return {
    status: 200,
    body: wrap(g.repo, 'pullRequest', node, []),
    cost: 1,
    nodes: 1 + f.closing + f.files,
    connection: 'pullRequest',
  };
}

/** `issue(number:)` with its timeline page. */
function issueAnswer(g: GraphqlAsk): GraphqlResult {
  const e = g.corpus.entry(g.repo, Number(g.variables.number));
  const tl = firstOf(g.query, 'timelineItems', 50, g.variables);
  const after = afterOf(g.query, 'timelineItems', g.variables);
  const node = e && !e.gap && e.kind === 'issue' ? issueNode(g.corpus, g.repo, e, tl, after) : null;
  return {
    status: 200,
    body: wrap(g.repo, 'issue', node, []),
    cost: 1,
    nodes: 1 + tl,
    connection: 'issue',
  };
}

/** A connection page's answer: its nodes (after faults), page info, cost and node count. */
function pageAnswer(
  repo: FakeRepo,
  key: 'pullRequests' | 'issues',
  page: { hasNextPage: boolean; endCursor: string | null },
  faulted: ReturnType<typeof applyFaults>,
  cost: number,
  nodes: number,
): GraphqlResult {
  const inner = {
    pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
    nodes: faulted.nodes,
  };
  return { status: 200, body: wrap(repo, key, inner, faulted.errors), cost, nodes, connection: key };
}

/** A page of `pullRequests(...)`. */
function pullRequestsAnswer(g: GraphqlAsk): GraphqlResult {
  const { corpus, query, repo } = g;
  const first = firstOf(query, 'pullRequests', 50, g.variables);
  const f = prFirsts(g);
  const mergedOnly = /states:\s*\[?\s*MERGED/.test(query);
  const keep = (e: FakeEntry) => e.kind === 'pr' && (!mergedOnly || e.pull?.merged === true);
  // `pullRequests` has no `since` filter; `orderBy:{field:UPDATED_AT,direction:DESC}` lets an
  // incremental crawl stop at the first node older than its start.
  const page = /field:\s*UPDATED_AT/.test(query)
    ? pageByUpdated(corpus, repo, g.cursor, first, keep)
    : pageOver(corpus, repo, g.cursor, first, keep);
  const nodes = page.nodes.map((e) => prNode(repo, e, f));
  const faulted = applyFaults(nodes, ['closingIssuesReferences', 'files'], g.faults, [
    'repository',
    'pullRequests',
  ]);
  return pageAnswer(repo, 'pullRequests', page, faulted, costOf(first, 2), first * (1 + f.closing + f.files));
}

/** A page of `issues(...)`, each with its first timeline items. */
function issuesAnswer(g: GraphqlAsk): GraphqlResult {
  const { corpus, query, repo, variables } = g;
  const since = typeof variables.since === 'string' ? Date.parse(variables.since) / 1000 : null;
  const first = firstOf(query, 'issues', 50, variables);
  const tl = firstOf(query, 'timelineItems', 50, variables);
  const closedOnly = /states:\s*\[?\s*CLOSED/.test(query);
  const page = pageOver(
    corpus,
    repo,
    g.cursor,
    first,
    (e) =>
      e.kind === 'issue' &&
      (!closedOnly || e.state === 'closed') &&
      // `filterBy:{since:$since}` (IssueFilters.since: issues updated at or after the time).
      (since === null || !/filterBy/.test(query) || e.updatedAt >= since),
  );
  const nodes = page.nodes.map((e) => issueNode(corpus, repo, e, tl));
  const faulted = applyFaults(nodes, ['timelineItems'], g.faults, ['repository', 'issues']);
  return pageAnswer(repo, 'issues', page, faulted, costOf(first, Math.ceil(tl / 100)), first * (1 + tl));
}

/** The query shapes answered about a repository, in the order they are tried. */
const REPOSITORY_QUERIES: [RegExp, (g: GraphqlAsk) => GraphqlResult][] = [
  [/pullRequest\s*\(\s*number/, pullRequestAnswer],
  [/issue\s*\(\s*number/, issueAnswer],
  [/pullRequests\s*\(/, pullRequestsAnswer],
  [/issues\s*\(/, issuesAnswer],
];

/** Answers one GraphQL request (rate-limit and fault handling happen in the server). */
export function graphql(
  corpus: Corpus,
  query: string,
  variables: Record<string, unknown>,
  faults: GraphqlFaults = {},
): GraphqlResult {
  const owner = String(variables.owner ?? '');
  const name = String(variables.name ?? '');
  const shape = REPOSITORY_QUERIES.find(([re]) => re.test(query));
  if (shape) {
    const found = corpus.find(`${owner}/${name}`);
    if (!found) return repositoryNotFound(owner, name);
    const cursor = typeof variables.cursor === 'string' ? variables.cursor : null;
    return shape[1]({ corpus, query, variables, faults, repo: found.repo, cursor });
  }
  if (/rateLimit/.test(query)) return { status: 200, body: { data: { rateLimit: null } }, cost: 0, nodes: 1 };
  return {
    status: 200,
    body: {
      errors: [
        { message: "This fake answers only the crawler's query shapes (issues, pullRequests, rateLimit)." },
      ],
    },
    cost: 1,
    nodes: 1,
  };
}
