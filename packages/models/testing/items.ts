/** Dataset items for tests. */
import type { FlItem } from '@faun/schema';

/** Item `i` of a fault-localization dataset of the python repository o/r (id `o/r#i`, no base commit). */
export function flItem(
  i: number,
  f: Pick<FlItem, 'issue_title' | 'issue_body' | 'tree' | 'gold_path'>,
): FlItem {
  return {
    v: 1,
    id: `o/r#${i}`,
    repo: 'o/r',
    language: 'python',
    issue_number: i,
    issue_title: f.issue_title,
    issue_body: f.issue_body,
    task: 'fl',
    base_commit: null,
    tree: f.tree,
    gold_path: f.gold_path,
  };
}
