/**
 * The crawler against GitHub's behaviours as the fake now reproduces them (each from GitHub's docs,
 * changelog or users' reports, cited in testing/): timeouts of big GraphQL pages, budgets per user,
 * load-driven secondary limits, both GraphQL rate-limit spellings, partial answers, short nested
 * connections, issues-disabled repositories, deleted users, token-less GraphQL, and resumes.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { FakeGitHub, type FakeGitHubOptions, type LoggedRequest } from '../testing/index.ts';
import { createClient, type GitHubClient } from './client.ts';
import { SimClock, VirtualClock } from './clock.ts';
import { crawl } from './crawler.ts';
import { decodeState } from './gql-pages.ts';
import { pullFromGraphql } from './records.ts';
import { resolveRepos } from './repos.ts';
import { MemorySink } from './sink.ts';

const CORPUS = { seed: 'behaviour', repos: 3, entries: 900 };
const fakes: FakeGitHub[] = [];
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.stop();
});

interface RunOpts {
  fake?: Partial<FakeGitHubOptions>;
  tokens?: string[];
  repos?: string[];
  sink?: MemorySink;
  on?: FakeGitHub;
  signal?: AbortSignal;
  onProgress?: Parameters<typeof crawl>[0]['onProgress'];
  concurrency?: number;
  /**
   * A virtual clock and the fake answering in process: time passes only through service times and
   * waits, so limits that depend on how much time passes do not depend on the machine's load.
   */
  virtual?: boolean;
}

async function run(o: RunOpts = {}) {
  const clock = o.virtual ? new VirtualClock() : new SimClock(36_000);
  const fake = o.on ?? FakeGitHub.start({ corpus: CORPUS, clock, ...o.fake });
  if (!o.on) fakes.push(fake);
  const client: GitHubClient = createClient({
    baseUrl: fake.url,
    tokens: o.tokens ?? ['fake-token-0', 'fake-token-1'],
    clock: fake.clock,
    signal: o.signal,
    ...(o.virtual ? { fetch: fake.fetch } : {}),
  });
  const sink = o.sink ?? new MemorySink();
  const metas = await resolveRepos(client, o.repos ?? fake.corpus.repos().map((r) => r.full));
  let error: unknown = null;
  try {
    await crawl({
      repos: metas,
      client,
      sink,
      concurrency: o.concurrency ?? 2,
      signal: o.signal,
      onProgress: o.onProgress,
    });
  } catch (e) {
    if (!o.signal) throw e;
    error = e;
  }
  return { fake, client, sink, hash: sink.contentHash(), error };
}

/** GraphQL answers refused for the primary limit (200 without data, not charged). */
const refusedGraphql = (log: LoggedRequest[]) =>
  log.filter((r) => r.resource === 'graphql' && r.status === 200 && !r.charged);

describe('GraphQL pages that time out', () => {
  test('halved on 502 / RESOURCE_LIMITS_EXCEEDED, same contents, resumed at the smaller size', async () => {
    const corpus = { seed: 'heavy', repos: 8, entries: 4000 };
    const repos = ['fake-org/repo-1', 'fake-org/repo-7'];
    const clean = await run({ fake: { corpus }, repos });
    const sink = new MemorySink();
    const ac = new AbortController();
    const faulty = await run({
      fake: { corpus, faults: { load: true } },
      repos,
      sink,
      signal: ac.signal,
      onProgress: (p) => {
        if (p.repo === 'fake-org/repo-7' && p.stream === 'gql-prs' && p.requests >= 1) ac.abort();
      },
    });
    expect(faulty.error).not.toBeNull();
    const cp = await sink.checkpoint('fake-org/repo-7', 'gql-prs');
    expect(decodeState(cp?.cursor, 100).first).toBeLessThan(100);
    const seen = faulty.fake.log.length;
    const resumed = await run({ on: faulty.fake, repos, sink });
    expect(resumed.hash).toBe(clean.hash);
    const firstAfter = faulty.fake.log
      .slice(seen)
      .find((r) => r.detail?.startsWith('pullRequests fake-org/repo-7'));
    expect(firstAfter?.detail).toMatch(/ first 50$/);
    expect(faulty.fake.log.some((r) => r.status === 502)).toBe(true);
  }, 60_000);
});

describe('budgets and secondary limits', () => {
  test('four tokens of one user share its budget: nothing is sent once it is spent', async () => {
    const tokens = ['t1', 't2', 't3', 't4'];
    const owners = Object.fromEntries(tokens.map((t) => [t, 'alice']));
    const r = await run({ fake: { tokens, owners, budget: 80, graphqlBudget: 9 }, tokens });
    expect(r.client.pool.identities()).toEqual(['user:alice']);
    const refused = r.fake.log.filter((x) => x.remaining === 0 && !x.charged && x.status !== 304);
    expect(refused.map((x) => `${x.status} ${x.path}`)).toEqual([]);
    expect(r.sink.counts().entries).toBeGreaterThan(800);
  }, 60_000);

  test('load-driven limits: serial per identity, no secondary limit, same contents', async () => {
    const clean = await run();
    const r = await run({ fake: { faults: { load: true } } });
    expect(r.hash).toBe(clean.hash);
    expect(r.fake.usage().map((u) => [u.identity, u.secondary, u.peakInflight <= 1])).toEqual(
      r.fake.usage().map((u) => [u.identity, 0, true]),
    );
  }, 60_000);

  test('repeated secondary limits are waited out, never a pool-wide abort', async () => {
    const clean = await run();
    const r = await run({
      fake: {
        faults: {
          script: [{ match: '/repos/fake-org/repo-0/issues?', status: 403, times: 9, retryAfter: 61 }],
        },
      },
    });
    expect(r.hash).toBe(clean.hash);
    expect(r.client.counters.secondaryLimited).toBe(9);
  }, 60_000);
});

describe('GraphQL answers GitHub sends', () => {
  test('RATE_LIMIT and RATE_LIMITED are both waited out; costs are checked before sending', async () => {
    const clean = await run();
    // A 10-hour window on a virtual clock: the small budget really runs out, however loaded the machine.
    const r = await run({
      fake: { graphqlBudget: 7, graphqlLimitType: 'RATE_LIMIT', windowSeconds: 36_000 },
      virtual: true,
    });
    expect(r.hash).toBe(clean.hash);
    // The pool reads the points left and the page's cost: no query is sent that GitHub must refuse.
    expect(refusedGraphql(r.fake.log)).toEqual([]);
    expect(r.fake.log.some((x) => x.resource === 'graphql' && x.remaining === 0)).toBe(true);
    const scripted = await run({
      fake: { graphqlBudget: 7, graphqlLimitType: 'both', windowSeconds: 36_000 },
      tokens: ['fake-token-0'],
      virtual: true,
    });
    expect(scripted.hash).toBe(clean.hash);
  }, 60_000);

  test('null nodes beside partial errors and nested connections answered short: same contents', async () => {
    const clean = await run();
    const r = await run({ fake: { faults: { nullNodeEvery: 5, truncateNestedEvery: 3 } } });
    expect(r.hash).toBe(clean.hash);
    expect(r.fake.log.some((x) => x.partial)).toBe(true);
    expect(r.fake.log.some((x) => x.detail?.startsWith('issue fake-org/'))).toBe(true);
    expect(r.fake.log.some((x) => x.detail?.startsWith('pullRequest fake-org/'))).toBe(true);
  }, 60_000);
});

describe('data semantics', () => {
  test('issues disabled is recorded; deleted users are one null marker; one file-status vocabulary', async () => {
    const r = await run({ fake: { issuesDisabled: ['fake-org/repo-1'] } });
    const cp = await r.sink.checkpoint('fake-org/repo-1', 'issues');
    expect(cp).toMatchObject({ done: true, cursor: 'issues-disabled' });
    const entries = [...r.sink.entryRows.values()];
    expect(entries.some((e) => e.repo === 'fake-org/repo-0')).toBe(true);
    expect(entries.some((e) => e.author?.login === 'ghost')).toBe(false);
    expect(entries.some((e) => e.author === null)).toBe(true);
    const pr = pullFromGraphql(
      { files: { nodes: [{ path: 'a', changeType: 'DELETED', additions: 0, deletions: 3 }] } },
      'o/r',
    );
    expect(pr.files?.[0]?.status).toBe('removed');
  }, 60_000);

  test('without a token the crawl stops with a clear message: GraphQL needs one', async () => {
    await expect(run({ tokens: [] })).rejects.toThrow(/GraphQL API needs a token/);
  }, 60_000);
});

describe('resume', () => {
  test('killed at 5 random points: same bytes as an uninterrupted crawl, no merged-PR page twice', async () => {
    // One repository at a time, so the uninterrupted crawl's progress events are a total order.
    const label = (p: { repo: string; stream: string; requests: number; done: boolean }) =>
      `${p.repo}|${p.stream}|${p.requests}|${p.done}`;
    const order: string[] = [];
    const clean = await run({
      tokens: ['fake-token-0'],
      concurrency: 1,
      onProgress: (p) => order.push(label(p)),
    });
    const at = new Map(order.map((l, i) => [l, i]));
    // Deterministic "random" kill points (mulberry32): three anywhere, two between merged-PR pages.
    let seed = 0x5eed;
    const rand = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const midPrs = order.flatMap((l, i) => (/\|gql-prs\|\d+\|false$/.test(l) ? [i] : []));
    expect(midPrs.length).toBeGreaterThan(1);
    const kills = new Set<number>();
    while (kills.size < 2) kills.add(midPrs[Math.floor(rand() * midPrs.length)] ?? 0);
    while (kills.size < 5) kills.add(Math.floor(rand() * (order.length - 1)));
    const fake = FakeGitHub.start({ corpus: CORPUS, clock: new SimClock(36_000) });
    fakes.push(fake);
    const sink = new MemorySink();
    for (const k of [...kills].sort((a, b) => a - b)) {
      const ac = new AbortController();
      const r = await run({
        on: fake,
        tokens: ['fake-token-0'],
        concurrency: 1,
        sink,
        signal: ac.signal,
        // Killed at the first event at or past the kill point in the uninterrupted order.
        onProgress: (p) => {
          if ((at.get(label(p)) ?? -1) >= k) ac.abort();
        },
      });
      expect(r.error).not.toBeNull();
    }
    const done = await run({ on: fake, tokens: ['fake-token-0'], sink });
    expect(done.hash).toBe(clean.hash);
    const prPages = fake.log
      .filter((r) => r.detail?.startsWith('pullRequests ') && r.status === 200 && r.charged && !r.partial)
      .map((r) => r.detail?.replace(/ first \d+$/, ''));
    expect(prPages.length).toBeGreaterThan(3);
    expect(prPages.length).toBe(new Set(prPages).size);
  }, 120_000);

  test('incremental: both GraphQL streams read only what changed since', async () => {
    const first = await run({ tokens: ['fake-token-0'] });
    const full = first.fake.log.filter((r) => r.resource === 'graphql').length;
    const client = createClient({
      baseUrl: first.fake.url,
      tokens: ['fake-token-0'],
      clock: first.fake.clock,
    });
    first.fake.log.length = 0;
    await crawl({
      repos: await resolveRepos(
        client,
        first.fake.corpus.repos().map((r) => r.full),
      ),
      client,
      sink: first.sink,
      since: '2020-01-25T00:00:00Z',
    });
    expect(first.sink.contentHash()).toBe(first.hash);
    const inc = first.fake.log.filter((r) => r.resource === 'graphql').length;
    expect(inc).toBeGreaterThan(0);
    expect(inc).toBeLessThan(full);
  }, 60_000);
});
