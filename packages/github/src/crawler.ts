/**
 * The crawl planner. Per repository, four streams run in order, each checkpointed after every page
 * (rows + next cursor in one sink transaction):
 *
 * 1. `gql-prs`    GraphQL merged PRs (base branch, changed files, first files, closingIssuesReferences),
 *                 held in memory and merged into the PR entries of step 2 (so each entry is written once).
 * 2. `issues`     REST issues+PRs list, created asc, 100 per page, following `link` only.
 * 3. `gql-issues` GraphQL closed issues: CrossReferencedEvent (willCloseTarget) and ConnectedEvent.
 * 4. `details`    per-entity REST calls only for survivors of the cheap filters (see {@link survivorTasks}):
 *                 issue comments and events, PR files with patches.
 *
 * With `since`, the streams are separate (`issues@<since>` …) so an incremental run never mixes with a
 * finished full crawl, and a re-run of the same command resumes.
 */
import { FaunError } from '@faun/kit';
import type { CrossRef, PullInfo } from '@faun/schema';
import type { GitHubClient } from './client.ts';
import { ISSUES_QUERY, PULLS_QUERY } from './queries.ts';
import {
  commentFromRest,
  crossrefsFromGraphql,
  entryFromRest,
  eventFromRest,
  fileFromRest,
  pullFromGraphql,
} from './records.ts';
import type { RepoMeta } from './repos.ts';
import type { CrawlSink, IngestBatch } from './sink.ts';
import { StreamRun } from './stream-run.ts';
import { type SurvivorEntry, type SurvivorRule, survivorEntry, survivorTasks } from './survivors.ts';

export type { SurvivorRule } from './survivors.ts';

// biome-ignore lint/suspicious/noExplicitAny: GitHub JSON.
type Json = any;

export interface CrawlOptions {
  repos: RepoMeta[];
  client: GitHubClient;
  sink: CrawlSink;
  /** ISO time: only entries updated since then (incremental re-crawl). */
  since?: string | null;
  /** Repositories crawled in parallel (default 2). */
  concurrency?: number;
  /** `strict` (default): cheap filters first; `linked`: details for every linked pair. */
  survivors?: SurvivorRule;
  /** Per-entity calls per store batch (run concurrently, at most the client's limit at a time; default 128). */
  detailBatch?: number;
  /** Minimum issue body length for `strict` (default 200). */
  minBody?: number;
  signal?: AbortSignal;
  onProgress?: (p: StreamProgress) => void;
}

export interface StreamProgress {
  repo: string;
  stream: string;
  /** Items stored by this stream so far (cumulative over resumes). */
  items: number;
  /** Requests this stream made (pages; retries not counted). */
  requests: number;
  done: boolean;
  /** For `issues` in page mode: estimated total pages (from rel="last"). */
  estimatedPages?: number;
  /** For `details`: the number of per-entity calls planned. */
  tasks?: number;
}

export interface CrawlSummary {
  repos: number;
  streams: Record<string, { items: number; requests: number }>;
}

const NEXT = /<([^<>]+)>;\s*rel="next"/;
const LAST = /[?&]page=(\d+)[^>]*>;\s*rel="last"/;

function now(client: GitHubClient): string {
  return new Date(client.clock.now()).toISOString();
}

function aborted(o: CrawlOptions): void {
  if (o.signal?.aborted) throw new FaunError('interrupted', { exitCode: 130 });
}

/** GitHub's view of every merged PR (GraphQL, 100 per page): number → PullInfo. */
async function prefetchPulls(o: CrawlOptions, meta: RepoMeta): Promise<Map<number, PullInfo>> {
  const [owner, name] = meta.full.split('/') as [string, string];
  const out = new Map<number, PullInfo>();
  let cursor: string | null = null;
  let pages = 0;
  for (;;) {
    const data: Json = await graphqlPage(o, meta, PULLS_QUERY, { owner, name, cursor });
    const conn = data?.repository?.pullRequests;
    if (!conn) throw new FaunError(`GraphQL answer for ${meta.full} has no pullRequests`);
    for (const n of conn.nodes ?? []) out.set(Number(n.number), pullFromGraphql(n, meta.full));
    pages++;
    o.onProgress?.({
      repo: meta.requested,
      stream: 'gql-prs',
      items: out.size,
      requests: pages,
      done: !conn.pageInfo?.hasNextPage,
    });
    aborted(o);
    if (!conn.pageInfo?.hasNextPage) return out;
    cursor = String(conn.pageInfo.endCursor);
  }
}

async function graphqlPage(
  o: CrawlOptions,
  meta: RepoMeta,
  query: string,
  vars: Record<string, unknown>,
): Promise<Json> {
  try {
    return await o.client.octokit.graphql(query, vars);
  } catch (e) {
    const { errors, data } = e as { errors?: Json[]; data?: Json };
    if (!errors) throw e;
    // Partial data (e.g. one deleted node answered NOT_FOUND) is used; a missing repository is not.
    if (data?.repository) return data;
    if (errors.some((x) => x.type === 'NOT_FOUND'))
      throw new FaunError(`repository ${meta.full} not found through GraphQL`);
    throw new FaunError(`GraphQL error for ${meta.full}: ${errors.map((x) => x.message).join('; ')}`, {
      cause: e,
    });
  }
}

async function issuesStream(
  o: CrawlOptions,
  meta: RepoMeta,
  run: StreamRun,
  pulls: Map<number, PullInfo>,
): Promise<void> {
  const [owner, repo] = meta.full.split('/') as [string, string];
  const first = `GET /repos/${owner}/${repo}/issues?state=all&sort=created&direction=asc&per_page=100${o.since ? `&since=${encodeURIComponent(o.since)}` : ''}`;
  const start = run.cp?.cursor ? `GET ${run.cp.cursor}` : first;
  for await (const res of o.client.octokit.paginate.iterator(start as 'GET /repos/{owner}/{repo}/issues')) {
    run.requests++;
    const link = String(res.headers.link ?? '');
    const next = NEXT.exec(link)?.[1] ?? null;
    const last = LAST.exec(link)?.[1];
    const entries = (res.data as Json[]).map((it) => {
      const e = entryFromRest(it, meta.full, meta.defaultBranch);
      const pr = e.kind === 'pr' ? pulls.get(e.number) : undefined;
      return pr ? { ...e, pr } : e;
    });
    await run.save(
      { entries },
      next,
      next === null,
      entries.length,
      last ? { estimatedPages: Number(last) } : {},
    );
    aborted(o);
  }
  if (run.requests === (run.cp?.requests ?? 0)) await run.save({}, null, true, 0);
}

/**
 * Closed issues' cross-references through GraphQL. Pages are small (a few rows each), so rows and the
 * cursor are written every `GQL_PAGES_PER_BATCH` pages (or 500 rows): a crash refetches at most that many.
 */
async function crossrefStream(o: CrawlOptions, meta: RepoMeta, run: StreamRun): Promise<void> {
  const [owner, name] = meta.full.split('/') as [string, string];
  let cursor = run.cp?.cursor ?? null;
  let rows: CrossRef[] = [];
  let pages = 0;
  for (;;) {
    run.requests++;
    const data: Json = await graphqlPage(o, meta, ISSUES_QUERY, { owner, name, cursor });
    const conn = data?.repository?.issues;
    if (!conn) throw new FaunError(`GraphQL answer for ${meta.full} has no issues`);
    rows.push(...(conn.nodes ?? []).flatMap((n: Json) => crossrefsFromGraphql(n, meta.full)));
    pages++;
    const next = conn.pageInfo?.hasNextPage ? String(conn.pageInfo.endCursor) : null;
    if (next === null || pages >= GQL_PAGES_PER_BATCH || rows.length >= 500) {
      await run.save({ crossrefs: rows }, next ?? cursor, next === null, rows.length);
      rows = [];
      pages = 0;
    }
    aborted(o);
    if (next === null) return;
    cursor = next;
  }
}

const GQL_PAGES_PER_BATCH = 10;

async function detailsStream(o: CrawlOptions, meta: RepoMeta, run: StreamRun): Promise<void> {
  const [owner, repo] = meta.full.split('/') as [string, string];
  const slim: SurvivorEntry[] = [];
  for await (const e of o.sink.entries({ repo: meta.full })) slim.push(survivorEntry(e));
  const tasks = survivorTasks(slim, meta.defaultBranch, o.survivors ?? 'strict', o.minBody, o.since ?? null);
  let i = Number(run.cp?.cursor ?? 0);
  const CHUNK = o.detailBatch ?? 128;
  while (i < tasks.length) {
    const chunk = tasks.slice(i, i + CHUNK);
    const batch: Required<Pick<IngestBatch, 'comments' | 'events' | 'prFiles'>> = {
      comments: [],
      events: [],
      prFiles: [],
    };
    await Promise.all(
      chunk.map(async (t) => {
        const route =
          t.kind === 'files'
            ? `GET /repos/${owner}/${repo}/pulls/${t.number}/files?per_page=100`
            : `GET /repos/${owner}/${repo}/issues/${t.number}/${t.kind}?per_page=100`;
        const rows: Json[] = [];
        try {
          for await (const res of o.client.octokit.paginate.iterator(
            route as 'GET /repos/{owner}/{repo}/pulls/{pull_number}/files',
          )) {
            run.requests++;
            rows.push(...(res.data as Json[]));
          }
        } catch (e) {
          const status = (e as { status?: number }).status;
          if (status === 404 || status === 410) return;
          throw e;
        }
        if (t.kind === 'comments')
          batch.comments.push(...rows.map((c) => commentFromRest(c, meta.full, t.number)));
        else if (t.kind === 'events')
          batch.events.push(...rows.map((ev) => eventFromRest(ev, meta.full, t.number)));
        else batch.prFiles.push({ repo: meta.full, number: t.number, files: rows.map(fileFromRest) });
      }),
    );
    i += chunk.length;
    await run.save(batch, String(i), i >= tasks.length, chunk.length, { tasks: tasks.length });
    aborted(o);
  }
  if (tasks.length === 0 || (run.cp?.cursor && Number(run.cp.cursor) >= tasks.length))
    await run.save({}, String(tasks.length), true, 0);
}

async function crawlRepo(o: CrawlOptions, meta: RepoMeta): Promise<void> {
  const gen = o.since ? `@${o.since}` : '';
  const step = async (name: string, fn: (run: StreamRun) => Promise<void>) => {
    const stream = `${name}${gen}`;
    const cp = await o.sink.checkpoint(meta.requested, stream);
    const run = new StreamRun(o, meta.requested, stream, cp);
    if (cp?.done) {
      o.onProgress?.({ repo: meta.requested, stream, items: run.items, requests: run.requests, done: true });
      return;
    }
    try {
      await fn(run);
    } catch (e) {
      await run.drain().catch(() => {});
      throw e;
    }
    await run.drain();
  };
  await step('meta', (run) =>
    run.save(
      {
        repos: [
          {
            repo: meta.full,
            default_branch: meta.defaultBranch,
            language: meta.language ?? null,
            stars: meta.stars ?? null,
            github_id: meta.githubId ?? null,
            renamed_from: meta.renamed ? meta.requested : null,
            fetched_at: now(o.client),
          },
        ],
      },
      null,
      true,
      1,
    ),
  );
  // PR details come first and are merged into the entries as the issue pages arrive, so each entry is
  // written once. The prefetch is not checkpointed: it reruns (≈2 points per 100 merged PRs) whenever
  // the issues stream is unfinished.
  const issuesCp = await o.sink.checkpoint(meta.requested, `issues${gen}`);
  if (!issuesCp?.done) {
    const pulls = await prefetchPulls(o, meta);
    await step('issues', (run) => issuesStream(o, meta, run, pulls));
  }
  await step('gql-issues', (run) => crossrefStream(o, meta, run));
  await step('details', (run) => detailsStream(o, meta, run));
}

/** Crawls every repository (resuming from the sink's checkpoints). */
export async function crawl(o: CrawlOptions): Promise<void> {
  const queue = [...o.repos];
  const workers = Array.from(
    { length: Math.max(1, Math.min(o.concurrency ?? 2, queue.length)) },
    async () => {
      for (let meta = queue.shift(); meta; meta = queue.shift()) {
        aborted(o);
        await crawlRepo(o, meta);
      }
    },
  );
  await Promise.all(workers);
}
