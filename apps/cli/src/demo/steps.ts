/**
 * Running one demo step: print the `faun …` command a user would type, run it as a child process with
 * the demo's environment, and fail loudly (exit code, command) when it fails.
 */
import { join } from 'node:path';
import { FaunError } from '@faun/kit';

const MAIN = join(import.meta.dir, '..', 'main.ts');

export interface StepEnv {
  env: Record<string, string>;
  log: (line: string) => void;
}

const quote = (a: string) => (/^[\w./:=,@+-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);

/** Runs `faun <args>`; output goes straight to the terminal so progress shows. */
export async function faun(args: string[], s: StepEnv): Promise<void> {
  s.log(`\n$ faun ${args.map(quote).join(' ')}`);
  const proc = Bun.spawn(['bun', MAIN, ...args], {
    stdout: 'inherit',
    stderr: 'inherit',
    stdin: 'ignore',
    env: { ...process.env, ...s.env },
  });
  const code = await proc.exited;
  if (code !== 0) throw new FaunError(`demo step failed (exit ${code}): faun ${args.map(quote).join(' ')}`);
}

/** Prints a stage banner. */
export function stage(n: number, total: number, title: string, log: (line: string) => void): void {
  log(`\n== [${n}/${total}] ${title} ==`);
}
