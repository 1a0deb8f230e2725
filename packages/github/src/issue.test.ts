/** Single-issue lookups against the fake: transferred (301), deleted (410), missing (404), ghost authors. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { FakeGitHub, type FakeRepo } from '../testing/index.ts';
import { createClient } from './client.ts';
import { fetchIssue } from './issue.ts';

let fake: FakeGitHub;
beforeAll(() => {
  fake = FakeGitHub.start({ corpus: { seed: 'issue', repos: 1, entries: 600 } });
});
afterAll(() => fake.stop());

test('fetchIssue: 301 → transferred_to, 410 → deleted, 404 → missing, ghost → author null', async () => {
  const client = createClient({ baseUrl: fake.url, tokens: ['fake-token-0'] });
  const repo = fake.corpus.repos()[0] as FakeRepo;
  const find = (pred: (n: number) => boolean) => {
    for (let n = 1; n <= repo.size; n++) if (pred(n)) return n;
    throw new Error('not planted');
  };
  const transferred = find((n) => fake.corpus.entry(repo, n)?.gap === 'transferred');
  const deleted = find((n) => fake.corpus.entry(repo, n)?.gap === 'deleted');
  const ghost = find((n) => {
    const e = fake.corpus.entry(repo, n);
    return !e?.gap && e?.kind === 'issue' && e.user === null;
  });
  const t = await fetchIssue(client, repo.full, transferred);
  expect(t.kind).toBe('transferred');
  if (t.kind === 'transferred') {
    expect(t.to).toBe('fake-org/inbox');
    expect(t.entry).toMatchObject({
      repo: repo.full,
      number: transferred,
      transferred_to: `fake-org/inbox#${transferred}`,
    });
  }
  expect(await fetchIssue(client, repo.full, deleted)).toEqual({ kind: 'deleted' });
  expect(await fetchIssue(client, repo.full, 99_999)).toEqual({ kind: 'missing' });
  const g = await fetchIssue(client, repo.full, ghost);
  expect(g.kind === 'ok' && g.entry.author).toBeNull();
});
