/**
 * Removes the parts of GitHub-flavoured Markdown where GitHub does not autolink references: HTML
 * comments, fenced code blocks, indented code blocks and inline code spans. What remains is the prose
 * that reference extraction and link detection look at.
 * @module
 */

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Returns `text` with HTML comments, fenced/indented code blocks and inline code replaced by blanks
 * (a space for inline code, an empty line for block constructs), so neighbouring words never merge.
 *
 * An indented line (4+ spaces or a tab) starts a code block only after a blank line or another code
 * line, as in CommonMark, where indented code cannot interrupt a paragraph. Deeply indented list
 * continuations after a blank line are therefore treated as code too (a deliberate, conservative choice:
 * the reference is ignored rather than counted).
 */
export function stripNonProse(text: string): string {
  const noComments = text.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ');
  const lines = noComments.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let fence: { char: string; len: number } | null = null;
  let prevBlank = true;
  let inIndented = false;
  for (const line of lines) {
    if (fence) {
      const close = line.match(/^ {0,3}(`{3,}|~{3,})\s*$/);
      if (close?.[1] && close[1][0] === fence.char && close[1].length >= fence.len) fence = null;
      out.push('');
      prevBlank = false;
      continue;
    }
    const open = line.match(FENCE_OPEN);
    if (open?.[1]) {
      fence = { char: open[1][0] ?? '`', len: open[1].length };
      out.push('');
      inIndented = false;
      prevBlank = false;
      continue;
    }
    const blank = line.trim() === '';
    const indented = /^( {4}|\t)/.test(line) && !blank;
    if (indented && (prevBlank || inIndented)) {
      inIndented = true;
      out.push('');
      prevBlank = false;
      continue;
    }
    if (!blank) inIndented = false;
    out.push(stripInlineCode(line));
    prevBlank = blank;
  }
  return out.join('\n');
}

/** Replaces inline code spans (matching backtick runs) on one line with a space. */
function stripInlineCode(line: string): string {
  let result = '';
  let i = 0;
  while (i < line.length) {
    if (line[i] !== '`') {
      result += line[i];
      i++;
      continue;
    }
    let run = 0;
    while (line[i + run] === '`') run++;
    const ticks = '`'.repeat(run);
    let search = i + run;
    let close = -1;
    while (search < line.length) {
      const at = line.indexOf(ticks, search);
      if (at < 0) break;
      let after = at + run;
      while (line[after] === '`') after++;
      if (after - at === run) {
        close = at;
        break;
      }
      search = after;
    }
    if (close < 0) {
      result += ticks;
      i += run;
    } else {
      result += ' ';
      i = close + run;
    }
  }
  return result;
}
