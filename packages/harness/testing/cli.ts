/** The `faun` command line (apps/cli) as a child process, for tests of what it prints and exits with. */
import { resolve } from 'node:path';

export const FAUN_MAIN = resolve(import.meta.dir, '../../../apps/cli/src/main.ts');

/** Runs `faun …args` with `env` over this process's environment; its exit code and both streams. */
export function runFaun(
  args: string[],
  env: Record<string, string | undefined> = {},
): { code: number; stdout: string; stderr: string } {
  const p = Bun.spawnSync(['bun', FAUN_MAIN, ...args], {
    env: { ...process.env, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}
