/**
 * The crawl planner. Per repository, five streams run in order, each checkpointed after every page
 * (rows + next cursor in one sink transaction):
 *
 * 1. `meta`       repository metadata.
 * 2. `issues`     REST issues+PRs list, created asc, 100 per page, following `link` only. A repository
 *                 with issues disabled (410) is recorded as such and the stream ends.
 * 3. `gql-prs`    GraphQL merged PRs (base branch, changed files, first files, closingIssuesReferences),
 *                 merged into the PR entries stored by step 2; checkpointed per page, so a resume never
 *                 asks for a merged-PR page twice.
 * 4. `gql-issues` GraphQL closed issues: CrossReferencedEvent (willCloseTarget) and ConnectedEvent.
 * 5. `details`    per-entity REST calls only for survivors of the cheap filters (see {@link survivorTasks}):
 *                 issue comments and events, PR files with patches.
 *
 * GraphQL pages adapt their size (gql-pages.ts); nested connections that came back short are asked
 * again per node (nested.ts); `null` nodes are reported as gaps. With `since`, every stream is
 * incremental (`since` on the REST list, `filterBy:{since}` on issues, PRs by `updatedAt` descending
 * down to `since`) and separate (`issues@<since>` …), so an incremental run never mixes with a finished
 * full crawl, and a re-run of the same command resumes.
 */
import { FaunError } from '@faun/kit';
import type { CrossRef, RawEntry } from '@faun/schema';
import type { GitHubClient } from './client.ts';
import { adaptivePage, decodeState, encodeState, type PageState } from './gql-pages.ts';
import { completeIssue, completePull, issueNeedsRefetch, pullNeedsRefetch } from './nested.ts';
import {
  CLOSING_FIRST,
  ISSUES_QUERY,
  ISSUES_SINCE_QUERY,
  PULLS_QUERY,
  PULLS_UPDATED_QUERY,
} from './queries.ts';
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
  /**
   * Repositories crawled in parallel. Default: 2, or one per distinct identity when there are more (the
   * pool keeps each identity serial, so fewer repositories than identities would leave budgets idle).
   */
  concurrency?: number;
  /** `strict` (default): cheap filters first; `linked`: details for every linked pair. */
  survivors?: SurvivorRule;
  /** Per-entity calls per store batch (run concurrently, at most the client's limit at a time; default 128). */
  detailBatch?: number;
  /** Minimum issue body length for `strict` (default 200). */
  minBody?: number;
  signal?: AbortSignal;
  onProgress?: (p: StreamProgress) => void;
  /** A node GitHub answered `null` (partial data) twice; the crawl goes on without it. */
  onGap?: (g: Gap) => void;
  /** Adaptive paging and limit notes. */
  log?: (line: string) => void;
}

export interface Gap {
  repo: string;
  stream: string;
  /** GraphQL error messages beside the `null` node. */
  message: string;
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
  /** GraphQL streams: the current page size, and `null` nodes recorded as gaps. */
  pageSize?: number;
  gaps?: number;
  /** `issues`: the repository has issues disabled (410). */
  issuesDisabled?: boolean;
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

const PAGE_MAX = 100;
const GQL_PAGES_PER_BATCH = 10;

async function issuesStream(o: CrawlOptions, meta: RepoMeta, run: StreamRun): Promise<void> {
  const [owner, repo] = meta.full.split('/') as [string, string];
  const disabled = () => run.save({}, 'issues-disabled', true, 0, { issuesDisabled: true });
  if (meta.hasIssues === false) return disabled();
  const first = `GET /repos/${owner}/${repo}/issues?state=all&sort=created&direction=asc&per_page=100${o.since ? `&since=${encodeURIComponent(o.since)}` : ''}`;
  const start = run.cp?.cursor ? `GET ${run.cp.cursor}` : first;
  try {
    for await (const res of o.client.octokit.paginate.iterator(start as 'GET /repos/{owner}/{repo}/issues')) {
      run.requests++;
      const link = String(res.headers.link ?? '');
      const next = NEXT.exec(link)?.[1] ?? null;
      const last = LAST.exec(link)?.[1];
      const entries = (res.data as Json[]).map((it) => entryFromRest(it, meta.full, meta.defaultBranch));
      await run.save(
        { entries },
        next,
        next === null,
        entries.length,
        last ? { estimatedPages: Number(last) } : {},
      );
      aborted(o);
    }
  } catch (e) {
    // "Issues are disabled for this repo": recorded, not a failure (PRs are still paired from GraphQL).
    if ((e as { status?: number }).status === 410 && run.requests === (run.cp?.requests ?? 0))
      return disabled();
    throw e;
  }
  if (run.requests === (run.cp?.requests ?? 0)) await run.save({}, null, true, 0);
}

const gapMessage = (errors: Json[] | null) => (errors ?? []).map((x) => String(x?.message ?? '')).join('; ');

/** Merged PRs through GraphQL, merged into the stored PR entries page by page. */
async function pullsStream(o: CrawlOptions, meta: RepoMeta, run: StreamRun): Promise<void> {
  const [owner, name] = meta.full.split('/') as [string, string];
  const prs = new Map<number, RawEntry>();
  for await (const e of o.sink.entries({ repo: meta.full })) if (e.kind === 'pr') prs.set(e.number, e);
  const state: PageState = decodeState(run.cp?.cursor, PAGE_MAX);
  const query = o.since ? PULLS_UPDATED_QUERY : PULLS_QUERY;
  const log = o.log ?? (() => {});
  for (;;) {
    // The previous page is stored before the next is asked for: a kill never loses a charged page.
    await run.drain();
    aborted(o);
    run.requests++;
    const { conn, errors } = await adaptivePage(
      o,
      meta,
      query,
      { owner, name, closing: CLOSING_FIRST },
      state,
      PAGE_MAX,
      2,
      (d) => d?.repository?.pullRequests,
      log,
    );
    const entries: RawEntry[] = [];
    let older = false;
    for (let n of conn.nodes ?? []) {
      if (n === null) {
        state.gaps++;
        o.onGap?.({ repo: meta.requested, stream: run.stream, message: gapMessage(errors) });
        continue;
      }
      if (o.since && n.updatedAt && Date.parse(n.updatedAt) < Date.parse(o.since)) {
        older = true;
        break;
      }
      if (pullNeedsRefetch(n)) {
        run.requests++;
        n = await completePull(o, meta, n);
      }
      const e = prs.get(Number(n.number));
      if (e) entries.push({ ...e, pr: pullFromGraphql(n, meta.full) });
    }
    const more = Boolean(conn.pageInfo?.hasNextPage) && !older;
    if (more) state.after = String(conn.pageInfo.endCursor);
    await run.save({ entries }, encodeState(state), !more, entries.length, {
      pageSize: state.first,
      gaps: state.gaps,
    });
    aborted(o);
    if (!more) return;
  }
}

/**
 * Closed issues' cross-references through GraphQL. Pages are small (a few rows each), so rows and the
 * cursor are written every `GQL_PAGES_PER_BATCH` pages (or 500 rows): a crash refetches at most that many.
 */
async function crossrefStream(o: CrawlOptions, meta: RepoMeta, run: StreamRun): Promise<void> {
  const [owner, name] = meta.full.split('/') as [string, string];
  const state: PageState = decodeState(run.cp?.cursor, PAGE_MAX);
  let saved = encodeState(state);
  const query = o.since ? ISSUES_SINCE_QUERY : ISSUES_QUERY;
  const log = o.log ?? (() => {});
  let rows: CrossRef[] = [];
  let pages = 0;
  for (;;) {
    run.requests++;
    const { conn, errors } = await adaptivePage(
      o,
      meta,
      query,
      { owner, name, ...(o.since ? { since: o.since } : {}) },
      state,
      PAGE_MAX,
      1,
      (d) => d?.repository?.issues,
      log,
    );
    for (const n of conn.nodes ?? []) {
      if (n === null) {
        state.gaps++;
        o.onGap?.({ repo: meta.requested, stream: run.stream, message: gapMessage(errors) });
        continue;
      }
      if (issueNeedsRefetch(n)) run.requests += await completeIssue(o, meta, n);
      rows.push(...crossrefsFromGraphql(n, meta.full));
    }
    pages++;
    const more = Boolean(conn.pageInfo?.hasNextPage);
    if (more) state.after = String(conn.pageInfo.endCursor);
    if (!more || pages >= GQL_PAGES_PER_BATCH || rows.length >= 500) {
      saved = encodeState(state);
      await run.save({ crossrefs: rows }, saved, !more, rows.length, {
        pageSize: state.first,
        gaps: state.gaps,
      });
      rows = [];
      pages = 0;
    }
    aborted(o);
    if (!more) return;
  }
}

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
            : `GET /repos/${owner}/${repo}/issues/${t.number}/${t.kind}?per_page=100${
                // Incremental: only comments created or edited since (events have no `since`).
                t.kind === 'comments' && o.since ? `&since=${encodeURIComponent(o.since)}` : ''
              }`;
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
  await step('issues', (run) => issuesStream(o, meta, run));
  await step('gql-prs', (run) => pullsStream(o, meta, run));
  await step('gql-issues', (run) => crossrefStream(o, meta, run));
  await step('details', (run) => detailsStream(o, meta, run));
}

/** Repositories in parallel when none is asked for: 2, or the number of distinct identities if larger. */
export function defaultConcurrency(client: GitHubClient): number {
  return Math.max(2, client.pool.identities().length);
}

/** Crawls every repository (resuming from the sink's checkpoints). */
export async function crawl(o: CrawlOptions): Promise<void> {
  const queue = [...o.repos];
  const workers = Array.from(
    { length: Math.max(1, Math.min(o.concurrency ?? defaultConcurrency(o.client), queue.length)) },
    async () => {
      for (let meta = queue.shift(); meta; meta = queue.shift()) {
        aborted(o);
        await crawlRepo(o, meta);
      }
    },
  );
  await Promise.all(workers);
}
