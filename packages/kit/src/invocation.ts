/**
 * How to type the `faun` command again in the user's shell, for printed resume commands: `faun` when
 * it runs as the binary on PATH, `bun run faun` from the workspace root (or when started that way),
 * else `bun <path to the CLI entry>`.
 */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { REPO_ROOT } from './paths.ts';

export interface InvocationEnv {
  /** `process.argv[1]`: the script bun runs. */
  script: string | undefined;
  cwd: string;
  env: Record<string, string | undefined>;
  /** `Bun.which`: the executable a name resolves to on PATH. */
  which: (name: string) => string | null;
  realpath?: (p: string) => string;
  /** The workspace root (where `bun run faun` works). */
  repoRoot?: string;
}

const safeRealpath = (p: string) => {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
};

/** Quotes one argument for a POSIX shell (left as is when it needs no quoting). */
export const shellQuote = (a: string): string =>
  /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;

/** The command prefix that runs this CLI again from `cwd` (see module docs). */
export function cliInvocation(o: InvocationEnv): string {
  const real = o.realpath ?? safeRealpath;
  const root = o.repoRoot ?? REPO_ROOT;
  if (!o.script) return 'faun';
  const script = real(resolve(o.cwd, o.script));
  const onPath = o.which('faun');
  // node_modules/.bin is on PATH only inside `bun run`, not in the user's shell.
  const installed = onPath !== null && !/node_modules[\\/]\.bin[\\/]/.test(onPath);
  if (installed && real(onPath) === script) return 'faun';
  // `bun run faun` (the workspace script) sets npm_lifecycle_event and works again from the same cwd.
  if (o.env.npm_lifecycle_event === 'faun') return 'bun run faun';
  if (real(o.cwd) === real(root) && script === real(resolve(root, 'apps/cli/src/main.ts')))
    return 'bun run faun';
  const rel = relative(o.cwd, script);
  return `bun ${shellQuote(rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : script)}`;
}

/** `cliInvocation` for the running process. */
export function currentInvocation(): string {
  return cliInvocation({
    script: process.argv[1],
    cwd: process.cwd(),
    env: process.env,
    which: (n) => Bun.which(n),
  });
}

/** The command line that re-runs (and so resumes) `faun <args>`, shell-quoted. */
export function resumeCommand(args: readonly string[], prefix = currentInvocation()): string {
  return [prefix, ...args.map(shellQuote)].join(' ');
}
