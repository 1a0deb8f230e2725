/**
 * Gold SEARCH/REPLACE blocks from a before/after file pair: a line diff grouped into blocks with as
 * little context as keeps every SEARCH part unique where it applies, verified with this package's own
 * parser and applier (every block must match exactly and the result must be `after` byte for byte).
 * Line-based: a file is `text.split('\n')`, so a trailing newline is a final empty line.
 * @module
 */
import { diffArrays } from 'diff';
import { applySearchReplace } from './apply.ts';
import { formatSearchReplace, parseSearchReplace, type SearchReplaceBlock } from './search-replace.ts';

interface Edit {
  start: number;
  end: number;
  add: string[];
}

/** Line edits turning `a` into `b`, as [start, end) ranges of `a` replaced by new lines. */
function lineEdits(a: string[], b: string[]): Edit[] {
  const edits: Edit[] = [];
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
  return edits;
}

/**
 * The blocks turning `before` into `after` (each with `path`), or null when no context width makes them
 * re-apply exactly (e.g. the file holds lines that look like block markers). Same text → no blocks.
 */
export function deriveSearchReplace(
  before: string,
  after: string,
  path: string | null = null,
): SearchReplaceBlock[] | null {
  if (before === after) return [];
  const a = before.split('\n');
  const edits = lineEdits(a, after.split('\n'));
  for (const ctx of [3, 6, 12, 25, 50, 100, 400, a.length]) {
    const blocks: SearchReplaceBlock[] = [];
    for (let k = 0; k < edits.length; k++) {
      const group = [edits[k]!];
      while (k + 1 < edits.length && edits[k + 1]!.start - group[group.length - 1]!.end <= 2 * ctx)
        group.push(edits[++k]!);
      const lo = Math.max(0, group[0]!.start - ctx);
      const hi = Math.min(a.length, group[group.length - 1]!.end + ctx);
      const repl: string[] = [];
      let pos = lo;
      for (const e of group) {
        repl.push(...a.slice(pos, e.start), ...e.add);
        pos = e.end;
      }
      repl.push(...a.slice(pos, hi));
      blocks.push({ path, search: a.slice(lo, hi).join('\n'), replace: repl.join('\n'), line: 0 });
    }
    if (verifySearchReplace(before, after, formatSearchReplace(blocks))) return blocks;
  }
  return null;
}

/**
 * True when `text` parses without problems and applying its blocks to `before` matches every block
 * exactly (no whitespace-tolerant fallback) and gives exactly `after`.
 */
export function verifySearchReplace(before: string, after: string, text: string): boolean {
  const parsed = parseSearchReplace(text);
  if (parsed.problems.length > 0) return false;
  const r = applySearchReplace(before, parsed.blocks);
  return r.ok && r.result === after && r.matches.every((m) => m === 'exact' || m === 'create');
}
