import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Corpus, FakeGitHub, type FakeRepo, headSha } from '@faun/github/testing';
import { GitHubApiSource, LocalGitSource, routeSources } from './source.ts';

let fake: FakeGitHub;
const corpus = new Corpus({ seed: 'curate-source', repos: 2, entries: 200 });
const repo = corpus.repos()[0] as FakeRepo;

beforeAll(() => {
  fake = FakeGitHub.start({ corpus });
});
afterAll(() => fake.stop());

describe('GitHubApiSource against the fake GitHub server', () => {
  for (const raw of [true, false]) {
    test(`tree and files at the base commit (${raw ? 'raw' : 'base64 JSON'} contents)`, async () => {
      const src = new GitHubApiSource({ apiUrl: fake.url, token: 'fake-token-0', raw });
      const tree = await src.tree(repo.full, repo.baseSha);
      expect(tree).toEqual(corpus.paths(repo));
      const path = tree.find((p) => p.startsWith('src/') || p.startsWith('pkg/')) as string;
      expect(await src.file(repo.full, repo.baseSha, path)).toBe(
        corpus.file(repo, path, repo.baseSha) as string,
      );
      expect(await src.file(repo.full, repo.baseSha, 'no/such/file.py')).toBeNull();
    });
  }
  test('a PR head commit serves the changed file', async () => {
    const src = new GitHubApiSource({ apiUrl: fake.url, token: 'fake-token-0' });
    let found = 0;
    for (let n = 1; n <= repo.size && found < 3; n++) {
      const e = corpus.entry(repo, n);
      const edit = e?.pull?.edits[0];
      if (!e?.pull || !edit) continue;
      found++;
      const sha = headSha(corpus.seed, repo.index, n);
      expect(await src.file(repo.full, sha, edit.path)).toBe(corpus.file(repo, edit.path, sha) as string);
    }
    expect(found).toBe(3);
  });
  test('a bad token names the problem', async () => {
    const src = new GitHubApiSource({ apiUrl: fake.url, token: 'wrong' });
    await expect(src.tree(repo.full, repo.baseSha)).rejects.toThrow('GitHub API 401');
  });
});

describe('source routing', () => {
  test('routing: a repository with neither a clone nor an API says so; clones match in any case', async () => {
    expect(new LocalGitSource({ 'acme/w': '/tmp/w' }).has('Acme/W')).toBe(true);
    const routed = routeSources(new LocalGitSource({}), null);
    await expect(routed.tree('a/b', 'c')).rejects.toThrow('no source for the files of a/b');
  });
});
