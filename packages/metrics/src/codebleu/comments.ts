/**
 * CodeBLEU's `remove_comments_and_docstrings` (used before the syntax and dataflow components only).
 * Python: re-emit the tokenizer's tokens without comments and statement-level strings. Other languages:
 * one regex that blanks `//` and block comments and keeps quoted strings. Failures keep the text as it is.
 */

import { parseCode, type SyntaxLang } from '@faun/syntax';
import { dropBlankLines } from './pystr.ts';
import { PyTok, pyTokenize } from './pytokenize.ts';

function removePython(source: string): string {
  const parts: string[] = [];
  let prev: PyTok = PyTok.INDENT;
  let lastLine = -1;
  let lastCol = 0;
  for (const t of pyTokenize(source)) {
    if (t.sl > lastLine) lastCol = 0;
    if (t.sc > lastCol) parts.push(' '.repeat(t.sc - lastCol));
    if (t.type === PyTok.COMMENT) {
      // dropped
    } else if (t.type === PyTok.STRING) {
      if (prev !== PyTok.INDENT && prev !== PyTok.NEWLINE && t.sc > 0) parts.push(t.text);
    } else {
      parts.push(t.text);
    }
    prev = t.type;
    lastCol = t.ec;
    lastLine = t.el;
  }
  return dropBlankLines(parts.join(''));
}

// Python's `$` with MULTILINE matches only before '\n' (or at the end): JS `m` would also stop at \r etc.
const C_LIKE = /\/\/[^\n]*|\/\*[\s\S]*?\*\/|'(?:\\[\s\S]|[^\\'])*'|"(?:\\[\s\S]|[^\\"])*"/g;

function removeCLike(source: string): string {
  return dropBlankLines(source.replace(C_LIKE, (m) => (m.startsWith('/') ? ' ' : m)));
}

/**
 * The reference's comment removal for `lang` ('python' or a C-like language); on a tokenizer error the
 * source is returned unchanged, as the reference's callers do.
 */
export function removeComments(source: string, lang: string): string {
  try {
    return lang === 'python' ? removePython(source) : removeCLike(source);
  } catch {
    return source;
  }
}

const COMMENT_NODE_TYPES = new Set(['comment', 'line_comment', 'block_comment', 'html_comment']);

/**
 * The `fixCommentRemoval` variant for C-like languages: blank the parser's comment nodes (one space each,
 * like the regex) instead of regex matches, so template literals, raw strings and regex literals survive.
 */
export function removeCommentsByTree(source: string, grammar: SyntaxLang): string {
  const parsed = parseCode(source, grammar);
  const cursor = parsed.walk();
  const ranges: [number, number][] = [];
  try {
    for (;;) {
      if (COMMENT_NODE_TYPES.has(cursor.nodeType)) ranges.push([cursor.startIndex, cursor.endIndex]);
      else if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return finish();
      }
    }
  } finally {
    cursor.delete();
    parsed.delete();
  }
  function finish(): string {
    let out = '';
    let at = 0;
    for (const [s, e] of ranges) {
      out += `${parsed.text(at, s)} `;
      at = e;
    }
    return dropBlankLines(out + parsed.text(at, parsed.bytes.length));
  }
}
