/**
 * The crawler's records against the fake GitHub: the ETag cache is keyed by identity (GitHub's ETags
 * depend on the credentials), `null` nodes GitHub keeps answering are recorded as gaps, an incremental
 * run narrows every stream (REST `since`, `filterBy:{since}`, `updatedAt` order, comments `since`), and
 * file status has one vocabulary whichever API it came from.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { FakeGitHub, type FakeGitHubOptions } from '../testing/index.ts';
import { createClient } from './client.ts';
import { SimClock } from './clock.ts';
import { crawl, type Gap } from './crawler.ts';
import { MemoryEtagCache } from './etag.ts';
import { decodeState } from './gql-pages.ts';
import { resolveRepos } from './repos.ts';
import { MemorySink } from './sink.ts';

const CORPUS = { seed: 'semantics', repos: 3, entries: 900 };
const fakes: FakeGitHub[] = [];
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.stop();
});

function start(o: Partial<FakeGitHubOptions> = {}): FakeGitHub {
  const fake = FakeGitHub.start({ corpus: CORPUS, clock: new SimClock(36_000), ...o });
  fakes.push(fake);
  return fake;
}

async function crawlOn(
  fake: FakeGitHub,
  o: {
    tokens: string[];
    etags?: MemoryEtagCache;
    sink?: MemorySink;
    since?: string;
    onGap?: (g: Gap) => void;
  },
) {
  const client = createClient({ baseUrl: fake.url, tokens: o.tokens, clock: fake.clock, etags: o.etags });
  const sink = o.sink ?? new MemorySink();
  const repos = await resolveRepos(
    client,
    fake.corpus.repos().map((r) => r.full),
  );
  await crawl({ repos, client, sink, concurrency: 2, since: o.since, onGap: o.onGap });
  return { client, sink, hash: sink.contentHash() };
}

const REST_STATUS = ['added', 'removed', 'modified', 'renamed', 'copied', 'changed', 'unchanged'];

describe('crawl records', () => {
  test('ETag cache keyed by identity: another user in between leaves the first user’s re-crawl free', async () => {
    const tokens = ['t-alice', 't-bob'];
    const fake = start({ tokens, owners: { 't-alice': 'alice', 't-bob': 'bob' } });
    const etags = new MemoryEtagCache(100_000, 10_000_000);
    const first = await crawlOn(fake, { tokens: ['t-alice'], etags });
    // Bob's answers carry Bob's ETags; with a cache keyed by URL alone they would replace Alice's.
    fake.log.length = 0;
    const bob = await crawlOn(fake, { tokens: ['t-bob'], etags });
    expect(bob.hash).toBe(first.hash);
    expect(fake.log.filter((r) => r.status === 304)).toEqual([]);
    fake.log.length = 0;
    const again = await crawlOn(fake, { tokens: ['t-alice'], etags });
    expect(again.hash).toBe(first.hash);
    const gets = fake.log.filter((r) => r.method === 'GET' && r.path !== '/user');
    expect(gets.length).toBeGreaterThan(50);
    expect(gets.filter((r) => r.status !== 304).map((r) => `${r.status} ${r.path}`)).toEqual([]);
  }, 180_000);

  test('null nodes GitHub keeps answering are recorded as gaps; the rest of each page is stored', async () => {
    const clean = await crawlOn(start(), { tokens: ['fake-token-0'] });
    const gaps: Gap[] = [];
    // Every GraphQL page, the retried ones included, has one `null` node beside a partial error.
    const r = await crawlOn(start({ faults: { nullNodeEvery: 1 } }), {
      tokens: ['fake-token-0'],
      onGap: (g) => gaps.push(g),
    });
    expect(gaps.length).toBeGreaterThan(3);
    expect(gaps.every((g) => /Something went wrong while resolving this field/.test(g.message))).toBe(true);
    let recorded = 0;
    let prGaps = 0;
    for (const repo of CORPUS_REPOS)
      for (const stream of ['gql-prs', 'gql-issues']) {
        const cp = await r.sink.checkpoint(repo, stream);
        expect(cp?.done).toBe(true);
        const n = decodeState(cp?.cursor, 100).gaps;
        recorded += n;
        if (stream === 'gql-prs') prGaps += n;
      }
    expect(recorded).toBe(gaps.length);
    expect(prGaps).toBe(gaps.filter((g) => g.stream === 'gql-prs').length);
    // Exactly the PRs that came back null lack their GraphQL details; every other entry is as in a clean crawl.
    const differing = [...r.sink.entryRows].filter(
      ([k, e]) => JSON.stringify(e) !== JSON.stringify(clean.sink.entryRows.get(k)),
    );
    expect(differing.length).toBe(prGaps);
    expect(r.sink.entryRows.size).toBe(clean.sink.entryRows.size);
  }, 180_000);

  test('incremental: every stream asks only for what changed since', async () => {
    // One repository with several pages of merged PRs, so the updatedAt-ordered pass can stop early.
    const fake = start({ corpus: { seed: 'semantics', repos: 1, entries: 1500 } });
    const first = await crawlOn(fake, { tokens: ['fake-token-0'] });
    const count = (re: RegExp) => fake.log.filter((x) => re.test(x.detail ?? x.path)).length;
    const full = { prs: count(/^pullRequests /), issues: count(/^issues /), lists: count(/\/issues\?/) };
    fake.log.length = 0;
    const since = '2020-01-25T00:00:00Z';
    await crawlOn(fake, { tokens: ['fake-token-0'], sink: first.sink, since });
    expect(first.sink.contentHash()).toBe(first.hash);
    const q = `since=${encodeURIComponent(since)}`;
    const lists = fake.log.filter((x) => /\/issues\?/.test(x.path));
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.length).toBeLessThan(full.lists);
    expect(lists.filter((x) => !x.path.includes(q)).map((x) => x.path)).toEqual([]);
    // gql-prs: by updatedAt, descending, stopping at `since`; gql-issues: `filterBy:{since}`.
    expect(count(/^pullRequests /)).toBeGreaterThan(0);
    expect(count(/^pullRequests /)).toBeLessThan(full.prs);
    expect(count(/^issues /)).toBeGreaterThan(0);
    expect(count(/^issues /)).toBeLessThan(full.issues);
    // Per-survivor comments carry `since` too (events have none on GitHub).
    const comments = fake.log.filter((x) => /\/issues\/\d+\/comments/.test(x.path));
    expect(comments.length).toBeGreaterThan(0);
    expect(comments.filter((x) => !x.path.includes(q)).map((x) => x.path)).toEqual([]);
  }, 180_000);

  test('file status: one vocabulary (REST’s) in the stored rows, from GraphQL and REST alike', async () => {
    // A corpus whose multi-file PRs include a file GraphQL reports as DELETED.
    const r = await crawlOn(start({ corpus: { seed: 'files-1', repos: 2, entries: 600 } }), {
      tokens: ['fake-token-0'],
    });
    const fromGraphql = [...r.sink.entryRows.values()].flatMap((e) => e.pr?.files ?? []).map((f) => f.status);
    const fromRest = [...r.sink.fileRows.values()].flatMap((x) => x.files).map((f) => f.status);
    expect(fromGraphql.length).toBeGreaterThan(0);
    expect(fromRest.length).toBeGreaterThan(0);
    // GraphQL's PatchStatus says DELETED where REST says removed.
    expect(fromGraphql).toContain('removed');
    expect([...new Set([...fromGraphql, ...fromRest])].filter((s) => !REST_STATUS.includes(s))).toEqual([]);
  }, 180_000);
});

const CORPUS_REPOS = Array.from({ length: CORPUS.repos }, (_, i) => `fake-org/repo-${i}`);
