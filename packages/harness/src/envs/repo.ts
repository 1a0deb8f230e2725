/**
 * Repository sources. The sandbox sees the repository at base_commit as a **fresh single-commit repo**:
 * the tree at base_commit is checked out (no export filters) into a new directory, `git init`-ed and
 * committed once with a fixed author and date. So there is no history at all — nothing after base_commit,
 * no remotes, no tags — and the commit id is deterministic for a given tree. Blob ids equal the
 * original's, so `git apply --3way` still finds the preimages a patch's `index` lines name.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError, outputOf, PrerequisiteError, type RepoDirs, repoDirOf, within } from '@faun/kit';
import { buildAndPublish } from '../files/publish-dir.ts';
import { repoProblem } from '../files/repo-name.ts';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs git (no prompts, no pager); resolves with code and output. */
export async function git(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
): Promise<GitResult> {
  const p = Bun.spawn(['git', ...args], {
    cwd: opts.cwd,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', ...opts.env },
    stdout: 'pipe',
    stderr: 'pipe',
    stdin: 'ignore',
  });
  return outputOf(p);
}

async function gitOk(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
): Promise<string> {
  const r = await git(args, opts);
  if (r.code !== 0)
    throw new PrerequisiteError(`git ${args.slice(0, 3).join(' ')} failed: ${r.stderr.trim()}`);
  return r.stdout;
}

/**
 * The git directory holding `repo`'s objects: a local directory from `repoDirs`, else a bare clone of
 * `https://github.com/<repo>.git` cached under `cacheDir`.
 */
export async function repoSource(repo: string, repoDirs: RepoDirs, cacheDir: string): Promise<string> {
  // a row's `repo` names a folder under the cache and a URL: `owner/name` only, never `../`
  const bad = repoProblem(repo);
  if (bad)
    throw new InputError(`repo '${repo}': ${bad}`, { hint: 'rows name their repository as owner/name' });
  const local = repoDirOf(repoDirs, repo);
  if (local) {
    if (!existsSync(local)) throw new InputError(`--repo-dir ${repo}=${local}: directory does not exist`);
    return local;
  }
  const dest = within(cacheDir, [`${repo.replace('/', '+')}.git`], 'repo');
  if (existsSync(dest)) return dest;
  const url = `https://github.com/${repo}.git`;
  // cloned aside and published whole: a queue job asking beside this one never reads a clone being written
  await buildAndPublish(dest, async (tmp) => {
    const r = await git(['clone', '--bare', '--quiet', url, tmp]);
    if (r.code !== 0)
      throw new PrerequisiteError(`cannot clone ${url}: ${r.stderr.trim().split('\n').pop()}`, {
        hint: `offline? pass --repo-dir ${repo}=PATH (a local clone with the base commits)`,
      });
  });
  return dest;
}

/** The tree id of `commit` in `src` (identifies the snapshot without making it). */
export async function treeOf(src: string, commit: string): Promise<string> {
  if (commit.startsWith('-')) throw new InputError(`commit '${commit}' is not a commit id`);
  const r = await git(['--git-dir', await gitDir(src), 'rev-parse', '--verify', `${commit}^{tree}`]);
  if (r.code !== 0)
    throw new InputError(`commit ${commit} not found in ${src}`, { hint: 'fetch it into the local clone' });
  return r.stdout.trim();
}

async function gitDir(src: string): Promise<string> {
  return (await gitOk(['rev-parse', '--absolute-git-dir'], { cwd: src })).trim();
}

const FIXED = {
  GIT_AUTHOR_NAME: 'faun',
  GIT_AUTHOR_EMAIL: 'faun@localhost',
  GIT_COMMITTER_NAME: 'faun',
  GIT_COMMITTER_EMAIL: 'faun@localhost',
  GIT_AUTHOR_DATE: '1970-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '1970-01-01T00:00:00Z',
};

/** The files of `commit`'s tree in `src`, checked out into `dest` (no git directory). */
export async function exportTree(src: string, commit: string, dest: string): Promise<void> {
  const tree = await treeOf(src, commit);
  mkdirSync(dest, { recursive: true });
  await checkoutRaw(await gitDir(src), tree, dest);
}

/** No end-of-line or filter conversion: the bytes as committed, whatever the tree's .gitattributes say. */
const RAW_ATTRIBUTES = '* -text -eol -filter -ident -working-tree-encoding\n';

/**
 * Checks `tree` of git directory `gd` out into `dest` as committed: through a scratch git directory
 * borrowing `gd`'s objects, whose info/attributes (which outrank the tree's) turn every conversion off.
 * Returns the paths left out because their blobs are absent.
 */
async function checkoutRaw(gd: string, tree: string, dest: string): Promise<string[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'faun-checkout-'));
  try {
    await gitOk(['init', '-q', '--bare', scratch]);
    writeFileSync(join(scratch, 'objects', 'info', 'alternates'), `${join(gd, 'objects')}\n`);
    mkdirSync(join(scratch, 'info'), { recursive: true });
    writeFileSync(join(scratch, 'info', 'attributes'), RAW_ATTRIBUTES);
    const base = ['--git-dir', scratch, '--work-tree', dest, '-c', 'core.autocrlf=false'];
    await gitOk([...base, 'read-tree', tree]);
    const missing = await missingBlobs(gd, tree);
    if (!missing.length) {
      await gitOk([...base, 'checkout-index', '-a', '-f']);
      return [];
    }
    // A partial mirror lacks some large blobs: check the rest out, leave those files absent.
    for (const path of missing) await gitOk([...base, 'rm', '-q', '--cached', '--', path]);
    await gitOk([...base, 'checkout-index', '-a', '-f']);
    return missing;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Paths of `tree` whose blobs `gd` does not hold (a partial clone's filtered blobs). */
async function missingBlobs(gd: string, tree: string): Promise<string[]> {
  const entries = (await gitOk(['--git-dir', gd, 'ls-tree', '-r', '-z', tree]))
    .split('\0')
    .map((l) => /^\d+ blob ([0-9a-f]+)\t(.+)$/s.exec(l))
    .filter((m): m is RegExpExecArray => m !== null);
  const p = Bun.spawn(['git', '--git-dir', gd, 'cat-file', '--batch-check'], {
    stdin: new TextEncoder().encode(entries.map((m) => `${m[1]}\n`).join('')),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const out = (await new Response(p.stdout).text()).split('\n');
  await p.exited;
  return entries.filter((_, i) => out[i]?.endsWith(' missing')).map((m) => m[2]!);
}

/** Writes the single-commit snapshot of `src` at `commit` into `dest` (which must not exist). */
export async function snapshotRepo(
  src: string,
  commit: string,
  dest: string,
): Promise<{ tree: string; head: string }> {
  const tree = await treeOf(src, commit);
  mkdirSync(dest, { recursive: true });
  const gd = await gitDir(src);
  // The bytes as committed, out and back in: no end-of-line or filter conversion by the tree's
  // .gitattributes (`text=auto` over committed CRLF, or `eol=crlf`, would otherwise give other blobs).
  const missing = await checkoutRaw(gd, tree, dest);
  await gitOk(['init', '-q', '-b', 'main', dest]);
  writeFileSync(join(dest, '.git', 'info', 'attributes'), RAW_ATTRIBUTES);
  await gitOk(['-c', 'core.autocrlf=false', 'add', '-A', '-f', '.'], { cwd: dest });
  // Submodules (gitlinks) have no content here (`git add` skips their empty directories): record each
  // at its commit, as the base tree has it, so the snapshot's tree is the base commit's.
  for (const line of (await gitOk(['--git-dir', gd, 'ls-tree', '-r', '-z', tree])).split('\0')) {
    const m = /^160000 commit ([0-9a-f]+)\t(.+)$/.exec(line);
    if (m) await gitOk(['update-index', '--add', '--cacheinfo', `160000,${m[1]},${m[2]}`], { cwd: dest });
  }
  await gitOk(['-c', 'commit.gpgsign=false', 'commit', '-q', '--no-verify', '-m', `base ${commit}`], {
    cwd: dest,
    env: FIXED,
  });
  await gitOk(['config', 'user.name', 'faun'], { cwd: dest });
  await gitOk(['config', 'user.email', 'faun@localhost'], { cwd: dest });
  const head = (await gitOk(['rev-parse', 'HEAD'], { cwd: dest })).trim();
  const got = (await gitOk(['rev-parse', 'HEAD^{tree}'], { cwd: dest })).trim();
  // Without the blobs a partial mirror lacks the tree cannot be the base tree: those files are absent.
  if (got !== tree && !missing.length)
    throw new PrerequisiteError(`snapshot of ${commit} has tree ${got}, expected ${tree}`);
  return { tree, head };
}
