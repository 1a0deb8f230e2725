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
}

function actor(u: FakeUser | null): Record<string, unknown> | null {
  if (!u) return null;
  return u.type === 'Bot'
    ? { __typename: 'Bot', login: u.login.replace(/\[bot\]$/, '') }
    : { __typename: 'User', login: u.login };
}

function firstOf(query: string, field: string, dflt: number): number {
  const m = new RegExp(`${field}\\([^)]*first:\\s*(\\d+)`).exec(query);
  return m?.[1] ? Math.min(100, Number(m[1])) : dflt;
}

function pageOver(
  corpus: Corpus,
  repo: FakeRepo,
  cursor: string | null,
  first: number,
  keep: (e: FakeEntry) => boolean,
): { nodes: FakeEntry[]; hasNextPage: boolean; endCursor: string | null } {
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
}

function prNode(repo: FakeRepo, e: FakeEntry, filesFirst: number): Record<string, unknown> {
  const p = e.pull;
  const files = p?.edits ?? [];
  const closing = p?.closing ?? [];
  return {
    number: e.number,
    state: p?.merged ? 'MERGED' : e.state === 'open' ? 'OPEN' : 'CLOSED',
    merged: p?.merged ?? false,
    mergedAt: p?.mergedAt ? iso(p.mergedAt) : null,
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
      nodes: closing.slice(0, 10).map((c) => ({ number: c.number, repository: { nameWithOwner: c.repo } })),
    },
    files: {
      totalCount: files.length,
      nodes: files
        .slice(0, filesFirst)
        .map((f) => ({ path: f.path, changeType: 'MODIFIED', additions: 1, deletions: 1 })),
    },
  };
}

function issueNode(
  corpus: Corpus,
  repo: FakeRepo,
  e: FakeEntry,
  timelineFirst: number,
): Record<string, unknown> {
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
  return {
    number: e.number,
    timelineItems: {
      totalCount: items.length,
      pageInfo: {
        hasNextPage: items.length > timelineFirst,
        endCursor: items.length ? encodeCursor(items.length) : null,
      },
      nodes: items.slice(0, timelineFirst),
    },
  };
}

/** Answers one GraphQL request (rate-limit and fault handling happen in the server). */
export function graphql(corpus: Corpus, query: string, variables: Record<string, unknown>): GraphqlResult {
  const owner = String(variables.owner ?? '');
  const name = String(variables.name ?? '');
  const cursor = typeof variables.cursor === 'string' ? variables.cursor : null;
  const found = corpus.find(`${owner}/${name}`);
  const notFound = (): GraphqlResult => ({
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
  });
  if (/pullRequests\s*\(/.test(query)) {
    if (!found) return notFound();
    const repo = found.repo;
    const first = firstOf(query, 'pullRequests', 50);
    const filesFirst = firstOf(query, 'files', 2);
    const mergedOnly = /states:\s*\[?\s*MERGED/.test(query);
    const page = pageOver(
      corpus,
      repo,
      cursor,
      first,
      (e) => e.kind === 'pr' && (!mergedOnly || e.pull?.merged === true),
    );
    return {
      status: 200,
      body: {
        data: {
          rateLimit: null,
          repository: {
            defaultBranchRef: { name: repo.defaultBranch },
            pullRequests: {
              pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
              nodes: page.nodes.map((e) => prNode(repo, e, filesFirst)),
            },
          },
        },
      },
      cost: Math.max(1, Math.round((1 + 2 * first) / 100)),
    };
  }
  if (/issues\s*\(/.test(query)) {
    if (!found) return notFound();
    const repo = found.repo;
    const first = firstOf(query, 'issues', 50);
    const tl = firstOf(query, 'timelineItems', 50);
    const closedOnly = /states:\s*\[?\s*CLOSED/.test(query);
    const page = pageOver(
      corpus,
      repo,
      cursor,
      first,
      (e) => e.kind === 'issue' && (!closedOnly || e.state === 'closed'),
    );
    return {
      status: 200,
      body: {
        data: {
          rateLimit: null,
          repository: {
            defaultBranchRef: { name: repo.defaultBranch },
            issues: {
              pageInfo: { hasNextPage: page.hasNextPage, endCursor: page.endCursor },
              nodes: page.nodes.map((e) => issueNode(corpus, repo, e, tl)),
            },
          },
        },
      },
      cost: Math.max(1, Math.round((1 + first * Math.ceil(tl / 100)) / 100)),
    };
  }
  if (/rateLimit/.test(query)) return { status: 200, body: { data: { rateLimit: null } }, cost: 0 };
  return {
    status: 200,
    body: {
      errors: [
        { message: "This fake answers only the crawler's query shapes (issues, pullRequests, rateLimit)." },
      ],
    },
    cost: 1,
  };
}
