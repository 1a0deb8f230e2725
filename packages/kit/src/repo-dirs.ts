/**
 * `--repo-dir owner/repo=PATH`: local checkouts named on the command line, parsed one way for every
 * command (repeatable; the CLI also splits values on commas). Repository names are matched without
 * regard to case, as GitHub does; each directory must exist.
 */
import { existsSync } from 'node:fs';
import type { OptionSpec } from './command.ts';
import { UsageError } from './errors.ts';

/** Lower-cased `owner/repo` → local directory. */
export type RepoDirs = Readonly<Record<string, string>>;

const REPO = /^[\w.-]+\/[\w.-]+$/;
const HINT = 'pass each checkout as --repo-dir owner/repo=PATH (repeatable)';

/** Parses `--repo-dir` values; a usage error names the bad value and says what to write instead. */
export function parseRepoDirs(values: readonly string[]): RepoDirs {
  const out: Record<string, string> = {};
  for (const v of values) {
    const eq = v.indexOf('=');
    const repo = eq < 0 ? '' : v.slice(0, eq).trim();
    const path = eq < 0 ? '' : v.slice(eq + 1).trim();
    if (!REPO.test(repo) || path === '')
      throw new UsageError(`--repo-dir ${JSON.stringify(v)}: expected owner/repo=PATH`, { hint: HINT });
    const key = repo.toLowerCase();
    if (key in out) throw new UsageError(`--repo-dir: ${repo} is given twice`);
    if (!existsSync(path)) throw new UsageError(`--repo-dir ${repo}=${path}: directory does not exist`);
    out[key] = path;
  }
  return out;
}

/** The directory of `repo` (`owner/name`, any case), or null when none was given. */
export function repoDirOf(dirs: RepoDirs, repo: string): string | null {
  const want = repo.toLowerCase();
  if (want in dirs) return dirs[want] ?? null;
  for (const [k, dir] of Object.entries(dirs)) if (k.toLowerCase() === want) return dir;
  return null;
}

/** The `--repo-dir` option of a command; `description` says what the checkouts are used for. */
export function repoDirOption(description: string): OptionSpec {
  return { name: 'repo-dir', type: 'list', repeatable: true, arg: 'OWNER/REPO=PATH', description };
}
