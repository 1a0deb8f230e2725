/**
 * `--repo-dir` values: `owner/repo=PATH` (repeatable, as in every other faun command), or — the older
 * form, accepted only alone — one directory laid out as `DIR/<owner>/<name>/`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '@faun/kit';

/** Local checkouts: per repository (lower-cased `owner/repo` → path), or one `DIR/<owner>/<name>` root. */
export interface RepoDirs {
  byRepo: Map<string, string>;
  /** The older single-directory layout, or null. */
  root: string | null;
}

const REPO = /^[\w.-]+\/[\w.-]+$/;

/** Parses `--repo-dir` values; every named directory must exist. */
export function parseRepoDirs(values: string[]): RepoDirs {
  const byRepo = new Map<string, string>();
  const plain = values.filter((v) => !v.includes('='));
  if (plain.length && values.length > 1)
    throw new UsageError(
      `--repo-dir ${JSON.stringify(plain[0])}: a directory without 'owner/repo=' can only be given alone`,
      { hint: 'pass each checkout as --repo-dir owner/repo=PATH (repeatable)' },
    );
  for (const v of values) {
    if (!v.includes('=')) continue;
    const eq = v.indexOf('=');
    const repo = v.slice(0, eq);
    const path = v.slice(eq + 1);
    if (!REPO.test(repo) || path === '')
      throw new UsageError(`--repo-dir ${JSON.stringify(v)}: expected owner/repo=PATH`);
    if (byRepo.has(repo.toLowerCase())) throw new UsageError(`--repo-dir: ${repo} is given twice`);
    byRepo.set(repo.toLowerCase(), path);
  }
  const root = plain[0] ?? null;
  for (const [repo, dir] of byRepo)
    if (!existsSync(dir)) throw new UsageError(`--repo-dir ${repo}=${dir}: directory does not exist`);
  if (root !== null && !existsSync(root))
    throw new UsageError(`--repo-dir ${root}: directory does not exist`);
  return { byRepo, root };
}

/** The checkout directory of `repo` (`owner/name`), or null when none was given. */
export function repoDirOf(dirs: RepoDirs, repo: string): string | null {
  const own = dirs.byRepo.get(repo.toLowerCase());
  if (own !== undefined) return own;
  return dirs.root === null ? null : join(dirs.root, repo);
}
