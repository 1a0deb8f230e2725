/**
 * A port of CPython 3.11 `tokenize.generate_tokens` (the pure-Python tokenizer), as far as CodeBLEU's
 * comment and docstring removal needs it: token type, text and (line, column) spans. Columns are UTF-16
 * offsets; they only enter the result as differences across whitespace, where they equal code-point offsets.
 * Like the original it throws on an unterminated multi-line string or statement and on a bad dedent.
 */
import { pyStrip } from './pystr.ts';

export enum PyTok {
  NAME = 1,
  NUMBER = 2,
  STRING = 3,
  NEWLINE = 4,
  INDENT = 5,
  DEDENT = 6,
  OP = 54,
  COMMENT = 61,
  NL = 62,
  ERRORTOKEN = 60,
  ENDMARKER = 0,
}

/** One token: type, text, start/end as [line (1-based), column]. */
export interface PyToken {
  type: PyTok;
  text: string;
  sl: number;
  sc: number;
  el: number;
  ec: number;
}

const group = (...c: string[]) => `(${c.join('|')})`;
const maybe = (...c: string[]) => `${group(...c)}?`;
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

const Whitespace = '[ \\f\\t]*';
const Comment = '#[^\\r\\n]*';
const Name = '[\\p{L}\\p{N}_]+';
const Hexnumber = '0[xX](?:_?[0-9a-fA-F])+';
const Binnumber = '0[bB](?:_?[01])+';
const Octnumber = '0[oO](?:_?[0-7])+';
const Decnumber = '(?:0(?:_?0)*|[1-9](?:_?[0-9])*)';
const Intnumber = group(Hexnumber, Binnumber, Octnumber, Decnumber);
const Exponent = '[eE][-+]?[0-9](?:_?[0-9])*';
const Pointfloat =
  group('[0-9](?:_?[0-9])*\\.(?:[0-9](?:_?[0-9])*)?', '\\.[0-9](?:_?[0-9])*') + maybe(Exponent);
const Expfloat = '[0-9](?:_?[0-9])*' + Exponent;
const Floatnumber = group(Pointfloat, Expfloat);
const Imagnumber = group('[0-9](?:_?[0-9])*[jJ]', Floatnumber + '[jJ]');
const PyNumber = group(Imagnumber, Floatnumber, Intnumber);

function allStringPrefixes(): string[] {
  const result = new Set<string>(['']);
  const perms = (s: string): string[] =>
    s.length <= 1 ? [s] : [...s].flatMap((c, i) => perms(s.slice(0, i) + s.slice(i + 1)).map((p) => c + p));
  for (const prefix of ['b', 'r', 'u', 'f', 'br', 'fr']) {
    for (const t of perms(prefix)) {
      let variants = [''];
      for (const c of t) variants = variants.flatMap((v) => [v + c, v + c.toUpperCase()]);
      for (const v of variants) result.add(v);
    }
  }
  return [...result];
}
const PREFIXES = allStringPrefixes();
// Python's `group(*set)` order is irrelevant here: alternatives are followed by a quote, so at most one fits.
const StringPrefix = group(...PREFIXES.sort((a, b) => b.length - a.length));

const Single = "[^'\\\\]*(?:\\\\[^\\n][^'\\\\]*)*'";
const Double = '[^"\\\\]*(?:\\\\[^\\n][^"\\\\]*)*"';
const Single3 = "[^'\\\\]*(?:(?:\\\\[^\\n]|'(?!''))[^'\\\\]*)*'''";
const Double3 = '[^"\\\\]*(?:(?:\\\\[^\\n]|"(?!""))[^"\\\\]*)*"""';
const Triple = group(StringPrefix + "'''", StringPrefix + '"""');

const SPECIAL = [
  '~',
  '}',
  '|=',
  '|',
  '{',
  '^=',
  '^',
  ']',
  '[',
  '@=',
  '@',
  '>>=',
  '>>',
  '>=',
  '>',
  '==',
  '=',
  '<=',
  '<<=',
  '<<',
  '<',
  ';',
  ':=',
  ':',
  '/=',
  '//=',
  '//',
  '/',
  '...',
  '.',
  '->',
  '-=',
  '-',
  ',',
  '+=',
  '+',
  '*=',
  '**=',
  '**',
  '*',
  ')',
  '(',
  '&=',
  '&',
  '%=',
  '%',
  '!=',
];
const Special = group(...SPECIAL.map(esc));
const Funny = group('\\r?\\n', Special);
const ContStr = group(
  StringPrefix + "'[^\\n'\\\\]*(?:\\\\[^\\n][^\\n'\\\\]*)*" + group("'", '\\\\\\r?\\n'),
  StringPrefix + '"[^\\n"\\\\]*(?:\\\\[^\\n][^\\n"\\\\]*)*' + group('"', '\\\\\\r?\\n'),
);
const PseudoExtras = group('\\\\\\r?\\n|$(?![\\s\\S])', Comment, Triple);
const PseudoToken = new RegExp(Whitespace + group(PseudoExtras, PyNumber, Funny, ContStr, Name), 'uy');

const ENDPROG = {
  single: new RegExp(Single, 'uy'),
  double: new RegExp(Double, 'uy'),
  s3: new RegExp(Single3, 'uy'),
  d3: new RegExp(Double3, 'uy'),
};
const singleQuoted = new Set(PREFIXES.flatMap((p) => [`${p}'`, `${p}"`]));
const tripleQuoted = new Set(PREFIXES.flatMap((p) => [`${p}'''`, `${p}"""`]));
const ID_START = /^[\p{ID_Start}_]/u;

function endprogFor(quote: string): RegExp {
  if (quote.endsWith("'''")) return ENDPROG.s3;
  if (quote.endsWith('"""')) return ENDPROG.d3;
  return quote.endsWith("'") ? ENDPROG.single : ENDPROG.double;
}

function matchAt(re: RegExp, s: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(s);
}

/** Splits like `io.StringIO(source).readline`: lines keep their trailing `\n`. */
function splitLines(source: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const nl = source.indexOf('\n', start);
    if (nl < 0) break;
    lines.push(source.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < source.length) lines.push(source.slice(start));
  return lines;
}

/** Error raised where CPython's tokenizer raises (TokenError / IndentationError). */
export class PyTokenizeError extends Error {}

/** Tokenizes `source` exactly as CPython 3.11's `generate_tokens(StringIO(source).readline)`. */
export function pyTokenize(source: string): PyToken[] {
  const out: PyToken[] = [];
  const emit = (type: PyTok, text: string, sl: number, sc: number, el: number, ec: number) =>
    out.push({ type, text, sl, sc, el, ec });
  const lines = splitLines(source);
  let lnum = 0;
  let parenlev = 0;
  let continued = false;
  let contstr = '';
  let needcont = false;
  let strstart: [number, number] = [0, 0];
  let endprog: RegExp = ENDPROG.single;
  const indents = [0];
  let lastLine = '';
  let line = '';
  let li = 0;
  for (;;) {
    lastLine = line;
    line = li < lines.length ? (lines[li++] as string) : '';
    lnum += 1;
    let pos = 0;
    const max = line.length;
    if (contstr) {
      if (!line) throw new PyTokenizeError('EOF in multi-line string');
      const m = matchAt(endprog, line, 0);
      if (m) {
        pos = m.index + m[0].length;
        emit(PyTok.STRING, contstr + line.slice(0, pos), strstart[0], strstart[1], lnum, pos);
        contstr = '';
        needcont = false;
      } else if (needcont && !line.endsWith('\\\n') && !line.endsWith('\\\r\n')) {
        emit(PyTok.ERRORTOKEN, contstr + line, strstart[0], strstart[1], lnum, line.length);
        contstr = '';
        continue;
      } else {
        contstr += line;
        continue;
      }
    } else if (parenlev === 0 && !continued) {
      if (!line) break;
      let column = 0;
      while (pos < max) {
        const c = line[pos];
        if (c === ' ') column += 1;
        else if (c === '\t') column = (Math.floor(column / 8) + 1) * 8;
        else if (c === '\f') column = 0;
        else break;
        pos += 1;
      }
      if (pos === max) break;
      const c = line[pos] as string;
      if (c === '#' || c === '\r' || c === '\n') {
        if (c === '#') {
          const comment = line.slice(pos).replace(/[\r\n]+$/, '');
          emit(PyTok.COMMENT, comment, lnum, pos, lnum, pos + comment.length);
          pos += comment.length;
        }
        emit(PyTok.NL, line.slice(pos), lnum, pos, lnum, line.length);
        continue;
      }
      if (column > (indents[indents.length - 1] as number)) {
        indents.push(column);
        emit(PyTok.INDENT, line.slice(0, pos), lnum, 0, lnum, pos);
      }
      while (column < (indents[indents.length - 1] as number)) {
        if (!indents.includes(column)) {
          throw new PyTokenizeError('unindent does not match any outer indentation level');
        }
        indents.pop();
        emit(PyTok.DEDENT, '', lnum, pos, lnum, pos);
      }
    } else {
      if (!line) throw new PyTokenizeError('EOF in multi-line statement');
      continued = false;
    }

    while (pos < max) {
      const pm = matchAt(PseudoToken, line, pos);
      if (!pm) {
        emit(PyTok.ERRORTOKEN, line[pos] as string, lnum, pos, lnum, pos + 1);
        pos += 1;
        continue;
      }
      const token = pm[1] as string;
      const end = pm.index + pm[0].length;
      const start = end - token.length;
      pos = end;
      if (start === end) continue;
      const initial = token[0] as string;
      if ((initial >= '0' && initial <= '9') || (initial === '.' && token !== '.' && token !== '...')) {
        emit(PyTok.NUMBER, token, lnum, start, lnum, end);
      } else if (initial === '\r' || initial === '\n') {
        emit(parenlev > 0 ? PyTok.NL : PyTok.NEWLINE, token, lnum, start, lnum, end);
      } else if (initial === '#') {
        emit(PyTok.COMMENT, token, lnum, start, lnum, end);
      } else if (tripleQuoted.has(token)) {
        endprog = endprogFor(token);
        const m = matchAt(endprog, line, pos);
        if (m) {
          pos = m.index + m[0].length;
          emit(PyTok.STRING, line.slice(start, pos), lnum, start, lnum, pos);
        } else {
          strstart = [lnum, start];
          contstr = line.slice(start);
          break;
        }
      } else if (
        singleQuoted.has(initial) ||
        singleQuoted.has(token.slice(0, 2)) ||
        singleQuoted.has(token.slice(0, 3))
      ) {
        if (token.endsWith('\n')) {
          strstart = [lnum, start];
          const q = singleQuoted.has(initial)
            ? initial
            : singleQuoted.has(token.slice(0, 2))
              ? token.slice(0, 2)
              : token.slice(0, 3);
          endprog = endprogFor(q);
          contstr = line.slice(start);
          needcont = true;
          break;
        }
        emit(PyTok.STRING, token, lnum, start, lnum, end);
      } else if (ID_START.test(token)) {
        emit(PyTok.NAME, token, lnum, start, lnum, end);
      } else if (initial === '\\') {
        continued = true;
      } else {
        if ('([{'.includes(initial)) parenlev += 1;
        else if (')]}'.includes(initial)) parenlev -= 1;
        emit(PyTok.OP, token, lnum, start, lnum, end);
      }
    }
  }
  if (lastLine && !/[\r\n]$/.test(lastLine) && !pyStrip(lastLine).startsWith('#')) {
    emit(PyTok.NEWLINE, '', lnum - 1, lastLine.length, lnum - 1, lastLine.length + 1);
  }
  for (let i = 1; i < indents.length; i++) emit(PyTok.DEDENT, '', lnum, 0, lnum, 0);
  emit(PyTok.ENDMARKER, '', lnum, 0, lnum, 0);
  return out;
}
