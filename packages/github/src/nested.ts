/**
 * Nested connections that came back short. Under load GitHub can answer a nested connection with
 * fewer nodes than its `totalCount` (down to none); and a timeline with more items than the bulk
 * query's `first` has further pages. Either way the node is asked again on its own, paging through
 * the whole nested connection, so the result equals a complete answer.
 */
import type { CrawlOptions } from './crawler.ts';
import { gqlRequest } from './gql-pages.ts';
import { CLOSING_FIRST, FILES_FIRST, ISSUE_TIMELINE_QUERY, PULL_QUERY, TIMELINE_FIRST } from './queries.ts';
import type { RepoMeta } from './repos.ts';

// biome-ignore lint/suspicious/noExplicitAny: GitHub JSON.
type Json = any;

const short = (c: Json, first: number): boolean =>
  c != null && (c.nodes?.length ?? 0) < Math.min(Number(c.totalCount ?? 0), first);

/** Whether an issue node's timeline must be fetched again. */
export function issueNeedsRefetch(node: Json): boolean {
  const tl = node?.timelineItems;
  return tl != null && (short(tl, TIMELINE_FIRST) || tl.pageInfo?.hasNextPage === true);
}

/** Whether a PR node's closing references or files must be fetched again. */
export function pullNeedsRefetch(node: Json): boolean {
  const c = node?.closingIssuesReferences;
  return (
    short(c, CLOSING_FIRST) || Number(c?.totalCount ?? 0) > CLOSING_FIRST || short(node?.files, FILES_FIRST)
  );
}

/** Replaces the issue node's timeline with all of its items. Returns requests sent. */
export async function completeIssue(o: CrawlOptions, meta: RepoMeta, node: Json): Promise<number> {
  const [owner, name] = meta.full.split('/') as [string, string];
  const items: Json[] = [];
  let after: string | null = null;
  let requests = 0;
  for (;;) {
    requests++;
    const { data } = await gqlRequest(
      o,
      ISSUE_TIMELINE_QUERY,
      { owner, name, number: Number(node.number), first: 100, after },
      1,
      true,
    );
    const t = data?.repository?.issue?.timelineItems;
    if (!t) break;
    items.push(...(t.nodes ?? []).filter((x: Json) => x !== null));
    if (!t.pageInfo?.hasNextPage) break;
    after = String(t.pageInfo.endCursor);
  }
  node.timelineItems = {
    ...node.timelineItems,
    totalCount: items.length,
    pageInfo: { hasNextPage: false, endCursor: null },
    nodes: items,
  };
  return requests;
}

/** Replaces the PR node with one fetched on its own. Returns requests sent. */
export async function completePull(o: CrawlOptions, meta: RepoMeta, node: Json): Promise<Json> {
  const [owner, name] = meta.full.split('/') as [string, string];
  const closing = Number(node.closingIssuesReferences?.totalCount ?? 0) > CLOSING_FIRST ? 100 : CLOSING_FIRST;
  const { data } = await gqlRequest(
    o,
    PULL_QUERY,
    { owner, name, number: Number(node.number), closing },
    1,
    true,
  );
  return data?.repository?.pullRequest ?? node;
}
