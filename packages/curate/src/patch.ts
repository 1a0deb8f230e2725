/**
 * Applying a PR file's `patch` (GitHub's hunks-only diff, usually without a final newline) to the
 * pre-change text. Returns null when the hunks do not parse or do not apply.
 * @module
 */
import type { PrFile, RawEntry } from '@faun/schema';
import { applyPatch } from 'diff';
import type { RepoSource } from './source.ts';

export function applyFilePatch(before: string, path: string, patch: string): string | null {
  const text = `--- a/${path}\n+++ b/${path}\n${patch.endsWith('\n') ? patch : `${patch}\n`}`;
  try {
    const out = applyPatch(before, text);
    return out === false ? null : out;
  } catch {
    return null;
  }
}

/**
 * The pre- and post-change text of a PR's changed file: before at the PR's base commit; after from
 * applying the file's patch, else read at the merge (or head) commit. Otherwise why it is unreadable.
 */
export async function prFileTexts(
  source: RepoSource,
  repo: string,
  pr: RawEntry,
  file: PrFile,
): Promise<{ before: string; after: string } | { unreadable: string }> {
  const base = pr.pr?.base_sha;
  if (!base) return { unreadable: 'the PR has no base commit' };
  const before = file.status === 'added' ? '' : await source.file(repo, base, file.filename);
  if (before === null) return { unreadable: 'the file is not readable at the base commit' };
  const applied = file.patch ? applyFilePatch(before, file.filename, file.patch) : null;
  if (applied !== null) return { before, after: applied };
  const sha = pr.pr?.merge_commit_sha ?? pr.pr?.head_sha;
  const after = sha ? await source.file(repo, sha, file.filename) : null;
  if (after !== null) return { before, after };
  return {
    unreadable: `the patch does not apply and the file is not readable at the ${sha ? 'merge/head' : 'missing merge/head'} commit`,
  };
}
