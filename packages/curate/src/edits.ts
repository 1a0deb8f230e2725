/**
 * Gold SEARCH/REPLACE blocks for CE items: derived from a before/after file pair, rendered with the
 * scorer's canonical `formatSearchReplace`, and checked with the scorer's own `parseSearchReplace` +
 * `applySearchReplace`: every block must match exactly and the result must equal the post-change file
 * byte for byte. Line-based (a file is `text.split('\n')`, so a trailing newline is a final empty
 * line and CRLF is kept inside lines).
 * @module
 */
import { applySearchReplace, formatSearchReplace, parseSearchReplace } from '@faun/metrics';
import { diffArrays } from 'diff';

export interface EditBlock {
  search: string;
  replace: string;
}

/** Renders blocks in the scorer's canonical format, each preceded by the file path when given. */
export function formatBlocks(blocks: EditBlock[], path: string | null = null): string {
  return formatSearchReplace(blocks.map((b) => ({ path, search: b.search, replace: b.replace, line: 0 })));
}

/** Parses blocks with the scorer's parser (paths and prose around blocks are ignored here). */
export function parseBlocks(text: string): EditBlock[] {
  return parseSearchReplace(text).blocks.map((b) => ({ search: b.search, replace: b.replace }));
}

const toLines = (s: string): string[] => (s === '' ? [] : s.split('\n'));

function occurrences(hay: string[], needle: string[], limit = 2): number[] {
  const out: number[] = [];
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let k = 0; k < needle.length; k++) if (hay[i + k] !== needle[k]) continue outer;
    out.push(i);
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * Applies blocks in order; each SEARCH must occur exactly once in the text at that point.
 * Returns the new text, or the 1-based number of the block that failed and why.
 */
export function applyBlocks(
  source: string,
  blocks: EditBlock[],
): { ok: true; text: string } | { ok: false; block: number; reason: string } {
  let lines = source.split('\n');
  for (const [i, b] of blocks.entries()) {
    const search = toLines(b.search);
    if (search.length === 0) {
      if (lines.length === 1 && lines[0] === '') {
        lines = b.replace.split('\n');
        continue;
      }
      return { ok: false, block: i + 1, reason: 'empty SEARCH on a non-empty file' };
    }
    const hits = occurrences(lines, search);
    if (hits.length !== 1)
      return { ok: false, block: i + 1, reason: hits.length ? 'SEARCH is ambiguous' : 'SEARCH not found' };
    const at = hits[0] ?? 0;
    lines = [...lines.slice(0, at), ...toLines(b.replace), ...lines.slice(at + search.length)];
  }
  return { ok: true, text: lines.join('\n') };
}

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
 * Derives blocks turning `before` into `after`: one block per group of changed lines with `context`
 * unchanged lines around it, widened until every SEARCH is unique where it is applied and the
 * formatted text parses back and re-applies to exactly `after`. Returns null when no block set
 * survives that round trip (e.g. the file contains lines that look like block markers).
 */
export function deriveBlocks(before: string, after: string, path: string | null = null): EditBlock[] | null {
  if (before === after) return [];
  const a = before.split('\n');
  const edits = lineEdits(a, after.split('\n'));
  for (const ctx of [3, 6, 12, 25, 50, 100, 400, a.length]) {
    const blocks: EditBlock[] = [];
    for (let k = 0; k < edits.length; k++) {
      const group = [edits[k] as Edit];
      while (k + 1 < edits.length && (edits[k + 1] as Edit).start - (group.at(-1) as Edit).end <= 2 * ctx)
        group.push(edits[++k] as Edit);
      const lo = Math.max(0, (group[0] as Edit).start - ctx);
      const hi = Math.min(a.length, (group.at(-1) as Edit).end + ctx);
      const repl: string[] = [];
      let pos = lo;
      for (const e of group) {
        repl.push(...a.slice(pos, e.start), ...e.add);
        pos = e.end;
      }
      repl.push(...a.slice(pos, hi));
      blocks.push({ search: a.slice(lo, hi).join('\n'), replace: repl.join('\n') });
    }
    if (verifyBlocks(before, after, formatBlocks(blocks, path))) return blocks;
  }
  return null;
}

/**
 * True when the scorer parses `text` without problems and applying its blocks to `before` matches every
 * block exactly (no whitespace-tolerant fallback) and gives exactly `after`.
 */
export function verifyBlocks(before: string, after: string, text: string): boolean {
  const parsed = parseSearchReplace(text);
  if (parsed.problems.length > 0) return false;
  const r = applySearchReplace(before, parsed.blocks);
  return r.ok && r.result === after && r.matches.every((m) => m === 'exact' || m === 'create');
}
