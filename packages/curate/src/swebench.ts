/**
 * Import of SWE-bench / SWE-bench-java rows (`repo, instance_id, base_commit, patch,
 * problem_statement`) and Multi-SWE-bench rows (`org, repo, number, base.sha, fix_patch,
 * resolved_issues`) into FL and CE items. Rows may carry `files_before` / `files_after` /
 * `folder_tree`; otherwise the tree and pre-change file come from a {@link RepoSource} and the
 * post-change file from applying the patch.
 * @module
 */
import { InputError } from '@faun/kit';
import type { CeItem, FlItem } from '@faun/schema';
import { applyPatch, parsePatch, type StructuredPatch } from 'diff';
import type { RepoSource } from './source.ts';
import { buildCe, buildFl, type IssueInput } from './tasks.ts';

/** A benchmark row normalised from any of the supported formats. */
export interface BenchRow {
  id: string;
  repo: string;
  baseCommit: string;
  patch: string;
  issueNumber: number | null;
  title: string;
  body: string;
  prNumber: number | null;
  prTitle: string;
  prBody: string;
  filesBefore: Record<string, string> | null;
  filesAfter: Record<string, string> | null;
  tree: string[] | null;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strMap = (v: unknown): Record<string, string> | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : null;

/** Normalises one parsed JSON row; throws an {@link InputError} naming the missing field. */
export function normalizeRow(raw: Record<string, unknown>, where: string): BenchRow {
  const need = (cond: unknown, field: string) => {
    if (!cond) throw new InputError(`${where}: ${field}: missing — not a SWE-bench or Multi-SWE-bench row`);
  };
  const common = {
    filesBefore: strMap(raw.files_before),
    filesAfter: strMap(raw.files_after),
    tree: Array.isArray(raw.folder_tree) ? (raw.folder_tree as string[]) : null,
  };
  if (typeof raw.org === 'string' && raw.fix_patch !== undefined) {
    const base = (raw.base ?? {}) as { sha?: string };
    const issue = (Array.isArray(raw.resolved_issues) ? raw.resolved_issues[0] : null) as {
      number?: number;
      title?: string;
      body?: string;
    } | null;
    need(base.sha, 'base.sha');
    const repo = `${raw.org}/${str(raw.repo)}`;
    const number = typeof raw.number === 'number' ? raw.number : null;
    return {
      id: str(raw.instance_id) || `${raw.org}__${str(raw.repo)}-${number}`,
      repo,
      baseCommit: base.sha ?? '',
      patch: str(raw.fix_patch),
      issueNumber: issue?.number ?? null,
      title: issue?.title ?? str(raw.title),
      body: issue?.body ?? str(raw.body),
      prNumber: number,
      prTitle: str(raw.title),
      prBody: str(raw.body),
      ...common,
    };
  }
  need(raw.instance_id, 'instance_id');
  need(raw.repo, 'repo');
  need(raw.base_commit, 'base_commit');
  need(typeof raw.patch === 'string', 'patch');
  // the issue text is the whole input of FL and CE: a row without it would import with an empty issue
  if (typeof raw.problem_statement !== 'string' || raw.problem_statement.trim() === '')
    throw new InputError(
      `${where}: problem_statement: ${typeof raw.problem_statement === 'string' ? 'empty' : 'missing'} — the issue text is the task's input`,
      { hint: 'use the full SWE-bench rows (they carry problem_statement)' },
    );
  const statement = str(raw.problem_statement);
  const nl = statement.indexOf('\n');
  const id = str(raw.instance_id);
  const num = id.match(/-(\d+)$/);
  return {
    id,
    repo: str(raw.repo),
    baseCommit: str(raw.base_commit),
    patch: str(raw.patch),
    issueNumber: null,
    title: nl < 0 ? statement.trim() : statement.slice(0, nl).trim(),
    body: nl < 0 ? '' : statement.slice(nl + 1),
    prNumber: num ? Number(num[1]) : null,
    prTitle: '',
    prBody: '',
    ...common,
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
