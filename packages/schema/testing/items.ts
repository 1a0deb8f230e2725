/**
 * Small task records for tests (`@faun/schema/testing`): the issue fields of an item, an FL item of `o/r`,
 * a CE item with a one-line fix.
 * @module
 */
import type { CeItem, FlItem } from '../src/index.ts';

/** FL item `o/r#<n>` (issue n) whose gold path `a.py` is the whole tree, with `over` applied. */
export function testFlItem(n = 1, over: Partial<FlItem> = {}): FlItem {
  return {
    v: 1,
    id: `o/r#${n}`,
    repo: 'o/r',
    language: 'python',
    issue_number: n,
    issue_title: 't',
    issue_body: 'b',
    task: 'fl',
    base_commit: null,
    tree: ['a.py'],
    gold_path: 'a.py',
    ...over,
  };
}

/** The fields every test item shares: `id` of `repo`, issue 1 titled `t` with body `b`, Python. */
export function testIssue(id: string, repo = 'o/r') {
  return {
    v: 1,
    id,
    repo,
    language: 'python' as const,
    issue_number: 1,
    issue_title: 't',
    issue_body: 'b',
  };
}

/** CE item `id` whose gold edit turns `return 1` into `return 2` in f.py; `gold_patch` is that edit's text. */
export function testCeItem(id: string, gold_patch: string): CeItem {
  return {
    ...testIssue(id),
    task: 'ce',
    base_commit: null,
    pr_number: 2,
    pr_title: 'p',
    pr_body: '',
    path: 'f.py',
    file_before: 'def f():\n    return 1\n',
    file_after: 'def f():\n    return 2\n',
    gold_patch,
  };
}
