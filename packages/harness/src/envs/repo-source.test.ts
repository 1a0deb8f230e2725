import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '@faun/kit';
import { makeFixture } from '../../testing/fixtures.ts';
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

test('jobs asking for one repository at once all get the whole clone, and the cache keeps one entry', async () => {
  const fx = makeFixture('python', root);
  const cache = join(root, 'clone-cache');
  // https://github.com/ points at the fixture's folder for the git processes this test starts
  const saved = { ...process.env };
  Object.assign(process.env, {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: `url.${root}/.insteadOf`,
    GIT_CONFIG_VALUE_0: 'https://github.com/acme/',
  });
  try {
    Bun.spawnSync(['ln', '-s', join(fx.dir, '.git'), join(root, 'calc.git')]);
    // each job reads the base commit's tree as soon as its source is returned
    const asked = Array.from({ length: 4 }, async () => {
      const source = await repoSource('acme/calc', {}, cache);
      return { source, tree: await treeOf(source, fx.instance.base_commit) };
    });
    const got = await Promise.all(asked);
    expect(new Set(got.map((g) => g.source)).size).toBe(1);
    for (const g of got) expect(g.tree).toMatch(/^[0-9a-f]{40}$/);
    expect(readdirSync(cache)).toEqual(['acme+calc.git']);
  } finally {
    for (const k of ['GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_0', 'GIT_CONFIG_VALUE_0'])
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
  }
});
