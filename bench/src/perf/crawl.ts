/**
 * Crawl cost and speed: a full `faun crawl` pipeline (client, planner, DuckDB store) against the fake
 * GitHub over 30 generated repositories (default 100,000 entries; `--entries 800000` for the full
 * size), with load-driven faults on (secondary limits from each identity's concurrency, CPU time and
 * points per minute; GraphQL timeouts on heavy repositories; `--faults none` turns them off), on a
 * virtual clock (time passes only through the fake's service times and the client's waits; code and
 * store writes take none) with the fake answering in process (`fake.fetch`, no sockets). It crawls
 * four times, once per credential set: 1 token; 4 tokens of one user; 4 users; one GitHub App
 * installation, and reports for each the simulated wall time — per identity the largest of REST
 * requests / its hourly limit, GraphQL points / its hourly limit, and its busy time plus
 * secondary-limit waits (load model of the fake), then the largest over identities — and the virtual
 * clock's elapsed time (how long the crawl took with its waits). Also: API requests per entry for the bulk stage (issue lists + GraphQL pairing; target
 * ≤ 0.05), pool-wide aborts (target 0), wall time, peak RSS (≤ 2 GB), store ingest time (800k ≤ 60 s)
 * and the funnel stage query (≤ 1 s) of the first run. Options: --entries N, --repos N (30),
 * --concurrency N (0: the crawler's default, 2 or one per identity), --configs 1,4same,4users,app, --faults load|none, --jobs N (configurations side by side in child processes; 0: one per core), --store first|all|none: the
 * DuckDB store (and its ETag cache) behind the first configuration only (default; the others write to
 * an in-memory sink that keeps what the crawler reads back — same requests, same figures) or behind
 * every one (`none`: no store figures). Prints a progress line every 15 s.
 */

import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  appTokens,
  type CrawlSink,
  crawl,
  createClient,
  type EtagCache,
  type IngestBatch,
  resolveRepos,
  trackRealTimers,
  VirtualClock,
} from '@faun/github';
import { FakeGitHub, type FakeGitHubOptions } from '@faun/github/testing';
import type { RawEntry } from '@faun/schema';
import { Store } from '@faun/store';
import { parseFlags } from '../args.ts';

export const FLAGS = {
  entries: 100_000,
  repos: 30,
  /** Repositories in parallel; 0: the crawler's default (2, or one per identity when more). */
  concurrency: 0,
  faults: 'load',
  configs: '1,4same,4users,app',
  store: 'first',
  /** Configurations run side by side, each in its own process (0: one per core). */
  jobs: 0,
};

/** Trimmed bodies up to this length are kept as a shared string of that length (survivor rules read the length). */
const BODY_CAP = 1024;
const bodies: string[] = [];
const bodyOf = (b: string | null): string => {
  const n = Math.min(BODY_CAP, (b ?? '').trim().length);
  bodies[n] ??= 'x'.repeat(n);
  return bodies[n];
};

/**
 * In-memory sink for the configurations that do not measure the store: checkpoints and, per entry,
 * what the crawler reads back (PR entries for the merged-PR pass, survivor fields for the details).
 */
class LeanSink implements CrawlSink {
  private readonly rows = new Map<string, Map<number, RawEntry>>();
  private readonly cps = new Map<string, Awaited<ReturnType<CrawlSink['checkpoint']>>>();
  async ingest(b: IngestBatch): Promise<void> {
    for (const e of b.entries ?? []) {
      let m = this.rows.get(e.repo);
      if (!m) this.rows.set(e.repo, (m = new Map()));
      m.set(e.number, { ...e, title: '', body: bodyOf(e.body), labels: [] });
    }
    if (b.checkpoint) this.cps.set(`${b.checkpoint.repo}|${b.checkpoint.stream}`, { ...b.checkpoint });
  }
  async checkpoint(repo: string, stream: string) {
    return this.cps.get(`${repo}|${stream}`) ?? null;
  }
  async *entries(filter: { repo: string }): AsyncIterable<RawEntry> {
    yield* this.rows.get(filter.repo)?.values() ?? [];
  }
}

/** A fresh crawl never revalidates: no answers kept. */
const noEtags = (): EtagCache => ({
  get: () => undefined,
  set: () => {},
  flush: async () => {},
  stats: { hits: 0, stores: 0 },
});

export function peakRss(): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) * 1024 : process.memoryUsage().rss;
}

export type Config = '1' | '4same' | '4users' | 'app';
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
  /** Virtual clock time from the first request to the end of the crawl (waits for resets included). */
  simulated_clock_hours: number;
  per_identity: Record<string, unknown>[];
  wall_seconds: number;
}

/** Time inside store ingest: overlapping calls counted once (`ms`), and per stream (each call). */
interface IngestTiming {
  /** Ingest calls in progress (the virtual clock holds still meanwhile). */
  active: number;
  since: number;
  ms: number;
  byKind: Record<string, { batches: number; ms: number }>;
}

/** A crawl sink over the store (or the lean in-memory sink) that times each ingest. */
function timedSink(target: Store | LeanSink, t: IngestTiming): CrawlSink {
  return {
    async ingest(b) {
      if (t.active++ === 0) t.since = performance.now();
      const t0 = performance.now();
      try {
        await target.ingest(b);
      } finally {
        if (--t.active === 0) t.ms += performance.now() - t.since;
        const kind = b.checkpoint?.stream.replace(/@.*/, '') ?? 'other';
        const k = (t.byKind[kind] ??= { batches: 0, ms: 0 });
        k.batches++;
        k.ms += performance.now() - t0;
      }
    },
    checkpoint: (r, s) => target.checkpoint(r, s),
    entries: (f) => target.entries(f),
  };
}

/** The run's figures from the fake's request log and per-identity usage. */
function crawlFigures(
  c: Config,
  entries: number,
  fake: FakeGitHub,
  client: ReturnType<typeof createClient>,
  simulatedMs: number,
  aborts: number,
  wall: number,
): RunFigures {
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
  return {
    config: LABEL[c],
    identities: client.pool.identities().length,
    requests_total: log.length,
    requests_bulk: bulk.length,
    requests_per_entry_bulk: bulk.length / entries,
    pool_wide_aborts: aborts + client.counters.aborted,
    secondary_limits: usage.reduce((s, u) => s + u.secondary, 0),
    graphql_timeouts: usage.reduce((s, u) => s + u.timeouts, 0),
    simulated_wall_hours: Math.max(0, ...hours),
    simulated_clock_hours: simulatedMs / 3_600_000,
    per_identity: usage.map((u, i) => ({ ...u, hours: hours[i] })),
    wall_seconds: wall,
  };
}

/** What the kept store shows: entries stored, ingest time and rate, the funnel query's time. */
async function storeFigures(
  store: Store,
  t: IngestTiming,
  entries: number,
): Promise<Record<string, unknown>> {
  const f0 = performance.now();
  const stages = await store.stageCounts();
  const funnelSeconds = (performance.now() - f0) / 1000;
  const [row] = await store.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM entries');
  return {
    entries_stored: Number(row?.n ?? 0),
    /** Time in store ingest for the entry pages (the issues stream: every entry, once). */
    ingest_seconds: (t.byKind.issues?.ms ?? 0) / 1000,
    ingest_entries_per_second: entries / ((t.byKind.issues?.ms ?? 1) / 1000),
    /** Time in store ingest for every batch (entries, PR info, cross-references, comments, events, files). */
    ingest_seconds_all_streams: t.ms / 1000,
    ingest_by_stream: t.byKind,
    funnel_query_seconds: funnelSeconds,
    funnel_stages: stages.length,
  };
}

export async function runConfig(
  c: Config,
  o: {
    entries: number;
    repos: number;
    concurrency: number;
    faults: boolean;
    keepStore: boolean;
    duckdb: boolean;
  },
): Promise<{ figures: RunFigures; store?: Record<string, unknown> }> {
  const dir = await mkdtemp(join(tmpdir(), 'faun-bench-crawl-'));
  // Store writes in progress, or requests queued behind a real timer (Bottleneck's scheduling): the
  // virtual clock holds still meanwhile (they take no simulated time).
  const timing: IngestTiming = { active: 0, since: 0, ms: 0, byKind: {} };
  const timers = trackRealTimers();
  const clock = new VirtualClock(
    Date.parse('2026-01-01T00:00:00Z'),
    () => timing.active > 0 || timers.pending() > 0,
  );
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
  const store = o.duckdb ? await Store.open(join(dir, 'crawl.duckdb')) : null;
  const sink = timedSink(store ?? new LeanSink(), timing);
  const sources = cred.app ? await cred.app().sources() : [];
  const client = createClient({
    baseUrl: fake.url,
    tokens: cred.tokens,
    sources,
    clock,
    etags: store ? store.etags() : noEtags(),
    fetch: fake.fetch,
  });
  const started = performance.now();
  const t0 = clock.now();
  const listed = new Map<string, number>();
  let aborts = 0;
  const progress = setInterval(() => {
    console.log(
      `  [${LABEL[c]}] ${[...listed.values()].reduce((a, b) => a + b, 0).toLocaleString('en')} of ${o.entries.toLocaleString('en')} entries listed, ${fake.log.length.toLocaleString('en')} requests, ${((clock.now() - t0) / 3_600_000).toFixed(2)} simulated h, ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  }, 15_000);
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
        concurrency: o.concurrency > 0 ? o.concurrency : undefined,
        onProgress: (p) => {
          if (p.stream.startsWith('issues')) listed.set(p.repo, p.items);
        },
      });
    } catch (e) {
      aborts++;
      console.log(`  [${LABEL[c]}] crawl aborted: ${(e as Error).message}`);
    }
    const t = performance.now();
    await store?.flush();
    timing.ms += performance.now() - t;
    const wall = (performance.now() - started) / 1000;
    const figures = crawlFigures(c, o.entries, fake, client, clock.now() - t0, aborts, wall);
    console.log(
      `  [${LABEL[c]}] ${figures.identities} identit${figures.identities === 1 ? 'y' : 'ies'}: ${figures.simulated_wall_hours.toFixed(2)} simulated hours (virtual clock ${figures.simulated_clock_hours.toFixed(2)} h), ${figures.requests_per_entry_bulk.toFixed(4)} bulk requests/entry, ${figures.secondary_limits} secondary limits, ${figures.pool_wide_aborts} aborts (${wall.toFixed(0)} s)`,
    );
    if (!o.keepStore || !store) return { figures };
    return { figures, store: await storeFigures(store, timing, o.entries) };
  } finally {
    clearInterval(progress);
    timers.restore();
    await store?.close();
    await fake.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

type RunOptions = Parameters<typeof runConfig>[1];
type RunResult = Awaited<ReturnType<typeof runConfig>> & { peak_rss_bytes?: number };

/**
 * Runs each configuration in a child process (crawl-child.ts), `jobs` at a time: the virtual clock
 * waits for real timers between requests, so one process leaves a core partly idle. Progress lines
 * come through as they are printed; each child's last stdout line is its result.
 */
async function inChildren(
  configs: Config[],
  opts: (i: number) => RunOptions,
  jobs: number,
): Promise<(RunResult | undefined)[]> {
  const out: (RunResult | undefined)[] = new Array(configs.length);
  let next = 0;
  const child = join(import.meta.dir, 'crawl-child.ts');
  const worker = async () => {
    for (let i = next++; i < configs.length; i = next++) {
      const c = configs[i] as Config;
      const p = Bun.spawn([process.execPath, child, c, JSON.stringify(opts(i))], {
        stdout: 'pipe',
        stderr: 'inherit',
      });
      const text = await new Response(p.stdout).text();
      const code = await p.exited;
      const last = text.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('{'))
        throw new Error(`crawl bench: configuration ${c} failed (exit ${code}); its output is above`);
      out[i] = JSON.parse(last) as RunResult;
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  return out;
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
  let childPeak = 0;
  const jobs = Math.min(configs.length, flags.jobs > 0 ? flags.jobs : availableParallelism());
  const opts = (i: number) => {
    const duckdb = flags.store === 'all' || (i === 0 && flags.store !== 'none');
    return { entries, repos, concurrency, faults, keepStore: i === 0, duckdb };
  };
  if (jobs <= 1)
    for (const [i, c] of configs.entries()) {
      const r = await runConfig(c, opts(i));
      runs[c] = r.figures;
      store ??= r.store ?? {};
    }
  else {
    const results = await inChildren(configs, opts, jobs);
    for (const [i, c] of configs.entries()) {
      const r = results[i];
      if (!r) continue;
      childPeak = Math.max(childPeak, r.peak_rss_bytes ?? 0);
      runs[c] = r.figures;
      if (i === 0) store = r.store ?? {};
    }
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
    /** The same ratios on the virtual clock's elapsed time (how long the crawl took, waits included). */
    simulated_clock_hours: Object.fromEntries(configs.map((c) => [LABEL[c], runs[c]?.simulated_clock_hours])),
    requests_per_entry_bulk: Math.max(...Object.values(runs).map((r) => r.requests_per_entry_bulk)),
    pool_wide_aborts: Object.values(runs).reduce((s, r) => s + r.pool_wide_aborts, 0),
    ...(store ?? {}),
    /** The largest over this process and the configurations' child processes. */
    peak_rss_bytes: Math.max(peakRss(), childPeak),
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
