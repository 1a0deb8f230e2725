import { expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportTree, snapshotRepo } from './repo.ts';

const run = (cwd: string, ...args: string[]) => {
  const p = Bun.spawnSync(['git', ...args], {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'a',
      GIT_AUTHOR_EMAIL: 'a@x',
      GIT_COMMITTER_NAME: 'a',
      GIT_COMMITTER_EMAIL: 'a@x',
    },
  });
  if (p.exitCode !== 0) throw new Error(p.stderr.toString());
  return p.stdout.toString().trim();
};

/**
 * A repository that `build` commits to in a fresh folder, snapshotted at HEAD: the snapshot's tree must
 * equal HEAD's; `check` then looks at the folder (`snap/` the snapshot).
 */
async function snapshotCase(
  prefix: string,
  build: (src: string) => Promise<void>,
  check: (dir: string, src: string, commit: string) => Promise<void> = async () => {},
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    const src = join(dir, 'src');
    run(dir, 'init', '-q', '-b', 'main', src);
    await build(src);
    const commit = run(src, 'rev-parse', 'HEAD');
    const { tree } = await snapshotRepo(src, commit, join(dir, 'snap'));
    expect(tree).toBe(run(src, 'rev-parse', 'HEAD^{tree}'));
    await check(dir, src, commit);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('snapshotRepo keeps submodule gitlinks, so the snapshot tree equals the base tree', async () => {
  await snapshotCase(
    'faun-submodule-',
    async (src) => {
      await Bun.write(join(src, 'a.c'), 'int main(void) { return 0; }\n');
      run(src, 'add', 'a.c');
      // A submodule at modules/onig pointing at a commit that is not in this repository.
      run(src, 'update-index', '--add', '--cacheinfo', `160000,${'1'.repeat(40)},modules/onig`);
      run(src, 'commit', '-q', '-m', 'base');
    },
    async (dir) => {
      expect(run(join(dir, 'snap'), 'ls-tree', 'HEAD', 'modules/onig')).toStartWith('160000 commit 1111');
    },
  );
});

test('snapshotRepo keeps files committed with CRLF under `text=auto` byte for byte', async () => {
  await snapshotCase('faun-crlf-', async (src) => {
    await Bun.write(join(src, 'dec.c'), 'int x;\r\nint y;\r\n');
    run(src, 'add', 'dec.c');
    run(src, 'commit', '-q', '-m', 'crlf');
    await Bun.write(join(src, '.gitattributes'), '* text=auto\n');
    run(src, 'add', '.gitattributes');
    run(src, 'commit', '-q', '-m', 'attributes');
  });
});

test('snapshotRepo and exportTree write the bytes as committed under `eol=crlf` too', async () => {
  await snapshotCase(
    'faun-eol-',
    async (src) => {
      await Bun.write(join(src, '.gitattributes'), 'win.cfg eol=crlf\n');
      await Bun.write(join(src, 'win.cfg'), '[a]\nb = 1\n');
      run(src, 'add', '.');
      run(src, 'commit', '-q', '-m', 'eol');
    },
    async (dir, src, commit) => {
      expect(readFileSync(join(dir, 'snap', 'win.cfg'), 'utf8')).toBe('[a]\nb = 1\n');
      await exportTree(src, commit, join(dir, 'export'));
      expect(readFileSync(join(dir, 'export', 'win.cfg'), 'utf8')).toBe('[a]\nb = 1\n');
      expect(existsSync(join(dir, 'export', '.git'))).toBe(false);
    },
  );
});
