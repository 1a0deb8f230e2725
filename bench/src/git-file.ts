/** A file of `commit` in the git directory `dir` (a mirror), or null when it has none. */
export function gitFileAt(dir: string, commit: string, path: string): string | null {
  const r = Bun.spawnSync(['git', '-C', dir, 'show', `${commit}:${path}`]);
  return r.exitCode === 0 ? r.stdout.toString() : null;
}

/** The paths of the files under `path` in `commit` of the git directory `dir` (a mirror). */
export function gitFilesUnder(dir: string, commit: string, path: string): string[] {
  const r = Bun.spawnSync(['git', '-C', dir, 'ls-tree', '-r', '--name-only', commit, path]);
  return r.stdout.toString().split('\n').filter(Boolean);
}
