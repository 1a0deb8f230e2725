/**
 * Crawl cost and speed: a full `faun crawl` pipeline (client, planner, DuckDB store) against the fake
 * GitHub over 30 generated repositories (default 100,000 entries; `--entries 800000` for the full
 * size), with load-driven faults on (secondary limits from each identity's concurrency, CPU time and
 * points per minute; GraphQL timeouts on heavy repositories; `--faults none` turns them off), on a
 * simulated clock (1 h = 0.1 s). It crawls four times, once per credential set: 1 token; 4 tokens of
 * one user; 4 users; one GitHub App installation, and reports for each the simulated wall time —
 * per identity the largest of REST requests / its hourly limit, GraphQL points / its hourly limit,
 * and its busy time plus secondary-limit waits (load model of the fake), then the largest over
 * identities. Also: API requests per entry for the bulk stage (issue lists + GraphQL pairing; target
 * ≤ 0.05), pool-wide aborts (target 0), wall time, peak RSS (≤ 2 GB), store ingest time (800k ≤ 60 s)
 * and the funnel stage query (≤ 1 s) of the first run. Options: --entries N, --repos N (30),
 * --concurrency N (2), --configs 1,4same,4users,app, --faults load|none.
 */

import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appTokens, type CrawlSink, crawl, createClient, resolveRepos, SimClock } from '@faun/github';
import { FakeGitHub, type FakeGitHubOptions } from '@faun/github/testing';
import { Store } from '@faun/store';
import { parseFlags } from '../args.ts';

export const FLAGS = {
  entries: 100_000,
  repos: 30,
  concurrency: 2,
  faults: 'load',
  configs: '1,4same,4users,app',
};

function peakRss(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : process.memoryUsage().rss;
}

type Config = '1' | '4same' | '4users' | 'app';
const CONFIGS: Config[] = ['1', '4same', '4users', 'app'];
const LABEL: Record<Config, string> = {
  '1': '1 token',
  '4same': '4 tokens of one user',
  '4users': '4 users',
  app: 'one App installation',
};

/** Fake options and client credentials for a configuration. */
async function credentials(
  c: Config,
  url: () => string,
): Promise<{ fake: Partial<FakeGitHubOptions>; tokens: string[]; app?: () => ReturnType<typeof appTokens> }> {
  if (c === '1')
    return { fake: { tokens: ['t-alice'], owners: { 't-alice': 'alice' } }, tokens: ['t-alice'] };
  if (c === '4same') {
    const tokens = ['t-a1', 't-a2', 't-a3', 't-a4'];
    return { fake: { tokens, owners: Object.fromEntries(tokens.map((t) => [t, 'alice'])) }, tokens };
  }
  if (c === '4users') {
    const tokens = ['t-alice', 't-bob', 't-carol', 't-dave'];
    return {
      fake: { tokens, owners: Object.fromEntries(tokens.map((t) => [t, t.slice(2)])) },
      tokens,
    };
  }
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  return {
    fake: { tokens: [], app: { id: 4242, installations: [1] } },
    tokens: [],
    app: () => appTokens({ appId: 4242, privateKey: pem, installationIds: [1], baseUrl: url() }),
  };
}

interface RunFigures {
  config: string;
  identities: number;
  requests_total: number;
  requests_bulk: number;
  requests_per_entry_bulk: number;
  pool_wide_aborts: number;
  secondary_limits: number;
  graphql_timeouts: number;
  simulated_wall_hours: number;
  per_identity: Record<string, unknown>[];
  wall_seconds: number;
}

async function runConfig(
  c: Config,
  o: { entries: number; repos: number; concurrency: number; faults: boolean; keepStore: boolean },
): Promise<{ figures: RunFigures; store?: Record<string, unknown> }> {
  const dir = await mkdtemp(join(tmpdir(), 'faun-bench-crawl-'));
  const clock = new SimClock(36_000);
  let fakeUrl = '';
  const cred = await credentials(c, () => fakeUrl);
  const fake = FakeGitHub.start({
    corpus: { seed: 'bench', repos: o.repos, entries: o.entries },
    clock,
    maxLog: 5_000_000,
    faults: o.faults ? { load: true } : {},
    ...cred.fake,
  });
  fakeUrl = fake.url;
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
  const sources = cred.app ? await cred.app().sources() : [];
  const client = createClient({
    baseUrl: fake.url,
    tokens: cred.tokens,
    sources,
    clock,
    etags: store.etags(),
  });
  const started = performance.now();
  let pages = 0;
  let aborts = 0;
  try {
    await client.identify();
    const metas = await resolveRepos(
      client,
      fake.corpus.repos().map((r) => r.full),
    );
    try {
      await crawl({
        repos: metas,
        client,
        sink,
        concurrency: o.concurrency,
        onProgress: (p) => {
          if (p.stream === 'issues' && ++pages % 500 === 0)
            console.log(
              `  [${LABEL[c]}] ${pages} issue pages, ${((performance.now() - started) / 1000).toFixed(0)} s`,
            );
        },
      });
    } catch (e) {
      aborts++;
      console.log(`  [${LABEL[c]}] crawl aborted: ${(e as Error).message}`);
    }
    const t = performance.now();
    await store.flush();
    ingestMs += performance.now() - t;
    const wall = (performance.now() - started) / 1000;
    const log = fake.log;
    const bulk = log.filter(
      (r) =>
        r.path.startsWith('/graphql') || /\/issues\?/.test(r.path) || /^\/repos\/[^/]+\/[^/]+$/.test(r.path),
    );
    const usage = fake.usage().filter((u) => u.identity !== 'anonymous');
    const hours = usage.map((u) =>
      Math.max(
        u.coreCharged / u.coreLimit,
        u.graphqlPoints / u.graphqlLimit,
        (u.busyMs + u.penaltyMs) / 3_600_000,
      ),
    );
    const figures: RunFigures = {
      config: LABEL[c],
      identities: client.pool.identities().length,
      requests_total: log.length,
      requests_bulk: bulk.length,
      requests_per_entry_bulk: bulk.length / o.entries,
      pool_wide_aborts: aborts + client.counters.aborted,
      secondary_limits: usage.reduce((s, u) => s + u.secondary, 0),
      graphql_timeouts: usage.reduce((s, u) => s + u.timeouts, 0),
      simulated_wall_hours: Math.max(0, ...hours),
      per_identity: usage.map((u, i) => ({ ...u, hours: hours[i] })),
      wall_seconds: wall,
    };
    console.log(
      `  [${LABEL[c]}] ${figures.identities} identit${figures.identities === 1 ? 'y' : 'ies'}: ${figures.simulated_wall_hours.toFixed(2)} simulated hours, ${figures.requests_per_entry_bulk.toFixed(4)} bulk requests/entry, ${figures.secondary_limits} secondary limits, ${figures.pool_wide_aborts} aborts (${wall.toFixed(0)} s)`,
    );
    if (!o.keepStore) return { figures };
    const f0 = performance.now();
    const stages = await store.stageCounts();
    const funnelSeconds = (performance.now() - f0) / 1000;
    const [row] = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM entries');
    return {
      figures,
      store: {
        entries_stored: Number(row?.n ?? 0),
        /** Time in store ingest for the entry pages (the issues stream: every entry, once). */
        ingest_seconds: (byKind.issues?.ms ?? 0) / 1000,
        ingest_entries_per_second: o.entries / ((byKind.issues?.ms ?? 1) / 1000),
        /** Time in store ingest for every batch (entries, PR info, cross-references, comments, events, files). */
        ingest_seconds_all_streams: ingestMs / 1000,
        ingest_by_stream: byKind,
        funnel_query_seconds: funnelSeconds,
        funnel_stages: stages.length,
      },
    };
  } finally {
    await store.close();
    await fake.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

export default async function crawlBench(args: string[]): Promise<Record<string, unknown>> {
  const flags = parseFlags('crawl', args, FLAGS);
  const { entries, repos, concurrency } = flags;
  const faults = (flags.faults ?? 'load') !== 'none';
  const configs = (flags.configs ?? CONFIGS.join(','))
    .split(',')
    .filter((x): x is Config => (CONFIGS as string[]).includes(x));
  const runs: Record<string, RunFigures> = {};
  let store: Record<string, unknown> | undefined;
  for (const c of configs) {
    const r = await runConfig(c, { entries, repos, concurrency, faults, keepStore: store === undefined });
    runs[c] = r.figures;
    store ??= r.store;
  }
  const h = (c: Config) => runs[c]?.simulated_wall_hours;
  const ratio = (a: Config, b: Config) => {
    const x = h(a);
    const y = h(b);
    return x !== undefined && y ? x / y : null;
  };
  const figures = {
    entries,
    repos,
    faults: faults ? 'load' : 'none',
    runs,
    simulated_wall_hours: Object.fromEntries(configs.map((c) => [LABEL[c], h(c)])),
    /** 4 tokens of one user / 1 token (target: within 10%, i.e. 0.9–1.1). */
    ratio_4_tokens_one_user: ratio('4same', '1'),
    /** 4 distinct users / 1 user (target ≤ 0.30). */
    ratio_4_users: ratio('4users', '1'),
    ratio_app: ratio('app', '1'),
    requests_per_entry_bulk: Math.max(...Object.values(runs).map((r) => r.requests_per_entry_bulk)),
    pool_wide_aborts: Object.values(runs).reduce((s, r) => s + r.pool_wide_aborts, 0),
    ...(store ?? {}),
    peak_rss_bytes: peakRss(),
    targets: {
      requests_per_entry_bulk: 0.05,
      pool_wide_aborts: 0,
      ratio_4_tokens_one_user: [0.9, 1.1],
      ratio_4_users: 0.3,
      ingest_seconds_800k: 60,
      funnel_query_seconds: 1,
      peak_rss_bytes: 2 * 1024 ** 3,
    },
  };
  console.log(JSON.stringify({ ...figures, runs: undefined }, null, 2));
  const f = (c: Config) => (h(c) === undefined ? 'n/a' : `${h(c)?.toFixed(2)} h`);
  console.log(
    `simulated wall time: 1 token ${f('1')}, 4 tokens of one user ${f('4same')}, 4 users ${f('4users')}, one App ${f('app')}`,
  );
  return figures;
}
