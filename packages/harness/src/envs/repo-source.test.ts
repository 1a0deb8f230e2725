import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '@faun/kit';
import { repoSource, treeOf } from './repo.ts';

const root = mkdtempSync(join(tmpdir(), 'faun-repo-source-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test("a row's repo never reaches outside the cache (no clone, no local .git found by ../)", async () => {
  const cache = join(root, 'cache');
  // a git directory beside the cache that a `repo` of `x/../../victim` would otherwise name
  mkdirSync(join(root, 'victim.git'), { recursive: true });
  for (const repo of ['../x', 'x/../../victim', 'a/..', '/etc', 'a/b/c', 'a/$(id)'])
    await expect(repoSource(repo, {}, cache)).rejects.toBeInstanceOf(InputError);
  await expect(repoSource('x/../../victim', {}, cache)).rejects.toThrow(/repo 'x\/\.\.\/\.\.\/victim'/);
});

test('a commit that reads as an option is refused before git sees it', async () => {
  await expect(treeOf(root, '--output=/tmp/x')).rejects.toBeInstanceOf(InputError);
});
