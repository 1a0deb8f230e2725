/**
 * The crawler against the fake GitHub: every fault on gives the same contents as no faults, no page is
 * fetched twice, nothing is sent while waiting for a reset, 304s are free.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { ALL_FAULTS, FakeGitHub, type FakeGitHubOptions, type LoggedRequest } from '../testing/index.ts';
import { createClient, type GitHubClient } from './client.ts';
import { SimClock } from './clock.ts';
import { crawl } from './crawler.ts';
import { MemoryEtagCache } from './etag.ts';
import { resolveRepos } from './repos.ts';
import { MemorySink } from './sink.ts';

const CORPUS = { seed: 'crawler-test', repos: 3, entries: 1500 };
const fakes: FakeGitHub[] = [];
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.stop();
});

async function run(
  opts: Partial<FakeGitHubOptions>,
  tokens = ['fake-token-0', 'fake-token-1'],
  etags = new MemoryEtagCache(),
  scale = 36_000,
) {
  const clock = new SimClock(scale);
  const fake = FakeGitHub.start({ corpus: CORPUS, clock, ...opts });
  fakes.push(fake);
  const client = createClient({ baseUrl: fake.url, tokens, clock, etags });
  const sink = new MemorySink();
  const metas = await resolveRepos(
    client,
    fake.corpus.repos().map((r) => r.full),
  );
  await crawl({ repos: metas, client, sink, concurrency: 3 });
  return { fake, client, sink, hash: sink.contentHash() };
}

const pageKey = (r: LoggedRequest) => `${r.method} ${r.path} ${r.detail ?? ''}`;

function duplicates(log: LoggedRequest[]): string[] {
  const seen = new Set<string>();
  const dup: string[] = [];
  for (const r of log) {
    // GET /user is the identity lookup, once per token.
    // A partial answer (null nodes beside errors) is asked again on purpose.
    if (r.status !== 200 || !r.charged || r.path === '/user' || r.partial) continue;
    const k = pageKey(r);
    if (seen.has(k)) dup.push(k);
    seen.add(k);
  }
  return dup;
}

/** Requests a token sent while its budget was known spent (after a remaining-0 answer, before its reset). */
function sentWhileWaiting(log: LoggedRequest[]): LoggedRequest[] {
  const blockedUntil = new Map<string, number>();
  const bad: LoggedRequest[] = [];
  for (const r of [...log].sort((a, b) => a.seq - b.seq)) {
    const k = `${r.token}|${r.resource}`;
    if (r.at < (blockedUntil.get(k) ?? 0)) bad.push(r);
    if (r.remaining === 0) blockedUntil.set(k, r.resetAt);
  }
  return bad;
}

describe('crawl against the fake GitHub', () => {
  test('every fault enabled: same contents as a fault-free crawl, no page twice, no send during a wait', async () => {
    const clean = await run({});
    const faulty = await run(
      { faults: ALL_FAULTS, budget: 60, graphqlBudget: 8 },
      undefined,
      undefined,
      1800,
    );
    expect(clean.sink.counts().entries).toBeGreaterThan(1400);
    expect(clean.sink.counts().prFiles).toBeGreaterThan(50);
    expect(faulty.hash).toBe(clean.hash);
    const st = faulty.fake.stats().byStatus;
    for (const s of ['500', '502', '503', '504']) expect({ s, n: (st[s] ?? 0) > 0 }).toEqual({ s, n: true });
    // Load-driven secondary limits: the serial governor never trips them.
    expect(faulty.fake.usage().map((u) => u.secondary)).toEqual(faulty.fake.usage().map(() => 0));
    expect(faulty.client.counters.aborted).toBe(0);
    expect(duplicates(clean.fake.log)).toEqual([]);
    expect(duplicates(faulty.fake.log)).toEqual([]);
    expect(sentWhileWaiting(faulty.fake.log)).toEqual([]);
    // The small budgets were spent to 0 (so the client had to wait for resets), yet no answer was a
    // primary-limit refusal: the pool waits before sending.
    expect(faulty.fake.log.some((r) => r.remaining === 0 && r.resource === 'core')).toBe(true);
    expect(faulty.fake.log.some((r) => r.remaining === 0 && r.resource === 'graphql')).toBe(true);
    expect(faulty.fake.log.filter((r) => r.remaining === 0 && !r.charged && r.status !== 304)).toEqual([]);
  }, 60_000);

  test('a secondary limit pauses the retry for retry-after; a scripted primary limit waits for the reset', async () => {
    const clock = new SimClock(36_000);
    const fake = FakeGitHub.start({
      corpus: CORPUS,
      clock,
      faults: {
        script: [
          { match: '/repos/fake-org/repo-0/issues?', status: 429, times: 1, retryAfter: 30 },
          { match: '/repos/fake-org/repo-1/issues?', status: 403, times: 1, kind: 'primary' },
          { match: '/repos/fake-org/repo-0/issues/', status: 429, times: 1, kind: 'primary' },
        ],
      },
    });
    fakes.push(fake);
    const client = createClient({ baseUrl: fake.url, tokens: ['fake-token-0'], clock });
    const sink = new MemorySink();
    const metas = await resolveRepos(client, ['fake-org/repo-0', 'fake-org/old-repo-1']);
    await crawl({ repos: metas, client, sink, concurrency: 1 });
    // The renamed repository is crawled and recorded under its new name.
    expect(sink.repoRows.get('fake-org/repo-1')).toMatchObject({
      default_branch: 'main',
      renamed_from: 'fake-org/old-repo-1',
    });
    expect([...sink.entryRows.values()].filter((e) => e.repo === 'fake-org/repo-1').length).toBeGreaterThan(
      400,
    );
    const log = fake.log;
    const sec = log.find((r) => r.status === 429);
    const retry = log.find((r) => sec && r.seq > sec.seq && r.path === sec.path);
    expect(sec && retry && retry.at - sec.at).toBeGreaterThanOrEqual(30_000);
    const prim = log.find((r) => r.status === 403 && r.path.includes('repo-1'));
    expect(prim?.remaining).toBe(0);
    const next = log.find((r) => prim && r.seq > prim.seq && r.token === prim.token && r.resource === 'core');
    expect(next && prim && next.at >= prim.resetAt).toBe(true);
    // Requests already in flight when a budget empties are refused too, so at least the two scripted ones.
    expect(client.counters.primaryLimited).toBeGreaterThanOrEqual(2);
    // A 429 primary answer is retried once, by throttling, after the reset (plugin-retry leaves 429 alone).
    const p429 = log.find((r) => r.status === 429 && r.remaining === 0);
    const again = log.filter((r) => p429 && r.seq > p429.seq && r.path === p429.path);
    expect(again.length).toBe(1);
    expect(again[0] && p429 && again[0].at >= p429.resetAt).toBe(true);
    expect(duplicates(log)).toEqual([]);
  }, 30_000);
});

describe('re-crawl against the fake GitHub', () => {
  test('a second crawl with the same ETag cache gets free 304s and the same contents', async () => {
    const etags = new MemoryEtagCache(100_000, 10_000_000);
    const first = await run({}, ['fake-token-0'], etags);
    const { fake, clock } = { fake: first.fake, clock: first.client.clock };
    fake.log.length = 0;
    const client: GitHubClient = createClient({ baseUrl: fake.url, tokens: ['fake-token-0'], clock, etags });
    const sink = new MemorySink();
    await crawl({
      repos: await resolveRepos(
        client,
        fake.corpus.repos().map((r) => r.full),
      ),
      client,
      sink,
      concurrency: 2,
    });
    expect(sink.contentHash()).toBe(first.hash);
    // Apart from the identity lookup (GET /user, once per token), every GET is a free 304.
    const gets = fake.log.filter((r) => r.method === 'GET' && r.path !== '/user');
    expect(gets.length).toBeGreaterThan(100);
    expect(gets.filter((r) => r.status !== 304).map((r) => `${r.status} ${r.path}`)).toEqual([]);
    expect(gets.filter((r) => r.charged)).toEqual([]);
    expect(client.counters.notModified).toBe(gets.length);
  }, 30_000);

  test('incremental re-crawl with since: only newer entries listed, contents unchanged, resumable streams', async () => {
    const first = await run({}, ['fake-token-0']);
    const { fake } = first;
    fake.log.length = 0;
    const client = createClient({ baseUrl: fake.url, tokens: ['fake-token-0'], clock: first.client.clock });
    const since = '2020-01-20T00:00:00Z';
    await crawl({
      repos: await resolveRepos(
        client,
        fake.corpus.repos().map((r) => r.full),
      ),
      client,
      sink: first.sink,
      since,
    });
    expect(first.sink.contentHash()).toBe(first.hash);
    const lists = fake.log.filter((r) => /\/issues\?/.test(r.path));
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.every((r) => r.path.includes(`since=${encodeURIComponent(since)}`))).toBe(true);
    const full = 15; // 3 repos × 5 pages of 100 in the full crawl
    expect(lists.length).toBeLessThan(full);
    expect((await first.sink.checkpoint('fake-org/repo-0', `issues@${since}`))?.done).toBe(true);
  }, 30_000);
});
