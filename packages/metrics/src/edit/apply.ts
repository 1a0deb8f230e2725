/**
 * Applying SEARCH/REPLACE blocks to a file's text, one after another, on whole lines (a file is
 * `text.split('\n')`): an exact unique match first, then whitespace-tolerant matching (trailing
 * whitespace ignored; then indentation ignored, with the replacement re-indented to the file's
 * indentation). A search that matches more than once is reported as ambiguous rather than guessed.
 * @module
 */
import type { SearchReplaceBlock } from './search-replace.ts';

export interface EditFailure {
  block: SearchReplaceBlock;
  /** 0-based index of the block in the list given. */
  index: number;
  reason: string;
}

/** How an applied block matched. */
export type MatchKind = 'exact' | 'rstrip' | 'indent' | 'create';

export interface ApplyResult {
  /** True when every block applied. */
  ok: boolean;
  /** The text after applying every block that applied (failed blocks are skipped). */
  result: string;
  /** Number of blocks applied. */
  applied: number;
  failures: EditFailure[];
  /** How each applied block matched, in order. */
  matches: MatchKind[];
}

const toLines = (s: string): string[] => (s === '' ? [] : s.split('\n'));
const indentOf = (l: string) => /^[ \t]*/.exec(l)![0];

function commonIndent(lines: string[]): string {
  let common: string | null = null;
  for (const l of lines) {
    if (l.trim() === '') continue;
    const ind = indentOf(l);
    if (common === null) common = ind;
    else {
      let k = 0;
      while (k < common.length && k < ind.length && common[k] === ind[k]) k++;
      common = common.slice(0, k);
    }
  }
  return common ?? '';
}

function findRuns(hay: string[], needle: string[], norm: (l: string) => string, limit = 2): number[] {
  const want = needle.map(norm);
  const out: number[] = [];
  outer: for (let i = 0; i + want.length <= hay.length; i++) {
    for (let k = 0; k < want.length; k++) if (norm(hay[i + k]!) !== want[k]) continue outer;
    out.push(i);
    if (out.length >= limit) break;
  }
  return out;
}

const rel = (lines: string[], ind: string) =>
  lines.map((l) =>
    (l.trim() === '' ? '' : l.startsWith(ind) ? l.slice(ind.length) : l.trimStart()).trimEnd(),
  );

/** Re-indents `replace` from the search's base indentation `from` to the file's `to`. */
function reindent(replace: string[], from: string, to: string): string[] {
  const delta = to.length - from.length;
  return replace.map((l) => {
    if (l.trim() === '') return '';
    if (l.startsWith(from)) return to + l.slice(from.length);
    return (to[0] ?? ' ').repeat(Math.max(0, indentOf(l).length + delta)) + l.trimStart();
  });
}

type Step = { lines: string[]; how: MatchKind } | { reason: string };

function applyOne(lines: string[], b: SearchReplaceBlock): Step {
  const search = toLines(b.search);
  const replace = toLines(b.replace);
  if (search.length === 0) {
    if (lines.length === 1 && lines[0] === '') return { lines: b.replace.split('\n'), how: 'create' };
    return { reason: 'empty SEARCH section on a non-empty file; quote the lines to change' };
  }
  const exact = findRuns(lines, search, (l) => l);
  if (exact.length > 1)
    return {
      reason: 'ambiguous: the SEARCH lines occur more than once in the file; include more context lines',
    };
  if (exact.length === 1) {
    const at = exact[0]!;
    return { lines: [...lines.slice(0, at), ...replace, ...lines.slice(at + search.length)], how: 'exact' };
  }
  const loose = findRuns(lines, search, (l) => l.trimEnd());
  if (loose.length > 1)
    return { reason: 'ambiguous: ignoring trailing whitespace, the SEARCH lines match more than once' };
  if (loose.length === 1) {
    const at = loose[0]!;
    return { lines: [...lines.slice(0, at), ...replace, ...lines.slice(at + search.length)], how: 'rstrip' };
  }
  const sInd = commonIndent(search);
  const sRel = rel(search, sInd);
  const hits = findRuns(lines, search, (l) => l.trim(), Number.POSITIVE_INFINITY).filter((at) => {
    const win = lines.slice(at, at + search.length);
    const r = rel(win, commonIndent(win));
    return r.every((l, k) => l === sRel[k]);
  });
  if (hits.length > 1)
    return { reason: 'ambiguous: ignoring indentation, the SEARCH lines match more than once' };
  if (hits.length === 1) {
    const at = hits[0]!;
    const tInd = commonIndent(lines.slice(at, at + search.length));
    const out = [...lines.slice(0, at), ...reindent(replace, sInd, tInd), ...lines.slice(at + search.length)];
    return { lines: out, how: 'indent' };
  }
  const first = search.find((l) => l.trim() !== '')?.trim() ?? '';
  if (first && lines.some((l) => l.trim() === first))
    return {
      reason: `no match: the first SEARCH line ('${first.slice(0, 60)}') is in the file but the lines after it differ`,
    };
  return { reason: 'no match: the SEARCH lines do not occur in the file, not even ignoring whitespace' };
}

/** Applies `blocks` to `original` in order; blocks that fail are reported and skipped. */
export function applySearchReplace(original: string, blocks: readonly SearchReplaceBlock[]): ApplyResult {
  let lines = original.split('\n');
  const failures: EditFailure[] = [];
  const matches: MatchKind[] = [];
  blocks.forEach((block, index) => {
    const r = applyOne(lines, block);
    if ('reason' in r) failures.push({ block, index, reason: r.reason });
    else {
      lines = r.lines;
      matches.push(r.how);
    }
  });
  return { ok: failures.length === 0, result: lines.join('\n'), applied: matches.length, failures, matches };
}
