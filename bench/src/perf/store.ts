/**
 * Store ingest and funnel speed: 800,000 seeded synthetic entries (titles 30–90 chars, bodies 0.8–2 KB)
 * over 8 repositories, ingested in pages of 100 as the crawler sends them (each page one atomic batch
 * with its checkpoint; group commit as the store defaults to), then the funnel stage query on the result.
 * Targets: ingest ≤ 60 s, funnel ≤ 1 s, peak RSS ≤ 2 GB. A second, smaller run commits every page on
 * its own (`maxBatches: 1`) to show what per-page durability costs.
 * Options: --entries N (800000), --repos N (8), --page N (100), --group N (store default),
 * --durable-entries N (40000; 0 skips the per-page-commit run), --comments N (100000 comments upserted
 * into the crawled store afterwards; 0 skips).
 */
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '@faun/store';
import { crawlPages, makeComment, rng } from '@faun/store/testing';
import { parseFlags } from '../args.ts';

const TARGET_INGEST_S = 60;
const TARGET_FUNNEL_S = 1;
const TARGET_RSS = 2 * 1024 ** 3;

export const FLAGS = {
  entries: 800_000,
  repos: 8,
  page: 100,
  group: 0,
  'durable-entries': 40_000,
  comments: 100_000,
};

/** Peak resident set size of this process so far (VmHWM), in bytes. */
function peakRss(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : process.memoryUsage().rss;
}

function size(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

interface IngestRun {
  seconds: number;
  closeSeconds: number;
  /** CPU time of the whole process (all DuckDB threads) during ingest calls, flush and close. */
  cpuSeconds: number;
}

const cpuNow = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
};

async function ingest(
  path: string,
  o: { entries: number; repos: number; page: number; maxBatches?: number },
  log: boolean,
): Promise<IngestRun> {
  const store = await Store.open(path, o.maxBatches ? { commit: { maxBatches: o.maxBatches } } : {});
  let ms = 0;
  let cpu = 0;
  let done = 0;
  let next = 100_000;
  for (const page of crawlPages({ seed: 42, total: o.entries, repos: o.repos, pageSize: o.page })) {
    const t = performance.now();
    const c0 = cpuNow();
    await store.ingest(page);
    cpu += cpuNow() - c0;
    ms += performance.now() - t;
    done += page.entries?.length ?? 0;
    if (log && done >= next) {
      console.log(
        `  ${done} entries, ${(ms / 1000).toFixed(1)} s ingest, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
      );
      next += 100_000;
    }
  }
  const t = performance.now();
  const c0 = cpuNow();
  await store.flush();
  ms += performance.now() - t;
  const c = performance.now();
  await store.close();
  cpu += cpuNow() - c0;
  return { seconds: ms / 1000, closeSeconds: (performance.now() - c) / 1000, cpuSeconds: cpu };
}

/** Upserts `count` comments (8 per issue, pages of 100, with checkpoints) into an existing store. */
async function ingestComments(path: string, count: number, repos: number): Promise<number> {
  const store = await Store.open(path);
  const r = rng(7);
  const t = performance.now();
  for (let at = 0; at < count; at += 100) {
    const repo = `org${(at / 100) % repos}/repo${(at / 100) % repos}`;
    const comments = Array.from({ length: Math.min(100, count - at) }, (_, i) =>
      makeComment(r, repo, 1 + Math.floor((at + i) / 8), at + i + 1),
    );
    const checkpoint = {
      repo,
      stream: 'comments',
      cursor: String(at),
      done: false,
      updated_at: '2026-01-01T00:00:00Z',
    };
    await store.ingest({ comments, checkpoint });
  }
  await store.close();
  return (performance.now() - t) / 1000;
}

export default async function run(args: string[]): Promise<Record<string, unknown>> {
  const f = parseFlags('store', args, FLAGS);
  const { entries, repos, page, group, comments: commentCount } = f;
  const durableEntries = f['durable-entries'];
  const dir = await mkdtemp(join(tmpdir(), 'faun-bench-store-'));
  try {
    const path = join(dir, 'bench.duckdb');
    // The machine may be shared: the 1-minute load average puts the wall-clock figures in context.
    const loadStart = Number(loadavg()[0]?.toFixed(2));
    console.log(`ingesting ${entries} entries over ${repos} repos in pages of ${page}`);
    const main = await ingest(path, { entries, repos, page, maxBatches: group || undefined }, true);
    const ingestSeconds = main.seconds + main.closeSeconds;
    const fileBytes = size(path) + size(`${path}.wal`);

    const store = await Store.open(path, { readOnly: true });
    await store.stageCounts(); // warm the file cache, as a second query in a session would be
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await store.stageCounts();
      times.push((performance.now() - t) / 1000);
    }
    const t = performance.now();
    const counts = await store.counts();
    const countsSeconds = (performance.now() - t) / 1000;
    const stages = await store.stageCounts();
    await store.close();
    const funnelSeconds = times.sort((a, b) => a - b)[1] ?? 0;

    let commentsSeconds: number | null = null;
    if (commentCount > 0) {
      console.log(`comments: ${commentCount} into the same store`);
      commentsSeconds = await ingestComments(path, commentCount, repos);
    }
    let durable: IngestRun | null = null;
    if (durableEntries > 0) {
      console.log(`per-page commit run: ${durableEntries} entries`);
      durable = await ingest(
        join(dir, 'durable.duckdb'),
        { entries: durableEntries, repos, page, maxBatches: 1 },
        false,
      );
    }
    const peak = peakRss();
    const figures = {
      entries,
      page_size: page,
      repos,
      ingest_seconds: Number(ingestSeconds.toFixed(2)),
      ingest_calls_seconds: Number(main.seconds.toFixed(2)),
      close_seconds: Number(main.closeSeconds.toFixed(2)),
      entries_per_second: Math.round(entries / ingestSeconds),
      ingest_cpu_seconds: Number(main.cpuSeconds.toFixed(2)),
      load_average_1m: { start: loadStart, end: Number(loadavg()[0]?.toFixed(2)) },
      funnel_query_seconds: Number(funnelSeconds.toFixed(3)),
      counts_query_seconds: Number(countsSeconds.toFixed(3)),
      candidate_pairs: stages.reduce((a, s) => a + s.candidate_pairs, 0),
      stored_entries: counts.reduce(
        (a, c) => a + c.issues_open + c.issues_closed + c.prs_open + c.prs_closed,
        0,
      ),
      peak_rss_bytes: peak,
      db_file_bytes: fileBytes,
      comments: commentCount,
      comments_per_second: commentsSeconds ? Math.round(commentCount / commentsSeconds) : null,
      per_page_commit_entries_per_second: durable
        ? Math.round(durableEntries / (durable.seconds + durable.closeSeconds))
        : null,
      targets: {
        ingest_seconds: TARGET_INGEST_S,
        funnel_query_seconds: TARGET_FUNNEL_S,
        peak_rss_bytes: TARGET_RSS,
      },
      meets_targets:
        ingestSeconds <= TARGET_INGEST_S && funnelSeconds <= TARGET_FUNNEL_S && peak <= TARGET_RSS,
    };
    console.log(
      `ingest ${figures.ingest_seconds} s (${figures.entries_per_second} entries/s, ${figures.ingest_cpu_seconds} CPU s, load ${loadStart}), funnel ${figures.funnel_query_seconds} s, ` +
        `peak RSS ${(peak / 1e6).toFixed(0)} MB, file ${(fileBytes / 1e6).toFixed(0)} MB` +
        (commentsSeconds ? `; comments ${figures.comments_per_second}/s` : '') +
        (durable ? `; per-page commits: ${figures.per_page_commit_entries_per_second} entries/s` : ''),
    );
    return figures;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
