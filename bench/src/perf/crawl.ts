/**
 * Crawl cost and speed: a full `faun crawl` pipeline (client, planner, DuckDB store) against the fake
 * GitHub over 30 generated repositories (default 100,000 entries; `--entries 800000` for the full
 * size), 4 tokens of 5,000 requests/hour on a simulated clock (1 h = 0.1 s). Reports API requests per
 * entry for the bulk stage (issue lists + GraphQL pairing; target ≤ 0.05), total requests and simulated
 * token-hours, wall time, peak RSS (≤ 2 GB), time spent in store ingest (800k ≤ 60 s) and the funnel
 * stage query (≤ 1 s). Options: --entries N, --repos N (30), --tokens N (4), --concurrency N (2).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CrawlSink, crawl, createClient, resolveRepos, SimClock } from '@faun/github';
import { FakeGitHub } from '@faun/github/testing';
import { Store } from '@faun/store';
import { parseFlags } from '../args.ts';

export const FLAGS = { entries: 100_000, repos: 30, tokens: 4, concurrency: 2 };

function peakRss(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : process.memoryUsage().rss;
}

export default async function crawlBench(args: string[]): Promise<Record<string, unknown>> {
  const { entries, repos, tokens: tokenCount, concurrency } = parseFlags('crawl', args, FLAGS);
  const dir = await mkdtemp(join(tmpdir(), 'faun-bench-crawl-'));
  const clock = new SimClock(36_000);
  const tokens = Array.from({ length: tokenCount }, (_, i) => `bench-token-${i}`);
  const fake = FakeGitHub.start({
    corpus: { seed: 'bench', repos, entries },
    clock,
    tokens,
    maxLog: 5_000_000,
  });
  const store = await Store.open(join(dir, 'crawl.duckdb'));
  // Time inside store.ingest (overlapping calls counted once).
  let active = 0;
  let since = 0;
  let ingestMs = 0;
  const byKind: Record<string, { batches: number; ms: number }> = {};
  const sink: CrawlSink = {
    async ingest(b) {
      if (active++ === 0) since = performance.now();
      const t0 = performance.now();
      try {
        await store.ingest(b);
      } finally {
        if (--active === 0) ingestMs += performance.now() - since;
        const kind = b.checkpoint?.stream.replace(/@.*/, '') ?? 'other';
        const k = (byKind[kind] ??= { batches: 0, ms: 0 });
        k.batches++;
        k.ms += performance.now() - t0;
      }
    },
    checkpoint: (r, s) => store.checkpoint(r, s),
    entries: (f) => store.entries(f),
  };
  const client = createClient({ baseUrl: fake.url, tokens, clock, maxConcurrent: 64 });
  const started = performance.now();
  let pages = 0;
  try {
    const metas = await resolveRepos(
      client,
      fake.corpus.repos().map((r) => r.full),
    );
    await crawl({
      repos: metas,
      client,
      sink,
      concurrency,
      onProgress: (p) => {
        if (p.stream === 'issues' && ++pages % 500 === 0)
          console.log(`  ${pages} issue pages, ${((performance.now() - started) / 1000).toFixed(0)} s`);
      },
    });
    const t = performance.now();
    await store.flush();
    ingestMs += performance.now() - t;
    const wall = (performance.now() - started) / 1000;
    const f0 = performance.now();
    const stages = await store.stageCounts();
    const funnelSeconds = (performance.now() - f0) / 1000;
    const [row] = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM entries');
    const stored = Number(row?.n ?? 0);
    const log = fake.log;
    const bulk = log.filter(
      (r) =>
        r.path.startsWith('/graphql') || /\/issues\?/.test(r.path) || /^\/repos\/[^/]+\/[^/]+$/.test(r.path),
    );
    const core = log.filter((r) => r.resource === 'core' && r.charged).length;
    const points = log.filter((r) => r.resource === 'graphql').reduce((s, r) => s + r.cost, 0);
    const figures = {
      entries,
      entries_stored: stored,
      repos,
      tokens: tokenCount,
      requests_total: log.length,
      requests_bulk: bulk.length,
      requests_per_entry_bulk: bulk.length / entries,
      requests_per_entry_total: log.length / entries,
      requests_core_charged: core,
      graphql_points: points,
      simulated_token_hours: (core + points) / 5000,
      /** Hours the crawl needs at 5,000/h per token with all tokens busy (REST and GraphQL budgets are separate). */
      min_crawl_hours: Math.max(core, points) / (5000 * tokenCount),
      wall_seconds: wall,
      /** Time in store ingest for the entry pages (the issues stream: every entry, once). */
      ingest_seconds: (byKind.issues?.ms ?? 0) / 1000,
      ingest_entries_per_second: entries / ((byKind.issues?.ms ?? 1) / 1000),
      /** Time in store ingest for every batch (entries, cross-references, comments, events, PR files). */
      ingest_seconds_all_streams: ingestMs / 1000,
      ingest_by_stream: byKind,
      funnel_query_seconds: funnelSeconds,
      funnel_stages: stages.length,
      peak_rss_bytes: peakRss(),
      targets: {
        requests_per_entry_bulk: 0.05,
        ingest_seconds_800k: 60,
        funnel_query_seconds: 1,
        peak_rss_bytes: 2 * 1024 ** 3,
      },
    };
    console.log(JSON.stringify(figures, null, 2));
    return figures;
  } finally {
    await store.close();
    await fake.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
