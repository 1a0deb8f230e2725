/**
 * Import of benchmark rows — SWE-bench / SWE-bench-java (`repo, instance_id, base_commit, patch,
 * problem_statement`), Multi-SWE-bench (`org, repo, number, base.sha, fix_patch, resolved_issues`; id
 * `org/repo:pr-N`) — into FL and CE items, each row read by its benchmark's importer
 * (@faun/harness/benchmarks). Rows may carry `files_before` / `files_after` / `folder_tree`; otherwise the
 * tree and pre-change file come from a {@link RepoSource} and the post-change file from applying the patch.
 * @module
 */
import { benchmarkOfRow, type IssueRow } from '@faun/harness/benchmarks';
import type { CeItem, FlItem } from '@faun/schema';
import { applyPatch, parsePatch, type StructuredPatch } from 'diff';
import type { RepoSource } from './source.ts';
import { buildCe, buildFl, type IssueInput } from './tasks.ts';

/** A benchmark row normalised from any of the supported formats: its issue and fix, and the files it brings. */
export interface BenchRow extends IssueRow {
  filesBefore: Record<string, string> | null;
  filesAfter: Record<string, string> | null;
  tree: string[] | null;
}

const strMap = (v: unknown): Record<string, string> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : null;

/**
 * Normalises one parsed JSON row through its benchmark's importer (@faun/harness: one id per row, as
 * `faun verify` gives it); throws an InputError naming the missing field.
 */
export function normalizeRow(raw: Record<string, unknown>, where: string): BenchRow {
  return {
    ...benchmarkOfRow(raw).issueRow(raw, where),
    filesBefore: strMap(raw.files_before),
    filesAfter: strMap(raw.files_after),
    tree: Array.isArray(raw.folder_tree) ? (raw.folder_tree as string[]) : null,
  };
}

/** The files a unified diff touches, with its per-file patch (`a/` and `b/` prefixes removed). */
export function patchFiles(
  patch: string,
): Array<{ path: string; added: boolean; deleted: boolean; p: StructuredPatch }> {
  const strip = (n: string | undefined) => (n ?? '').replace(/^[ab]\//, '');
  return parsePatch(patch)
    .filter((p) => p.oldFileName || p.newFileName)
    .map((p) => ({
      path: strip(p.newFileName === '/dev/null' ? p.oldFileName : p.newFileName),
      added: p.oldFileName === '/dev/null',
      deleted: p.newFileName === '/dev/null',
      p,
    }));
}

export interface ImportResult {
  fl: FlItem[];
  ce: CeItem[];
  /** id → why the row gave no FL / CE item. */
  skipped: Array<{ id: string; task: 'fl' | 'ce'; reason: string }>;
}

/** The issue part of a row, as the task builders take it. */
const issueOf = (row: BenchRow): IssueInput => ({
  id: row.id,
  repo: row.repo,
  issueNumber: row.issueNumber,
  title: row.title,
  body: row.body,
  baseCommit: row.baseCommit,
});

/** Turns one normalised row into at most one FL and one CE item. */
export async function importRow(row: BenchRow, source: RepoSource | null): Promise<ImportResult> {
  const out: ImportResult = { fl: [], ce: [], skipped: [] };
  const skip = (reason: string, tasks: Array<'fl' | 'ce'> = ['fl', 'ce']) => {
    for (const task of tasks) out.skipped.push({ id: row.id, task, reason });
  };
  const files = patchFiles(row.patch);
  const only = files[0];
  if (files.length !== 1 || !only) {
    skip(`the patch changes ${files.length} files (FL and CE need exactly one)`);
    return out;
  }
  const path = only.path;
  let tree = row.tree;
  if (!tree && source) tree = await source.tree(row.repo, row.baseCommit);
  if (tree) {
    const r = buildFl({
      ...issueOf(row),
      tree,
      goldPath: path,
    });
    if ('item' in r) out.fl.push(r.item);
    else skip(r.skip, ['fl']);
  } else skip('no folder_tree and no --repo-dir / --api-url source', ['fl']);

  let before = row.filesBefore?.[path] ?? null;
  if (before === null && !only.added && source) before = await source.file(row.repo, row.baseCommit, path);
  if (before === null && only.added) before = '';
  let after = row.filesAfter?.[path] ?? null;
  if (after === null && before !== null) {
    const applied = applyPatch(before, only.p);
    after = applied === false ? null : applied;
    if (after === null) {
      skip(`the patch does not apply to ${path} at ${row.baseCommit}`, ['ce']);
      return out;
    }
  }
  if (before === null || after === null) {
    skip('no files_before/files_after and no --repo-dir / --api-url source', ['ce']);
    return out;
  }
  const ce = buildCe({
    ...issueOf(row),
    prNumber: row.prNumber,
    prTitle: row.prTitle,
    prBody: row.prBody,
    path,
    before,
    after,
  });
  if ('item' in ce) out.ce.push(ce.item);
  else skip(ce.skip, ['ce']);
  return out;
}
