/** The fake GitHub's HTTP behaviour (spec §5): links, caps, budgets, ETags, redirects, GraphQL. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { SimClock } from '../src/clock.ts';
import { PAGE_NOT_SUPPORTED, PAGINATION_LIMITED } from './lists.ts';
import { FakeGitHub } from './server.ts';

const clock = new SimClock(36_000);
let fake: FakeGitHub;
const H = { authorization: 'token fake-token-0' };
const get = (path: string, headers: Record<string, string> = H, init: RequestInit = {}) =>
  fetch(`${fake.url}${path}`, { headers, ...init });
const ISSUES = '/repos/fake-org/repo-0/issues?state=all&sort=created&direction=asc';

beforeAll(() => {
  fake = FakeGitHub.start({
    corpus: { seed: 's', repos: 2, entries: 1200 },
    clock,
    budget: 1_000_000,
    commentsPageCap: 3,
    tokens: ['fake-token-0', 'tiny'],
  });
});
afterAll(() => fake.stop());

describe('fake GitHub REST paging', () => {
  test('link headers: exact format, params repeated, no prev on page 1', async () => {
    const r1 = await get(`${ISSUES}&per_page=50`);
    const u = `${fake.url}${ISSUES}&per_page=50`;
    const items = (await r1.json()) as { number: number; pull_request?: unknown }[];
    expect(items.length).toBe(50);
    expect(items.some((i) => i.pull_request) && items.some((i) => !i.pull_request)).toBe(true);
    const last = Number(/page=(\d+)>; rel="last"/.exec(r1.headers.get('link') ?? '')?.[1]);
    expect(r1.headers.get('link')).toBe(`<${u}&page=2>; rel="next", <${u}&page=${last}>; rel="last"`);
    const r2 = await get(`${ISSUES}&per_page=50&page=2`);
    expect(r2.headers.get('link')).toBe(
      `<${u}&page=1>; rel="prev", <${u}&page=3>; rel="next", <${u}&page=${last}>; rel="last", <${u}&page=1>; rel="first"`,
    );
    expect(r1.headers.get('content-type')).toBe('application/json; charset=utf-8');
    for (const h of [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-used',
      'x-ratelimit-reset',
      'x-ratelimit-resource',
      'x-github-request-id',
      'etag',
      'last-modified',
    ])
      expect({ h, present: r1.headers.has(h) }).toEqual({ h, present: true });
  });

  test('per_page: default 30, capped at 100, 0 or negative falls back to 30', async () => {
    for (const [q, n] of [
      ['', 30],
      ['&per_page=500', 100],
      ['&per_page=0', 30],
      ['&per_page=-4', 30],
    ] as const)
      expect({ q, n: ((await (await get(`${ISSUES}${q}`)).json()) as unknown[]).length }).toEqual({ q, n });
  });

  test('page > 100 answers 422; page 100 switches to cursor (after=) links without rel="last"', async () => {
    const r = await get(`${ISSUES}&per_page=1&page=101`);
    expect(r.status).toBe(422);
    expect(((await r.json()) as { message: string }).message).toBe(PAGE_NOT_SUPPORTED);
    const p100 = await get(`${ISSUES}&per_page=1&page=100`);
    const link = p100.headers.get('link') ?? '';
    expect(link).toMatch(/^<[^>]*after=[^>]*>; rel="next"$/);
    expect(link).not.toMatch(/[?&]page=/);
    const next = (await get(/<([^>]+)>/.exec(link)?.[1]?.replace(fake.url, '') ?? '')).json() as Promise<
      { number: number }[]
    >;
    const [a] = (await p100.json()) as { number: number }[];
    expect((await next)[0]?.number).toBeGreaterThan(a?.number ?? 0);
  });

  test('repo-wide comments are capped (422 past the cap), since filters on updated_at', async () => {
    const ok = await get('/repos/fake-org/repo-0/issues/comments?per_page=2&page=3');
    expect(ok.status).toBe(200);
    const capped = await get('/repos/fake-org/repo-0/issues/comments?per_page=2&page=4');
    expect(capped.status).toBe(422);
    expect(((await capped.json()) as { message: string }).message).toBe(PAGINATION_LIMITED);
    const since = '2020-01-10T00:00:00Z';
    const items = (await (await get(`${ISSUES}&per_page=100&since=${since}`)).json()) as {
      updated_at: string;
    }[];
    expect(items.length).toBe(100);
    expect(items.every((i) => i.updated_at >= since)).toBe(true);
  });
});

describe('fake GitHub REST answers', () => {
  test('ETag: a matching if-none-match answers 304, free', async () => {
    const r = await get('/repos/fake-org/repo-0/issues/1/comments');
    const etag = r.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\/"[0-9a-f]{40}"$/);
    const before = Number(r.headers.get('x-ratelimit-remaining'));
    const r304 = await get('/repos/fake-org/repo-0/issues/1/comments', { ...H, 'if-none-match': etag });
    expect(r304.status).toBe(304);
    expect(await r304.text()).toBe('');
    // The simulated hour lasts 100 ms here: when the budget's window rolled over between the two requests,
    // an uncharged 304 leaves the new window's budget whole.
    const sameWindow = r304.headers.get('x-ratelimit-reset') === r.headers.get('x-ratelimit-reset');
    expect(r304.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    expect(Number(r304.headers.get('x-ratelimit-remaining'))).toBe(sameWindow ? before : 1_000_000);
    expect(fake.log.at(-1)).toMatchObject({ status: 304, charged: false });
  });

  test('401 for a bad token; 301 for a renamed repo and a transferred issue; 410 deleted; 404', async () => {
    expect((await get('/repos/fake-org/repo-0', { authorization: 'token nope' })).status).toBe(401);
    const renamed = await get('/repos/fake-org/old-repo-1/issues?per_page=1', H, { redirect: 'manual' });
    expect(renamed.status).toBe(301);
    expect(renamed.headers.get('location')).toBe(`${fake.url}/repositories/100001/issues?per_page=1`);
    const repo = fake.corpus.repos()[0];
    const gaps = { transferred: 0, deleted: 0 };
    for (let n = 1; n <= (repo?.size ?? 0); n++) {
      const e = repo && fake.corpus.entry(repo, n);
      if (!e?.gap || gaps[e.gap]) continue;
      gaps[e.gap] = n;
    }
    const t = await get(`/repos/fake-org/repo-0/issues/${gaps.transferred}`);
    expect(t.redirected).toBe(true);
    expect(((await t.json()) as { repository_url: string }).repository_url).toBe(
      `${fake.url}/repos/fake-org/inbox`,
    );
    expect((await get(`/repos/fake-org/repo-0/issues/${gaps.deleted}`)).status).toBe(410);
    expect((await get('/repos/fake-org/repo-0/issues/999999')).status).toBe(404);
    expect((await get('/repos/fake-org/nope')).status).toBe(404);
  });

  test('contents and trees serve the files PR patches were made from', async () => {
    const pr = (await (await get('/repos/fake-org/repo-0/pulls/2')).json()) as {
      base: { sha: string };
      head: { sha: string };
    };
    const [file] = (await (await get('/repos/fake-org/repo-0/pulls/2/files')).json()) as {
      filename: string;
      patch: string;
    }[];
    const raw = await (
      await get(`/repos/fake-org/repo-0/contents/${file?.filename}?ref=${pr.head.sha}`, {
        ...H,
        accept: 'application/vnd.github.raw',
      })
    ).text();
    const b64 = (await (
      await get(`/repos/fake-org/repo-0/contents/${file?.filename}?ref=${pr.base.sha}`)
    ).json()) as { content: string };
    const before = Buffer.from(b64.content, 'base64').toString();
    const added =
      file?.patch
        .split('\n')
        .find((l) => l.startsWith('+'))
        ?.slice(1) ?? '';
    expect(raw).toContain(added);
    expect(before).not.toContain(added);
    const tree = (await (
      await get(`/repos/fake-org/repo-0/git/trees/${pr.base.sha}?recursive=1`)
    ).json()) as { tree: { path: string }[] };
    expect(tree.tree.map((t) => t.path)).toContain(file?.filename ?? '');
  });
});

describe('fake GitHub limits and GraphQL', () => {
  test('primary limit: 403 with remaining 0 and the documented body, budget back after the reset', async () => {
    // A simulated hour of one real second: the three requests must fall in one budget window, which the
    // file's clock (an hour in 100 ms) does not promise on a loaded machine.
    const slower = new SimClock(3_600);
    const small = FakeGitHub.start({
      corpus: { seed: 's', repos: 1, entries: 100 },
      clock: slower,
      budget: 2,
      graphqlBudget: 1,
    });
    try {
      const h = { authorization: 'token fake-token-0' };
      for (let i = 0; i < 2; i++)
        expect((await fetch(`${small.url}/repos/fake-org/repo-0`, { headers: h })).status).toBe(200);
      const r = await fetch(`${small.url}/repos/fake-org/repo-0`, { headers: h });
      expect(r.status).toBe(403);
      expect(r.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(await r.json()).toEqual({
        message: expect.stringMatching(/^API rate limit exceeded for user ID \d+\.$/),
        documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
      });
      const gql = () =>
        fetch(`${small.url}/graphql`, {
          method: 'POST',
          headers: h,
          body: JSON.stringify({
            query: 'query{ repository { issues(first:10){ nodes { number } } } }',
            variables: { owner: 'fake-org', name: 'repo-0' },
          }),
        });
      expect((await gql()).status).toBe(200);
      const limited = await gql();
      expect(limited.status).toBe(200);
      const type = ((await limited.json()) as { errors: { type: string }[] }).errors[0]?.type;
      expect(['RATE_LIMIT', 'RATE_LIMITED']).toContain(type ?? '');
      await slower.sleep(Number(r.headers.get('x-ratelimit-reset')) * 1000 - slower.now() + 1000);
      expect((await fetch(`${small.url}/repos/fake-org/repo-0`, { headers: h })).status).toBe(200);
    } finally {
      await small.stop();
    }
  });

  test('secondary limit: scripted 429 with retry-after and the "secondary rate" message', async () => {
    fake.faults.add({ match: '/repos/fake-org/repo-1', status: 429, times: 1, retryAfter: 7 });
    const r = await get('/repos/fake-org/repo-1');
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('7');
    expect(((await r.json()) as { message: string }).message).toMatch(/\bsecondary rate\b/i);
    expect((await get('/repos/fake-org/repo-1')).status).toBe(200);
  });

  test('GraphQL PR side: bots without [bot], closing references, cost in rateLimit', async () => {
    const q =
      'query($owner:String!,$name:String!,$cursor:String){ rateLimit{cost remaining resetAt} repository(owner:$owner,name:$name){ pullRequests(first:100, after:$cursor, states:[MERGED]){ pageInfo{hasNextPage endCursor} nodes{ number author{__typename login} closingIssuesReferences(first:10){nodes{number}} files(first:2){totalCount} } } } }';
    const res = (await (
      await fetch(`${fake.url}/graphql`, {
        method: 'POST',
        headers: H,
        body: JSON.stringify({ query: q, variables: { owner: 'fake-org', name: 'repo-0' } }),
      })
    ).json()) as {
      data: {
        rateLimit: { cost: number };
        repository: {
          pullRequests: {
            pageInfo: { hasNextPage: boolean };
            nodes: { author: { __typename: string; login: string } | null }[];
          };
        };
      };
    };
    expect(res.data.rateLimit.cost).toBe(2);
    const nodes = res.data.repository.pullRequests.nodes;
    expect(nodes.length).toBe(100);
    const bots = nodes.filter((n) => n.author?.__typename === 'Bot');
    expect(bots.length).toBeGreaterThan(0);
    expect(bots.every((b) => !b.author?.login.endsWith('[bot]'))).toBe(true);
    const nf = (await (
      await fetch(`${fake.url}/graphql`, {
        method: 'POST',
        headers: H,
        body: JSON.stringify({ query: q, variables: { owner: 'fake-org', name: 'missing' } }),
      })
    ).json()) as { errors: { type: string }[] };
    expect(nf.errors[0]?.type).toBe('NOT_FOUND');
  });
});
