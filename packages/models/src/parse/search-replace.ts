/**
 * SEARCH/REPLACE edit blocks (the CE answer format): parse them from model output, apply them to a
 * file with a clear reason when a block does not apply, and derive gold blocks from a before/after
 * pair. Matching is by whole lines and exact (indentation and trailing spaces count).
 *
 * ```
 * path/to/file.py
 * <<<<<<< SEARCH
 * old lines
 * =======
 * new lines
 * >>>>>>> REPLACE
 * ```
 */
import { diffArrays } from 'diff';

export interface SearchReplaceBlock {
  /** The file line before the block, when given. */
  path: string | null;
  search: string;
  replace: string;
}

export interface ParsedBlocks {
  blocks: SearchReplaceBlock[];
  /** Malformed parts (e.g. a block without its REPLACE marker), with line numbers. */
  errors: string[];
}

const START = /^\s*<{5,9} ?SEARCH\s*$/;
const MID = /^\s*={5,9}\s*$/;
const END = /^\s*>{5,9} ?REPLACE\s*$/;
const FENCE = /^\s*```/;

/** Parses every SEARCH/REPLACE block in `text` (fences and prose around them are ignored). */
export function parseSearchReplace(text: string): ParsedBlocks {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const blocks: SearchReplaceBlock[] = [];
  const errors: string[] = [];
  let lastPath: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!START.test(line)) {
      const t = line.trim();
      if (t && !FENCE.test(t) && !MID.test(t) && !END.test(t)) {
        const p = t.replace(/^[`'"*#\s]+|[`'"*:]+$/g, '');
        lastPath = /\s/.test(p) ? null : p;
      }
      continue;
    }
    const startLine = i + 1;
    const search: string[] = [];
    const replace: string[] = [];
    let j = i + 1;
    while (j < lines.length && !MID.test(lines[j]!) && !START.test(lines[j]!)) search.push(lines[j++]!);
    if (j >= lines.length || !MID.test(lines[j]!)) {
      errors.push(`line ${startLine}: SEARCH block has no '=======' divider`);
      i = j - 1;
      continue;
    }
    j++;
    while (j < lines.length && !END.test(lines[j]!) && !START.test(lines[j]!)) replace.push(lines[j++]!);
    if (j >= lines.length || !END.test(lines[j]!)) {
      errors.push(`line ${startLine}: SEARCH block has no '>>>>>>> REPLACE' end marker`);
      i = j - 1;
      continue;
    }
    blocks.push({ path: lastPath, search: search.join('\n'), replace: replace.join('\n') });
    lastPath = null;
    i = j;
  }
  return { blocks, errors };
}

const toLines = (s: string): string[] => (s === '' ? [] : s.split('\n'));

function findAll(hay: string[], needle: string[], limit = 2): number[] {
  const out: number[] = [];
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let k = 0; k < needle.length; k++) if (hay[i + k] !== needle[k]) continue outer;
    out.push(i);
    if (out.length >= limit) break;
  }
  return out;
}

export type ApplyResult =
  | { ok: true; text: string; warnings: string[] }
  | { ok: false; reason: string; blockIndex: number };

export interface ApplyOptions {
  /** Fail (instead of using the first match) when a SEARCH part occurs more than once. */
  requireUnique?: boolean;
}

/** Applies blocks in order to `source`; the first block that does not apply stops with its reason. */
export function applySearchReplace(
  source: string,
  blocks: SearchReplaceBlock[],
  opts: ApplyOptions = {},
): ApplyResult {
  let lines = source.split('\n');
  const warnings: string[] = [];
  for (const [b, block] of blocks.entries()) {
    const n = b + 1;
    const search = toLines(block.search);
    const replace = toLines(block.replace);
    if (search.length === 0) {
      if (lines.length === 1 && lines[0] === '') {
        lines = block.replace.split('\n');
        continue;
      }
      return { ok: false, blockIndex: b, reason: `block ${n}: SEARCH is empty but the file is not` };
    }
    const hits = findAll(lines, search);
    if (hits.length === 0) {
      const loose = findAll(
        lines.map((l) => l.trim()),
        search.map((l) => l.trim()),
      );
      const first = search.find((l) => l.trim()) ?? '';
      return {
        ok: false,
        blockIndex: b,
        reason: loose.length
          ? `block ${n}: SEARCH matches only when indentation/trailing spaces are ignored (first line: ${JSON.stringify(first.slice(0, 80))})`
          : `block ${n}: SEARCH text not found in the file (first line: ${JSON.stringify(first.slice(0, 80))})`,
      };
    }
    if (hits.length > 1) {
      if (opts.requireUnique)
        return {
          ok: false,
          blockIndex: b,
          reason: `block ${n}: SEARCH text occurs more than once in the file`,
        };
      warnings.push(`block ${n}: SEARCH occurs more than once; applied to the first match`);
    }
    const at = hits[0]!;
    lines = [...lines.slice(0, at), ...replace, ...lines.slice(at + search.length)];
  }
  return { ok: true, text: lines.join('\n'), warnings };
}

/** Renders blocks in the canonical text format. */
export function formatSearchReplace(blocks: SearchReplaceBlock[]): string {
  return blocks
    .map((b) =>
      [...(b.path ? [b.path] : []), '<<<<<<< SEARCH', b.search, '=======', b.replace, '>>>>>>> REPLACE'].join(
        '\n',
      ),
    )
    .join('\n\n');
}

/**
 * Gold blocks turning `before` into `after`: one block per group of changed lines with `context`
 * unchanged lines around it, widened until every SEARCH part is unique where it is applied.
 */
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
    if (c.added) {
      const last = edits[edits.length - 1];
      if (last && last.end === ai) last.add.push(...c.value);
      else edits.push({ start: ai, end: ai, add: [...c.value] });
    } else if (c.removed) {
      const last = edits[edits.length - 1];
      if (last && last.end === ai) last.end += c.value.length;
      else edits.push({ start: ai, end: ai + c.value.length, add: [] });
      ai += c.value.length;
    } else ai += c.value.length;
  }
  for (const ctx of [3, 6, 12, 25, 50, 100, a.length]) {
    const blocks: SearchReplaceBlock[] = [];
    let k = 0;
    while (k < edits.length) {
      let start = edits[k]!.start;
      let end = edits[k]!.end;
      const add: string[] = [];
      let group = [edits[k]!];
      while (k + 1 < edits.length && edits[k + 1]!.start - end <= 2 * ctx) {
        k++;
        group = [...group, edits[k]!];
        end = edits[k]!.end;
      }
      start = group[0]!.start;
      const lo = Math.max(0, start - ctx);
      const hi = Math.min(a.length, end + ctx);
      let pos = lo;
      for (const e of group) {
        add.push(...a.slice(pos, e.start), ...e.add);
        pos = e.end;
      }
      add.push(...a.slice(pos, hi));
      blocks.push({ path, search: a.slice(lo, hi).join('\n'), replace: add.join('\n') });
      k++;
    }
    const check = applySearchReplace(before, blocks, { requireUnique: true });
    if (check.ok && check.text === after) return blocks;
  }
  return [{ path, search: before, replace: after }];
}
