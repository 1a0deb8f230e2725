/**
 * Test fixtures: FL and CE items built from the shared SWE-bench Lite sample (`with-files.jsonl`),
 * the way `faun build --from-swebench` does it, so this package's tests do not depend on curate.
 */

import { deriveSearchReplace, formatSearchReplace } from '@faun/metrics';
import type { CeItem, FlItem } from '@faun/schema';
import { readJsonlAll } from '@faun/schema';

export interface SwebenchRow {
  repo: string;
  instance_id: string;
  base_commit: string;
  problem_statement: string;
  folder_tree: string[];
  gold_files: string[];
  files_before: Record<string, string>;
  files_after: Record<string, string>;
}

export async function loadSwebenchRows(path: string): Promise<SwebenchRow[]> {
  return (await readJsonlAll<SwebenchRow>(path)).values;
}

function splitStatement(s: string): { title: string; body: string } {
  const nl = s.indexOf('\n');
  return nl < 0
    ? { title: s.trim(), body: '' }
    : { title: s.slice(0, nl).trim(), body: s.slice(nl + 1).trim() };
}

/** The fields every item of a row shares: id, repository, the issue (from the problem statement). */
function itemBase(r: SwebenchRow) {
  const { title, body } = splitStatement(r.problem_statement);
  return {
    v: 1 as const,
    id: r.instance_id,
    repo: r.repo,
    language: 'python' as const,
    issue_number: null,
    issue_title: title,
    issue_body: body,
  };
}

export function toFlItem(r: SwebenchRow): FlItem {
  return {
    ...itemBase(r),
    task: 'fl',
    base_commit: r.base_commit,
    tree: [...r.folder_tree].sort(),
    gold_path: r.gold_files[0]!,
  };
}

/** The CE item of a row; throws when its gold blocks cannot be derived (a fixture must be usable). */
export function toCeItem(r: SwebenchRow): CeItem {
  const path = r.gold_files[0]!;
  const before = r.files_before[path] ?? '';
  const after = r.files_after[path] ?? '';
  const derived = deriveSearchReplace(before, after, path);
  if (!derived.ok) throw new Error(`${r.instance_id}: no gold blocks: ${derived.reason}`);
  return {
    ...itemBase(r),
    task: 'ce',
    base_commit: r.base_commit,
    pr_number: null,
    pr_title: '',
    pr_body: '',
    path,
    file_before: before,
    file_after: after,
    gold_patch: formatSearchReplace(derived.blocks),
  };
}
