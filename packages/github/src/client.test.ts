/**
 * The client against real recorded GitHub answers (@octokit/fixtures), replayed by a tiny local server
 * with api.github.com rewritten to it: pagination by `link`, rename via 301, error statuses.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createClient } from './client.ts';
import { entryFromRest } from './records.ts';
import { resolveRepos } from './repos.ts';

interface Fixture {
  method: string;
  path: string;
  status: number;
  response: unknown;
  headers: Record<string, string>;
}

const root = dirname(createRequire(import.meta.url).resolve('@octokit/fixtures/package.json'));
const scenario = (name: string) =>
  JSON.parse(
    readFileSync(join(root, 'scenarios/api.github.com', name, 'normalized-fixture.json'), 'utf8'),
  ) as Fixture[];

let server: ReturnType<typeof Bun.serve>;
let base = '';
const seen: { method: string; path: string; headers: Headers }[] = [];
const fixtures = [
  ...scenario('paginate-issues'),
  ...scenario('rename-repository'),
  ...scenario('get-repository'),
  ...scenario('errors'),
];

beforeAll(() => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const u = new URL(req.url);
      const path = `${u.pathname}${u.search}`;
      seen.push({ method: req.method, path, headers: req.headers });
      const f = fixtures.find((x) => x.method.toUpperCase() === req.method && x.path === path);
      if (!f) return new Response(JSON.stringify({ message: 'Not Found' }), { status: 404 });
      const headers = new Headers();
      for (const [k, v] of Object.entries(f.headers)) {
        if (['content-length', 'connection', 'transfer-encoding', 'content-encoding'].includes(k)) continue;
        headers.set(k, String(v).replaceAll('https://api.github.com', base));
      }
      const body =
        f.status === 204 ? null : JSON.stringify(f.response).replaceAll('https://api.github.com', base);
      return new Response(body, { status: f.status, headers });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.stop(true));

const token = '0000000000000000000000000000000000000001';

describe('client against @octokit/fixtures recordings', () => {
  test('paginate-issues: follows link rel="next" to the last page, maps every issue', async () => {
    seen.length = 0;
    const client = createClient({ baseUrl: base, tokens: [token], identify: false });
    const numbers: number[] = [];
    for await (const res of client.octokit.paginate.iterator('GET /repos/{owner}/{repo}/issues', {
      owner: 'octokit-fixture-org',
      repo: 'paginate-issues',
      per_page: 3,
    })) {
      for (const it of res.data)
        numbers.push(entryFromRest(it, 'octokit-fixture-org/paginate-issues', 'main').number);
    }
    const expected = scenario('paginate-issues').flatMap((f) =>
      (f.response as { number: number }[]).map((i) => i.number),
    );
    expect(numbers).toEqual(expected);
    expect(numbers.length).toBe(13);
    expect(seen.map((s) => s.path)).toEqual(scenario('paginate-issues').map((f) => f.path));
    expect(seen.every((s) => s.headers.get('x-github-api-version') === '2022-11-28')).toBe(true);
    expect(seen.every((s) => s.headers.get('authorization') === `token ${token}`)).toBe(true);
  });

  test('rename-repository: a 301 is followed and reported as a rename', async () => {
    const client = createClient({ baseUrl: base, tokens: [token], identify: false });
    const [meta] = await resolveRepos(client, ['octokit-fixture-org/rename-repository']);
    expect(meta?.renamed).toBe(true);
    expect(meta?.full).not.toBe('octokit-fixture-org/rename-repository');
    expect(meta?.full).toStartWith('octokit-fixture-org/rename-repository');
  });

  test('get-repository: default branch read from the recorded answer', async () => {
    const client = createClient({ baseUrl: base, tokens: [token], identify: false });
    const [meta] = await resolveRepos(client, ['octokit-fixture-org/hello-world']);
    expect(meta).toEqual({
      requested: 'octokit-fixture-org/hello-world',
      full: 'octokit-fixture-org/hello-world',
      defaultBranch: 'master',
      renamed: false,
    });
  });

  test('errors: a recorded 422 is thrown once, not retried', async () => {
    seen.length = 0;
    const client = createClient({ baseUrl: base, tokens: [token], identify: false });
    const err = await client.octokit
      .request('POST /repos/{owner}/{repo}/labels', {
        owner: 'octokit-fixture-org',
        repo: 'errors',
        name: 'foo',
        color: 'invalid',
      })
      .then(
        () => null,
        (e: { status: number }) => e,
      );
    expect(err?.status).toBe(422);
    expect(seen.length).toBe(1);
  });

  test('unknown repository: resolveRepos fails with a 404 message naming it', async () => {
    const client = createClient({ baseUrl: base, tokens: [token], identify: false });
    await expect(resolveRepos(client, ['octokit-fixture-org/nope'])).rejects.toThrow(
      'repository octokit-fixture-org/nope not found (404)',
    );
  });
});
