/**
 * SWE-bench Lite rows rebuilt from a mirror and pointers (pure). A pointer names the instance, its base
 * commit and the head commit of the fixing pull request, with the row's computed fields (version,
 * environment_setup_commit, created_at, FAIL_TO_PASS / PASS_TO_PASS) and where each was taken from. The
 * pull request's diff (base..head, as GitHub serves it for a pull request whose base is the merge base) is
 * split as SWE-bench splits it: a file whose path contains `test`, `tests`, `testing` or `e2e` goes to
 * `test_patch`, every other file to `patch`. The issue text is not rebuilt: `problem_statement` names the
 * issue's address (faun's runs do not read it).
 */
import { InputError } from '@faun/kit';

export interface LitePointer {
  instance_id: string;
  repo: string;
  base_commit: string;
  /** Head commit of the fixing pull request: the gold and test patches are base_commit..head_commit. */
  head_commit: string;
  pr: number;
  issue: number | null;
  version: string;
  environment_setup_commit: string;
  created_at: string;
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
}

/** One SWE-bench row, in the dataset's own field names (FAIL_TO_PASS / PASS_TO_PASS as JSON text). */
export interface LiteRow {
  repo: string;
  instance_id: string;
  base_commit: string;
  patch: string;
  test_patch: string;
  problem_statement: string;
  hints_text: string;
  created_at: string;
  version: string;
  FAIL_TO_PASS: string;
  PASS_TO_PASS: string;
  environment_setup_commit: string;
}

const SHA = /^[0-9a-f]{40}$/;
const HINT = 'each line of the pointers file: bench/data/lite-extra-pointers.jsonl describes the fields';

function need(where: string, name: string, ok: boolean, what: string): void {
  if (!ok) throw new InputError(`${where}: ${name}: expected ${what}`, { hint: HINT });
}

const isNames = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string' && x.length > 0);

/** One pointer line, checked; `where` is file:line. */
export function parsePointer(value: unknown, where: string): LitePointer {
  need(where, 'line', !!value && typeof value === 'object' && !Array.isArray(value), 'a JSON object');
  const p = value as Record<string, unknown>;
  for (const k of ['instance_id', 'repo', 'version', 'created_at'])
    need(where, k, typeof p[k] === 'string' && p[k] !== '', 'a non-empty string');
  for (const k of ['base_commit', 'head_commit', 'environment_setup_commit'])
    need(where, k, typeof p[k] === 'string' && SHA.test(p[k] as string), 'a 40-digit commit id');
  need(where, 'pr', Number.isInteger(p.pr), 'a pull request number');
  need(where, 'issue', p.issue === null || Number.isInteger(p.issue), 'an issue number or null');
  need(
    where,
    'FAIL_TO_PASS',
    isNames(p.FAIL_TO_PASS) && p.FAIL_TO_PASS.length > 0,
    'a non-empty list of test names',
  );
  need(where, 'PASS_TO_PASS', isNames(p.PASS_TO_PASS), 'a list of test names');
  return p as unknown as LitePointer;
}

/** SWE-bench's test-file rule: any of these words in the path. */
export const isTestPath = (path: string): boolean =>
  ['test', 'tests', 'e2e', 'testing'].some((w) => path.includes(w));

/**
 * A `git diff` split into (non-test patch, test patch), each file's `index` line dropped (SWE-bench's rows
 * carry none). Files keep their order.
 */
export function splitDiff(diff: string): { patch: string; test_patch: string } {
  const files = diff.split(/^(?=diff --git )/m).filter((f) => f.startsWith('diff --git '));
  let patch = '';
  let test_patch = '';
  for (const f of files) {
    const path = /^diff --git a\/\S+ b\/(\S+)/.exec(f)?.[1] ?? '';
    const hunk = f.search(/^@@ /m);
    const head = hunk < 0 ? f : f.slice(0, hunk);
    const text = head.replace(/^index [0-9a-f]+\.\.[0-9a-f]+.*\n/m, '') + (hunk < 0 ? '' : f.slice(hunk));
    if (isTestPath(path)) test_patch += text;
    else patch += text;
  }
  return { patch, test_patch };
}

/** The row of `p` from its pull request's diff. */
export function buildRow(p: LitePointer, diff: string): LiteRow {
  const { patch, test_patch } = splitDiff(diff);
  if (!patch || !test_patch)
    throw new InputError(
      `${p.instance_id}: the diff ${p.base_commit.slice(0, 12)}..${p.head_commit.slice(0, 12)} has ${patch ? 'no test file' : 'no non-test file'}`,
      { hint: 'check base_commit and head_commit of its pointer' },
    );
  const issue = p.issue === null ? `pull/${p.pr}` : `issues/${p.issue}`;
  return {
    repo: p.repo,
    instance_id: p.instance_id,
    base_commit: p.base_commit,
    patch,
    test_patch,
    problem_statement: `https://github.com/${p.repo}/${issue} (the issue text is not rebuilt)`,
    hints_text: '',
    created_at: p.created_at,
    version: p.version,
    FAIL_TO_PASS: JSON.stringify(p.FAIL_TO_PASS),
    PASS_TO_PASS: JSON.stringify(p.PASS_TO_PASS),
    environment_setup_commit: p.environment_setup_commit,
  };
}
