/**
 * Does a change touch only comments and string literals? Both versions are parsed and reduced to a
 * structural token sequence — named nodes as open/close marks, leaves as (type, text) — with comments
 * dropped and each string literal reduced to one marker, whatever its text, quotes or prefix (code inside
 * interpolations such as `${x}` or f-string `{x}` stays code). Equal sequences mean the change is confined to comments, string
 * contents and layout. Python docstrings are string literals, so docstring-only edits count as true.
 * Whitespace-only reformatting also yields true (the structure captures Python's indentation blocks).
 */
import { fastCursor } from './fast-cursor.ts';
import type { SyntaxLang } from './languages.ts';
import { type ParsedCode, parseCode } from './parsers.ts';

const COMMENT_TYPES = new Set(['comment', 'line_comment', 'block_comment', 'html_comment']);
const STRING_TYPES = new Set([
  'string',
  'string_literal',
  'template_string',
  'character_literal',
  'interpreted_string_literal',
  'raw_string_literal',
  'rune_literal',
]);
const CODE_INSIDE_STRING = new Set(['interpolation', 'template_substitution']);

function typeNames(parsed: ParsedCode): (id: number) => string {
  const language = parsed.tree.getLanguage();
  return (id) => language.nodeTypeForId(id) ?? 'ERROR';
}

/** The structural token sequence of `code`, joined into one string (see the module doc). */
export function codeSignature(code: string, lang: SyntaxLang): string {
  const parsed = parseCode(code, lang);
  const c = fastCursor(parsed);
  try {
    const names = typeNames(parsed);
    const out: string[] = [];
    // Iterative pre-order walk (trees can be thousands of levels deep). Each open node keeps what to emit
    // when leaving it and whether its parent's children were inside a string literal.
    const open: { close: string | null; inString: boolean }[] = [];
    let inString = false;
    const enter = (close: string | null, childInString: boolean): boolean => {
      if (!c.gotoFirstChild()) return false;
      open.push({ close, inString });
      inString = childInString;
      return true;
    };
    for (;;) {
      const type = names(c.typeId());
      let entered = false;
      if (COMMENT_TYPES.has(type)) {
        // dropped with its subtree
      } else if (inString && !CODE_INSIDE_STRING.has(type)) {
        // string text, quotes and prefixes emit nothing; interpolations below stay code
        entered = enter(null, true);
      } else if (STRING_TYPES.has(type)) {
        out.push('<str');
        entered = enter('>', true);
        if (!entered) out.push('>');
      } else {
        const named = c.isNamed();
        const start = c.startByte();
        const end = c.endByte();
        entered = enter(named ? ')' : null, false);
        if (entered && named) out.push(`(${type}`);
        else if (!entered) out.push(`${type}\u0001${parsed.text(start, end)}`);
      }
      if (entered) continue;
      while (!c.gotoNextSibling()) {
        const node = open.pop();
        if (!node) return out.join('\u0000');
        c.gotoParent();
        if (node.close) out.push(node.close);
        inString = node.inString;
      }
    }
  } finally {
    c.delete();
    parsed.delete();
  }
}

/**
 * True when `before` and `after` differ only inside comments or string literals (or in layout); false when
 * any code token or the syntax structure changed. The grammar must be loaded (`initSyntax`).
 */
export function isCommentOrStringOnlyChange(before: string, after: string, lang: SyntaxLang): boolean {
  if (before === after) return true;
  return codeSignature(before, lang) === codeSignature(after, lang);
}

/**
 * The diff-level variant: applies a unified diff of one file to its pre-change content and compares the
 * two versions. Throws when the diff does not apply to `before`.
 */
export function isCommentOrStringOnlyDiff(diff: string, before: string, lang: SyntaxLang): boolean {
  // loaded here: importing @faun/syntax for parsing alone should not pay for the diff library
  const { applyPatch } = require('diff') as typeof import('diff');
  const after = applyPatch(before, diff);
  if (after === false) {
    throw new Error('the unified diff does not apply to the given pre-change file content');
  }
  return isCommentOrStringOnlyChange(before, after, lang);
}
