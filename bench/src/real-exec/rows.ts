/**
 * SWE-bench-shaped rows from fix-commit pointers (pure): a commit's diff split per file into the fix
 * (`patch`) and the tests (`test_patch`), the instance id, and the environment version its PR number picks.
 */
import { versionForPr } from '@faun/harness';

export interface ExecPointer {
  language: 'javascript' | 'typescript' | 'java';
  repo: string;
  pr: number;
  fix_commit: string;
  problem_statement?: string;
}

/** A path is a test file: under src/test/, test/, tests/ or __tests__/, or named *.test.* / *.spec.*. */
export function isTestPath(path: string): boolean {
  const parts = path.split('/');
  const name = parts[parts.length - 1] ?? '';
  if (/\.(test|spec)\.[^/]+$/.test(name)) return true;
  const dirs = parts.slice(0, -1);
  if (dirs.some((d) => d === 'test' || d === 'tests' || d === '__tests__')) return true;
  return path.includes('src/test/');
}

/** Splits a `git diff` into per-file chunks, each with the file's path (b/ side, a/ side for deletions). */
export function splitDiff(diff: string): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = [];
  const chunks = diff.split(/^(?=diff --git )/m).filter((c) => c.startsWith('diff --git '));
  for (const text of chunks) {
    const head = /^diff --git a\/(.+?) b\/(.+)$/m.exec(text);
    if (!head) continue;
    const plus = /^\+\+\+ b\/(.+)$/m.exec(text);
    out.push({ path: plus?.[1] ?? head[2]!, text: text.endsWith('\n') ? text : `${text}\n` });
  }
  return out;
}

/** The fix and test halves of a diff. */
export function splitPatch(diff: string): { patch: string; test_patch: string } {
  let patch = '';
  let test = '';
  for (const c of splitDiff(diff)) {
    if (isTestPath(c.path)) test += c.text;
    else patch += c.text;
  }
  return { patch, test_patch: test };
}

/** The row for a pointer whose fix commit has parent `base` and diff `diff`. */
export function rowOf(p: ExecPointer, base: string, diff: string): Record<string, unknown> {
  const { patch, test_patch } = splitPatch(diff);
  const [owner, name] = p.repo.split('/');
  return {
    instance_id: `${owner}__${name}-${p.pr}`,
    repo: p.repo,
    language: p.language,
    base_commit: base,
    patch,
    test_patch,
    problem_statement: p.problem_statement ?? '',
    version: versionForPr(p.repo, p.pr),
    FAIL_TO_PASS: [],
    PASS_TO_PASS: [],
  };
}
