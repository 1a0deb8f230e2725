/** A file of `commit` in the git directory `dir` (a mirror), or null when it has none. */
export function gitFileAt(dir: string, commit: string, path: string): string | null {
  const r = Bun.spawnSync(['git', '-C', dir, 'show', `${commit}:${path}`]);
  return r.exitCode === 0 ? r.stdout.toString() : null;
}
