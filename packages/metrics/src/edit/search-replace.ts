/**
 * SEARCH/REPLACE edit blocks (aider style): parse them out of model output, apply them to a file with
 * exact then whitespace-tolerant matching, and format them canonically.
 *
 * The marker rule (what the edit format models are prompted with emits): a marker stands alone on its
 * line, in column 0, as 5 to 9 of its character (`<` `=` `>`; the canonical form has 7), followed for
 * SEARCH/REPLACE by one optional space and the word, and by nothing but trailing white space (a CR
 * included). An indented line such as a docstring's `    ========` is never a marker; it is content.
 *
 * ```text
 * path/to/file.py
 * <<<<<<< SEARCH
 * old lines
 * =======
 * new lines
 * >>>>>>> REPLACE
 * ```
 * @module
 */

/**
 * One edit: replace the run of lines `search` with the lines `replace`. Both are whole lines joined with
 * `\n` and no trailing newline; '' means no lines. A file is `text.split('\n')`, so a final newline is a
 * last empty line (the same semantics as the gold blocks built by the curation stage).
 */
export interface SearchReplaceBlock {
  /** The file path written before the block, or null when none was given. */
  path: string | null;
  search: string;
  replace: string;
  /** 1-based line of the `<<<<<<< SEARCH` marker in the parsed text (0 when built in code). */
  line: number;
}

export interface ParseProblem {
  line: number;
  problem: string;
}

export interface ParsedEdits {
  blocks: SearchReplaceBlock[];
  problems: ParseProblem[];
}

const HEAD = /^<{5,9} ?SEARCH\s*$/;
const DIVIDER = /^={5,9}\s*$/;
const TAIL = /^>{5,9} ?REPLACE\s*$/;

/** True when `line` reads as a block marker under the marker rule (see the module comment). */
export function isMarkerLine(line: string): boolean {
  return HEAD.test(line) || DIVIDER.test(line) || TAIL.test(line);
}
const FENCE = /^\s*(```|~~~)/;

function pathFromLine(line: string): string | null {
  if (isMarkerLine(line)) return null;
  let t = line.trim();
  if (t === '' || FENCE.test(t)) return null;
  t = t.replace(/^#+\s*/, '').replace(/^(file|path|filename)\s*:\s*/i, '');
  t = t.replace(/^[*`'"]+|[*`'":]+$/g, '').trim();
  if (t === '' || /\s/.test(t) || t.length > 300) return null;
  return t;
}

/**
 * Parses every SEARCH/REPLACE block in `text`. A block's path is the nearest non-empty line before it
 * (skipping an opening ``` fence); blocks without one inherit the previous block's path. Fences around
 * blocks are ignored. Unterminated or malformed blocks are reported in `problems` and skipped.
 */
export function parseSearchReplace(text: string): ParsedEdits {
  const lines = text.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const blocks: SearchReplaceBlock[] = [];
  const problems: ParseProblem[] = [];
  let lastPath: string | null = null;
  let i = 0;
  while (i < lines.length) {
    const raw = lines[i]!.replace(/\r$/, '');
    if (DIVIDER.test(raw) || TAIL.test(raw)) {
      problems.push({
        line: i + 1,
        problem: `'${raw.trim()}' outside a block (no '<<<<<<< SEARCH' before it)`,
      });
      i++;
      continue;
    }
    if (!HEAD.test(raw)) {
      i++;
      continue;
    }
    const start = i;
    let path: string | null = null;
    for (let j = i - 1; j >= 0 && j >= i - 3; j--) {
      const l = lines[j]!;
      if (l.trim() === '' || FENCE.test(l)) continue;
      path = pathFromLine(l);
      break;
    }
    path ??= lastPath;
    const search: string[] = [];
    const replace: string[] = [];
    let state: 'search' | 'replace' = 'search';
    let closed = false;
    i++;
    for (; i < lines.length; i++) {
      const l = lines[i]!.replace(/\r$/, '');
      if (state === 'search' && DIVIDER.test(l)) {
        state = 'replace';
        continue;
      }
      if (state === 'replace' && TAIL.test(l)) {
        closed = true;
        i++;
        break;
      }
      if (HEAD.test(l)) break;
      if (state === 'search' && TAIL.test(l)) break;
      (state === 'search' ? search : replace).push(lines[i]!);
    }
    if (!closed) {
      problems.push({
        line: start + 1,
        problem:
          state === 'search'
            ? "block has no '=======' divider after its SEARCH section"
            : "block is not closed with '>>>>>>> REPLACE'",
      });
      continue;
    }
    blocks.push({ path, search: search.join('\n'), replace: replace.join('\n'), line: start + 1 });
    lastPath = path;
  }
  return { blocks, problems };
}

/** Formats blocks canonically (path line when known, markers, newline-terminated sections). */
export function formatSearchReplace(
  blocks: readonly SearchReplaceBlock[],
  opts: { fence?: boolean } = {},
): string {
  const section = (s: string) => (s === '' ? '' : `${s}\n`);
  return blocks
    .map((b) => {
      const body = `<<<<<<< SEARCH\n${section(b.search)}=======\n${section(b.replace)}>>>>>>> REPLACE\n`;
      const fenced = opts.fence ? `\`\`\`\n${body}\`\`\`\n` : body;
      return b.path ? `${b.path}\n${fenced}` : fenced;
    })
    .join('\n');
}
