/**
 * Before/after hunks of real commits, read from bare git mirrors (`git log -p` / `git show`): the old side
 * (context + removed lines) and the new side (context + added lines) of each hunk of a diff.
 */

/** One hunk of one file in one commit. */
export interface Hunk {
  commit: string;
  path: string;
  /** Position of the hunk within the file's diff in that commit (0-based). */
  hunk: number;
  before: string;
  after: string;
}

/** Lines of context around each change (`git diff -U`). */
export const CONTEXT_LINES = 8;

function git(gitDir: string, args: string[]): string {
  const p = Bun.spawnSync(['git', `--git-dir=${gitDir}`, ...args], { stdout: 'pipe', stderr: 'pipe' });
  if (p.exitCode !== 0)
    throw new Error(`git ${args.slice(0, 3).join(' ')} in ${gitDir} failed: ${p.stderr.toString().trim()}`);
  return p.stdout.toString();
}

/** Parses `git log -p --format='commit %H'` output into hunks. */
export function parsePatches(text: string): Hunk[] {
  const hunks: Hunk[] = [];
  let commit = '';
  let path = '';
  let index = 0;
  let cur: { before: string[]; after: string[] } | null = null;
  const flush = () => {
    if (cur && commit && path) {
      hunks.push({ commit, path, hunk: index++, before: cur.before.join('\n'), after: cur.after.join('\n') });
    }
    cur = null;
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('commit ') && /^commit [0-9a-f]{40}$/.test(line)) {
      flush();
      commit = line.slice(7);
      path = '';
      continue;
    }
    if (line.startsWith('diff --git ')) {
      flush();
      const m = / b\/(.*)$/.exec(line);
      path = m ? (m[1] as string) : '';
      index = 0;
      continue;
    }
    if (line.startsWith('@@ ')) {
      flush();
      cur = { before: [], after: [] };
      continue;
    }
    if (!cur) continue;
    const c = line[0];
    const body = line.slice(1);
    if (c === ' ') {
      cur.before.push(body);
      cur.after.push(body);
    } else if (c === '-') cur.before.push(body);
    else if (c === '+') cur.after.push(body);
    else if (c === '\\') continue;
    else if (line === '') continue;
    else flush();
  }
  flush();
  return hunks;
}

const DIFF_ARGS = [`-U${CONTEXT_LINES}`, '--no-renames', '--no-color', '--no-ext-diff', '--format=commit %H'];

/** Hunks of the latest `maxCommits` non-merge commits reachable from `head` that touch `pathspec`. */
export function logHunks(gitDir: string, head: string, pathspec: string[], maxCommits: number): Hunk[] {
  return parsePatches(
    git(gitDir, ['log', '-p', '--no-merges', `-n${maxCommits}`, ...DIFF_ARGS, head, '--', ...pathspec]),
  );
}

/** Hunks of the given commits (against their first parent), limited to `pathspec`. */
export function showHunks(gitDir: string, commits: string[], pathspec: string[]): Hunk[] {
  const out: Hunk[] = [];
  for (let i = 0; i < commits.length; i += 200) {
    const batch = commits.slice(i, i + 200);
    out.push(...parsePatches(git(gitDir, ['show', ...DIFF_ARGS, ...batch, '--', ...pathspec])));
  }
  return out;
}

/** The full id of `rev` in the mirror. */
export function revParse(gitDir: string, rev: string): string {
  return git(gitDir, ['rev-parse', '--verify', `${rev}^{commit}`]).trim();
}
