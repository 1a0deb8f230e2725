/** The fake's GitHub behaviours beyond paging and caps: identities, load, partial GraphQL answers. */
import { afterEach, describe, expect, test } from 'bun:test';
import { generateKeyPairSync } from 'node:crypto';
import { SimClock } from '../src/clock.ts';
import { decodeCursor, encodeCursor } from './paging.ts';
import { FakeGitHub, type FakeGitHubOptions } from './server.ts';

const fakes: FakeGitHub[] = [];
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.stop();
});
function start(o: Partial<FakeGitHubOptions> = {}): FakeGitHub {
  const f = FakeGitHub.start({
    corpus: { seed: 'faithful', repos: 3, entries: 1500 },
    clock: new SimClock(36_000),
    ...o,
  });
  fakes.push(f);
  return f;
}
const auth = (t: string) => ({ authorization: `token ${t}` });
// biome-ignore lint/suspicious/noExplicitAny: GitHub JSON.
type Json = any;
async function gql(f: FakeGitHub, token: string | null, query: string, variables: Json): Promise<Response> {
  return fetch(`${f.url}/graphql`, {
    method: 'POST',
    headers: token ? auth(token) : {},
    body: JSON.stringify({ query, variables }),
  });
}
const ISSUES_Q = (first: number) =>
  `query($owner:String!,$name:String!,$cursor:String){ rateLimit{cost remaining resetAt} repository(owner:$owner,name:$name){ issues(first:${first}, after:$cursor, states:[CLOSED]){ pageInfo{hasNextPage endCursor} nodes{ number timelineItems(first:20){ totalCount nodes{ __typename } } } } } }`;

describe('identities and budgets', () => {
  test('tokens of one user share one budget; distinct users and installations have their own', async () => {
    const f = start({
      tokens: ['a1', 'a2', 'b1'],
      owners: { a1: 'alice', a2: 'alice', b1: 'bob' },
      budget: 10,
      // the clock runs 36,000× real time: an hour's window would reset after 100 ms of a loaded machine
      windowSeconds: 10 * 365 * 86_400,
    });
    const r1 = await fetch(`${f.url}/repos/fake-org/repo-0`, { headers: auth('a1') });
    const r2 = await fetch(`${f.url}/repos/fake-org/repo-0`, { headers: auth('a2') });
    const r3 = await fetch(`${f.url}/repos/fake-org/repo-0`, { headers: auth('b1') });
    expect([r1, r2, r3].map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['9', '8', '9']);
    const me = await (await fetch(`${f.url}/user`, { headers: auth('a2') })).json();
    expect(me.login).toBe('alice');
  });

  test('a GitHub App mints installation tokens with their own 12,500 budget; /user answers 403', async () => {
    const f = start({ app: { id: 42, installations: [7] } });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const { createAppAuth } = await import('@octokit/auth-app');
    const { Octokit } = await import('@octokit/core');
    const appAuth = createAppAuth({
      appId: 42,
      privateKey: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
      installationId: 7,
      request: new Octokit({ baseUrl: f.url }).request,
    });
    const { token } = (await appAuth({ type: 'installation' })) as { token: string };
    const r = await fetch(`${f.url}/repos/fake-org/repo-0`, { headers: auth(token) });
    expect(r.headers.get('x-ratelimit-limit')).toBe('12500');
    expect((await fetch(`${f.url}/user`, { headers: auth(token) })).status).toBe(403);
  });

  test('ETags depend on the token: the same answer under another token is a charged 200', async () => {
    const f = start({ tokens: ['t0', 't1'] });
    const url = `${f.url}/repos/fake-org/repo-0/issues/1/comments`;
    const a = await fetch(url, { headers: auth('t0') });
    const etag = a.headers.get('etag') ?? '';
    expect((await fetch(url, { headers: { ...auth('t0'), 'if-none-match': etag } })).status).toBe(304);
    expect((await fetch(url, { headers: { ...auth('t1'), 'if-none-match': etag } })).status).toBe(200);
  });

  test('token-less GraphQL is a 401', async () => {
    const f = start();
    expect((await gql(f, null, ISSUES_Q(10), { owner: 'fake-org', name: 'repo-0' })).status).toBe(401);
  });
});

describe('load-driven limits', () => {
  test('serial requests stay under the secondary limits; ten in flight per identity trip them', async () => {
    // A tenth of GitHub's minute, with a tenth of its CPU and points (same ratios).
    const limits = { windowMs: 6000, cpuMs: 9000, graphqlCpuMs: 6000, restPoints: 90, graphqlPoints: 200 };
    const f = start({ faults: { load: true }, budget: 1_000_000, limits });
    for (let i = 0; i < 100; i++) {
      const r = await fetch(`${f.url}/repos/fake-org/repo-0/issues/${(i % 100) + 1}/comments`, {
        headers: auth('fake-token-0'),
      });
      expect(r.status === 200 || r.status === 404 || r.status === 410 || r.status === 301).toBe(true);
    }
    const statuses: number[] = [];
    for (let k = 0; k < 10; k++) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          fetch(`${f.url}/repos/fake-org/repo-0/issues/${i + 1}/comments`, {
            headers: auth('fake-token-1'),
          }),
        ),
      );
      statuses.push(...batch.map((r) => r.status));
    }
    const limited = statuses.filter((s) => s === 403).length;
    expect(limited).toBeGreaterThan(0);
    const u = f.usage();
    expect(u.find((x) => x.identity === 'user:fake-user-0')?.secondary).toBe(0);
    expect(u.find((x) => x.identity === 'user:fake-user-1')?.secondary).toBeGreaterThan(0);
  });

  test('big GraphQL pages time out (502, charged) on heavy repositories; smaller pages pass', async () => {
    const f = start({ faults: { load: true } });
    const big = await gql(f, 'fake-token-0', ISSUES_Q(100), { owner: 'fake-org', name: 'repo-1' });
    expect(big.status).toBe(502);
    expect(f.log.at(-1)?.charged).toBe(true);
    const half = await gql(f, 'fake-token-0', ISSUES_Q(50), { owner: 'fake-org', name: 'repo-1' });
    expect(half.status).toBe(200);
    expect((await gql(f, 'fake-token-0', ISSUES_Q(100), { owner: 'fake-org', name: 'repo-0' })).status).toBe(
      200,
    );
  });

  test('GraphQL refuses a query costing more than the points left, with RATE_LIMIT or RATE_LIMITED', async () => {
    const f = start({ graphqlBudget: 3 });
    const q = ISSUES_Q(100).replace('timelineItems(first:20)', 'timelineItems(first:100)');
    const types: string[] = [];
    for (let i = 0; i < 3; i++) {
      const body = await (await gql(f, 'fake-token-0', q, { owner: 'fake-org', name: 'repo-0' })).json();
      if (body.errors) types.push(body.errors[0].type);
    }
    // cost 1 each: 3 answers, then nothing left. A cost-2 PR page with 1 point left is refused too.
    const f2 = start({ graphqlBudget: 1 });
    const pr = `query($owner:String!,$name:String!){ repository(owner:$owner,name:$name){ pullRequests(first:100){ nodes{ number closingIssuesReferences(first:10){nodes{number}} files(first:2){totalCount} } } } }`;
    const body = await (await gql(f2, 'fake-token-0', pr, { owner: 'fake-org', name: 'repo-0' })).json();
    types.push(body.errors?.[0]?.type);
    const again = await (await gql(f2, 'fake-token-0', pr, { owner: 'fake-org', name: 'repo-0' })).json();
    types.push(again.errors?.[0]?.type);
    expect(new Set(types)).toEqual(new Set(['RATE_LIMIT', 'RATE_LIMITED']));
  });

  test('null nodes come with a partial error; truncated nested connections keep their totalCount', async () => {
    const f = start({ faults: { nullNodeEvery: 1, truncateNestedEvery: 1 } });
    const body = await (
      await gql(f, 'fake-token-0', ISSUES_Q(50), { owner: 'fake-org', name: 'repo-0' })
    ).json();
    const nodes = body.data.repository.issues.nodes as Json[];
    expect(nodes.filter((n) => n === null).length).toBe(1);
    expect(body.errors[0].path.slice(0, 3)).toEqual(['repository', 'issues', 'nodes']);
    const withItems = nodes.filter((n) => n && n.timelineItems.totalCount > 0);
    expect(withItems.length).toBeGreaterThan(0);
    expect(withItems.every((n) => n.timelineItems.nodes.length === 0)).toBe(true);
  });
});

describe('paging and data semantics', () => {
  test('cursors are padded base64; some repositories page by cursor from page 1', async () => {
    expect(encodeCursor(100)).toMatch(/==$/);
    expect(decodeCursor(encodeCursor(1234))).toBe(1234);
    const f = start();
    const r = await fetch(`${f.url}/repos/fake-org/repo-2/issues?state=all&per_page=100`, {
      headers: auth('fake-token-0'),
    });
    const link = r.headers.get('link') ?? '';
    expect(link).toMatch(/after=[^>]*%3D[^>]*>; rel="next"$/);
    expect(link).not.toMatch(/rel="last"/);
    const p2 = await fetch(`${f.url}/repos/fake-org/repo-2/issues?state=all&per_page=100&page=2`, {
      headers: auth('fake-token-0'),
    });
    expect(p2.status).toBe(422);
  });

  test('issues disabled: 410 on issue endpoints, has_issues false; deleted users are the ghost object', async () => {
    const f = start({ issuesDisabled: ['fake-org/repo-1'] });
    const r = await fetch(`${f.url}/repos/fake-org/repo-1/issues?state=all`, {
      headers: auth('fake-token-0'),
    });
    expect(r.status).toBe(410);
    expect((await r.json()).message).toBe('Issues are disabled for this repo');
    const meta = await (
      await fetch(`${f.url}/repos/fake-org/repo-1`, { headers: auth('fake-token-0') })
    ).json();
    expect(meta.has_issues).toBe(false);
    const items = (await (
      await fetch(`${f.url}/repos/fake-org/repo-0/issues?state=all&per_page=100`, {
        headers: auth('fake-token-0'),
      })
    ).json()) as Json[];
    expect(items.every((i) => i.user !== null)).toBe(true);
    expect(items.some((i) => i.user.login === 'ghost' && i.user.id === 10137)).toBe(true);
  });
});
