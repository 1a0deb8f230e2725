/**
 * Gold SEARCH/REPLACE blocks for test fixtures: turns a before/after pair into blocks with enough
 * context that each SEARCH part is unique where it is applied (the curation stage builds the real
 * datasets' gold blocks; this keeps this package's tests independent of it).
 */
import { applySearchReplace, type SearchReplaceBlock } from '@faun/metrics';
import { diffArrays } from 'diff';

export function diffToSearchReplace(
  before: string,
  after: string,
  path: string | null = null,
): SearchReplaceBlock[] {
  if (before === after) return [];
  const a = before.split('\n');
  const b = after.split('\n');
  // Edits as [start, end) ranges of `a` replaced by lines of `b`.
  const edits: { start: number; end: number; add: string[] }[] = [];
  let ai = 0;
  for (const c of diffArrays(a, b)) {
    const last = edits[edits.length - 1];
    if (c.added) {
      if (last && last.end === ai) last.add.push(...c.value);
      else edits.push({ start: ai, end: ai, add: [...c.value] });
    } else if (c.removed) {
      if (last && last.end === ai) last.end += c.value.length;
      else edits.push({ start: ai, end: ai + c.value.length, add: [] });
      ai += c.value.length;
    } else ai += c.value.length;
  }
  for (const ctx of [3, 6, 12, 25, 50, 100, a.length]) {
    const blocks: SearchReplaceBlock[] = [];
    for (let k = 0; k < edits.length; k++) {
      const group = [edits[k]!];
      while (k + 1 < edits.length && edits[k + 1]!.start - group[group.length - 1]!.end <= 2 * ctx)
        group.push(edits[++k]!);
      const lo = Math.max(0, group[0]!.start - ctx);
      const hi = Math.min(a.length, group[group.length - 1]!.end + ctx);
      const add: string[] = [];
      let pos = lo;
      for (const e of group) {
        add.push(...a.slice(pos, e.start), ...e.add);
        pos = e.end;
      }
      add.push(...a.slice(pos, hi));
      blocks.push({ path, search: a.slice(lo, hi).join('\n'), replace: add.join('\n'), line: 0 });
    }
    const check = applySearchReplace(before, blocks);
    if (check.ok && check.matches.every((m) => m === 'exact') && check.result === after) return blocks;
  }
  return [{ path, search: before, replace: after, line: 0 }];
}
