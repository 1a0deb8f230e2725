/** Runs `faun predict …` in a child process (the real CLI entry point) and collects its output. */
import { join } from 'node:path';
import { outputOf, REPO_ROOT } from '@faun/kit';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/** Spawns `bun apps/cli/src/main.ts predict …args` in `cwd` with an isolated cache and no config. */
export async function runPredict(
  args: string[],
  o: { cwd: string; cacheDir: string; env?: Record<string, string> },
): Promise<CliResult> {
  const p = Bun.spawn(['bun', join(REPO_ROOT, 'apps/cli/src/main.ts'), 'predict', ...args], {
    cwd: o.cwd,
    env: { ...process.env, FAUN_CACHE_DIR: o.cacheDir, CI: '1', FAUN_CONFIG: '', ...o.env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const { code, stdout, stderr } = await outputOf(p);
  return { code, out: stdout, err: stderr };
}
