/**
 * Gold SEARCH/REPLACE blocks for CE items: derived from a before/after file pair, rendered in the
 * canonical text format, and checked by parsing the text back and re-applying it to the pre-change
 * file, which must give the post-change file byte for byte. Line-based and exact, the same semantics
 * as the scorer's `parseSearchReplace` / `applySearchReplace` (a file is `text.split('\n')`, so a
 * trailing newline is a final empty line and CRLF is kept inside lines).
 * @module
 */
import { diffArrays } from 'diff';

export interface EditBlock {
  search: string;
  replace: string;
}

const START = /^\s*<{5,9} ?SEARCH\s*$/;
const MID = /^\s*={5,9}\s*$/;
const END = /^\s*>{5,9} ?REPLACE\s*$/;

/** Renders blocks as `<<<<<<< SEARCH / ======= / >>>>>>> REPLACE`, separated by a blank line. */
export function formatBlocks(blocks: EditBlock[]): string {
  return blocks
    .map((b) => ['<<<<<<< SEARCH', b.search, '=======', b.replace, '>>>>>>> REPLACE'].join('\n'))
    .join('\n\n');
}

/** Parses blocks from text produced by {@link formatBlocks} (prose between blocks is ignored). */
export function parseBlocks(text: string): EditBlock[] {
  const lines = text.split('\n');
  const out: EditBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!START.test(lines[i] ?? '')) continue;
    let j = i + 1;
    const search: string[] = [];
    while (j < lines.length && !MID.test(lines[j] ?? '')) search.push(lines[j++] ?? '');
    j++;
    const replace: string[] = [];
    while (j < lines.length && !END.test(lines[j] ?? '')) replace.push(lines[j++] ?? '');
    out.push({ search: search.join('\n'), replace: replace.join('\n') });
    i = j;
  }
  return out;
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

/** True when a block's text would be misread by the parser (a line that looks like a marker). */
function hasMarkerLine(text: string): boolean {
  return text.split('\n').some((l) => START.test(l) || MID.test(l) || END.test(l));
}

/**
 * Derives blocks turning `before` into `after`: one block per group of changed lines with `context`
 * unchanged lines around it, widened until every SEARCH is unique where it is applied and the
 * formatted text parses back and re-applies to exactly `after`. Returns null when no block set
 * survives that round trip (e.g. the file contains lines that look like block markers).
 */
export function deriveBlocks(before: string, after: string): EditBlock[] | null {
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
    if (verifyBlocks(before, after, formatBlocks(blocks))) return blocks;
  }
  return null;
}

/** True when `text` parses to blocks that turn `before` into exactly `after`. */
export function verifyBlocks(before: string, after: string, text: string): boolean {
  const blocks = parseBlocks(text);
  if (blocks.some((b) => hasMarkerLine(b.search) || hasMarkerLine(b.replace))) return false;
  const r = applyBlocks(before, blocks);
  return r.ok && r.text === after;
}
