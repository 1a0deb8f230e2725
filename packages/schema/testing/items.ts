/**
 * Small task records for tests (`@faun/schema/testing`): an FL item of `o/r` and a prediction for it.
 * @module
 */
import type { FlItem } from '../src/index.ts';

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
