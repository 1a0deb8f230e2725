/**
 * Gold SEARCH/REPLACE blocks from a before/after file pair: a line diff grouped into blocks with as
 * little context as keeps every SEARCH part unique where it applies, verified with this package's own
 * parser and applier (every block must match exactly and the result must be `after` byte for byte).
 * Block boundaries never take in a line that reads as a block marker (see `isMarkerLine`): context
 * stops short of such lines, so only a change that itself writes or removes one cannot be expressed.
 * Line-based: a file is `text.split('\n')`, so a trailing newline is a final empty line.
 * @module
 */
import { diffArrays } from 'diff';
import { applySearchReplace } from './apply.ts';
import {
  formatSearchReplace,
  isMarkerLine,
  parseSearchReplace,
  type SearchReplaceBlock,
} from './search-replace.ts';

interface Edit {
  start: number;
  end: number;
  add: string[];
}

/** Gold blocks, or the specific reason none can be written. */
export type DerivedEdits = { ok: true; blocks: SearchReplaceBlock[] } | { ok: false; reason: string };

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

const quote = (l: string) => `'${l.trim().slice(0, 20)}'`;

/** Why `edits` cannot be written as blocks at all (they write or remove a marker line), or null. */
function markerInChange(a: string[], edits: Edit[]): string | null {
  for (const e of edits) {
    for (let k = e.start; k < e.end; k++)
      if (isMarkerLine(a[k]!))
        return `the change removes or rewrites line ${k + 1}, which reads as a block marker (${quote(a[k]!)})`;
    const added = e.add.find(isMarkerLine);
    if (added !== undefined) return `the change writes a line that reads as a block marker (${quote(added)})`;
  }
  return null;
}

/** Blocks for one context width: each edit widened by `ctx` lines, never across a marker line. */
function blocksFor(a: string[], edits: Edit[], markers: number[], ctx: number, path: string | null) {
  const markerIn = (lo: number, hi: number) => markers.some((m) => m >= lo && m < hi);
  const floor = (at: number) => Math.max(0, ...markers.filter((m) => m < at).map((m) => m + 1));
  const ceil = (at: number) => Math.min(a.length, ...markers.filter((m) => m >= at));
  const blocks: SearchReplaceBlock[] = [];
  for (let k = 0; k < edits.length; k++) {
    const group = [edits[k]!];
    while (k + 1 < edits.length) {
      const prevEnd = group[group.length - 1]!.end;
      const next = edits[k + 1]!;
      if (next.start - prevEnd > 2 * ctx || markerIn(prevEnd, next.start)) break;
      group.push(next);
      k++;
    }
    const first = group[0]!;
    const last = group[group.length - 1]!;
    const lo = Math.max(floor(first.start), first.start - ctx);
    const hi = Math.min(ceil(last.end), last.end + ctx);
    const repl: string[] = [];
    let pos = lo;
    for (const e of group) {
      repl.push(...a.slice(pos, e.start), ...e.add);
      pos = e.end;
    }
    repl.push(...a.slice(pos, hi));
    blocks.push({ path, search: a.slice(lo, hi).join('\n'), replace: repl.join('\n'), line: 0 });
  }
  return blocks;
}

/**
 * The blocks turning `before` into `after` (each with `path`), or the reason there are none: the
 * change writes or removes a marker-like line, or no context width (bounded by marker-like lines)
 * makes every SEARCH part match exactly once. Same text → no blocks.
 */
export function deriveSearchReplace(before: string, after: string, path: string | null = null): DerivedEdits {
  if (before === after) return { ok: true, blocks: [] };
  const a = before.split('\n');
  const edits = lineEdits(a, after.split('\n'));
  const inChange = markerInChange(a, edits);
  if (inChange) return { ok: false, reason: inChange };
  const markers = a.flatMap((l, i) => (isMarkerLine(l) ? [i] : []));
  let why = '';
  for (const ctx of [3, 6, 12, 25, 50, 100, 400, a.length]) {
    const blocks = blocksFor(a, edits, markers, ctx, path);
    const problem = checkSearchReplace(before, after, formatSearchReplace(blocks));
    if (problem === null) return { ok: true, blocks };
    why = problem;
  }
  return { ok: false, reason: `no context width between marker-like lines re-applies exactly: ${why}` };
}

/**
 * Null when `text` parses without problems and applying its blocks to `before` matches every block
 * exactly (no whitespace-tolerant fallback) and gives exactly `after`; otherwise what went wrong.
 */
export function checkSearchReplace(before: string, after: string, text: string): string | null {
  const parsed = parseSearchReplace(text);
  const problem = parsed.problems[0];
  if (problem) return `line ${problem.line}: ${problem.problem}`;
  const r = applySearchReplace(before, parsed.blocks);
  const failure = r.failures[0];
  if (failure) return `block ${failure.index + 1}: ${failure.reason}`;
  const loose = r.matches.findIndex((m) => m !== 'exact' && m !== 'create');
  if (loose >= 0) return `block ${loose + 1} matches only ignoring white space (${r.matches[loose]})`;
  return r.result === after ? null : 'the blocks apply but do not give the changed file';
}

/** True when {@link checkSearchReplace} finds nothing wrong. */
export function verifySearchReplace(before: string, after: string, text: string): boolean {
  return checkSearchReplace(before, after, text) === null;
}
