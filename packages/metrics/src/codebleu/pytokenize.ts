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

/** `lineStart`: the line ends the input (whitespace only, no newline). */
const END = -2;
/** `lineStart` / `inString`: the line is consumed (blank, comment, or inside a string). */
const SKIP = -1;

/** The tokenizer's state between lines, as in CPython's `_tokenize`. */
class PyTokenizer {
  readonly out: PyToken[] = [];
  lnum = 0;
  parenlev = 0;
  continued = false;
  contstr = '';
  needcont = false;
  strstart: [number, number] = [0, 0];
  endprog: RegExp = ENDPROG.single;
  readonly indents = [0];

  emit(type: PyTok, text: string, sl: number, sc: number, el: number, ec: number): void {
    this.out.push({ type, text, sl, sc, el, ec });
  }

  /** A line inside a multi-line string: where tokens resume after its end, or SKIP. */
  inString(line: string): number {
    if (!line) throw new PyTokenizeError('EOF in multi-line string');
    const m = matchAt(this.endprog, line, 0);
    if (m) {
      const pos = m.index + m[0].length;
      this.emit(
        PyTok.STRING,
        this.contstr + line.slice(0, pos),
        this.strstart[0],
        this.strstart[1],
        this.lnum,
        pos,
      );
      this.contstr = '';
      this.needcont = false;
      return pos;
    }
    if (this.needcont && !line.endsWith('\\\n') && !line.endsWith('\\\r\n')) {
      this.emit(
        PyTok.ERRORTOKEN,
        this.contstr + line,
        this.strstart[0],
        this.strstart[1],
        this.lnum,
        line.length,
      );
      this.contstr = '';
      return SKIP;
    }
    this.contstr += line;
    return SKIP;
  }

  /** The first line of a statement: its indentation (INDENT / DEDENT), blank and comment lines (NL). */
  lineStart(line: string): number {
    const { lnum, indents } = this;
    const max = line.length;
    let pos = 0;
    let column = 0;
    while (pos < max) {
      const c = line[pos];
      if (c === ' ') column += 1;
      else if (c === '\t') column = (Math.floor(column / 8) + 1) * 8;
      else if (c === '\f') column = 0;
      else break;
      pos += 1;
    }
    if (pos === max) return END;
    const c = line[pos] as string;
    if (c === '#' || c === '\r' || c === '\n') {
      if (c === '#') {
        const comment = line.slice(pos).replace(/[\r\n]+$/, '');
        this.emit(PyTok.COMMENT, comment, lnum, pos, lnum, pos + comment.length);
        pos += comment.length;
      }
      this.emit(PyTok.NL, line.slice(pos), lnum, pos, lnum, line.length);
      return SKIP;
    }
    if (column > (indents[indents.length - 1] as number)) {
      indents.push(column);
      this.emit(PyTok.INDENT, line.slice(0, pos), lnum, 0, lnum, pos);
    }
    while (column < (indents[indents.length - 1] as number)) {
      if (!indents.includes(column)) {
        throw new PyTokenizeError('unindent does not match any outer indentation level');
      }
      indents.pop();
      this.emit(PyTok.DEDENT, '', lnum, pos, lnum, pos);
    }
    return pos;
  }

  /** A string token at `start`: emitted whole, or the start of a multi-line one (true: the line is done). */
  private stringToken(
    line: string,
    token: string,
    start: number,
    end: number,
  ): { done: boolean; pos: number } {
    const { lnum } = this;
    const initial = token[0] as string;
    if (tripleQuoted.has(token)) {
      this.endprog = endprogFor(token);
      const m = matchAt(this.endprog, line, end);
      if (m) {
        const pos = m.index + m[0].length;
        this.emit(PyTok.STRING, line.slice(start, pos), lnum, start, lnum, pos);
        return { done: false, pos };
      }
      this.strstart = [lnum, start];
      this.contstr = line.slice(start);
      return { done: true, pos: end };
    }
    if (token.endsWith('\n')) {
      this.strstart = [lnum, start];
      const q = singleQuoted.has(initial)
        ? initial
        : singleQuoted.has(token.slice(0, 2))
          ? token.slice(0, 2)
          : token.slice(0, 3);
      this.endprog = endprogFor(q);
      this.contstr = line.slice(start);
      this.needcont = true;
      return { done: true, pos: end };
    }
    this.emit(PyTok.STRING, token, lnum, start, lnum, end);
    return { done: false, pos: end };
  }

  /** The tokens of `line` from `pos` on. */
  rest(line: string, from: number): void {
    const { lnum } = this;
    const max = line.length;
    let pos = from;
    while (pos < max) {
      const pm = matchAt(PseudoToken, line, pos);
      if (!pm) {
        this.emit(PyTok.ERRORTOKEN, line[pos] as string, lnum, pos, lnum, pos + 1);
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
        this.emit(PyTok.NUMBER, token, lnum, start, lnum, end);
      } else if (initial === '\r' || initial === '\n') {
        this.emit(this.parenlev > 0 ? PyTok.NL : PyTok.NEWLINE, token, lnum, start, lnum, end);
      } else if (initial === '#') {
        this.emit(PyTok.COMMENT, token, lnum, start, lnum, end);
      } else if (
        tripleQuoted.has(token) ||
        singleQuoted.has(initial) ||
        singleQuoted.has(token.slice(0, 2)) ||
        singleQuoted.has(token.slice(0, 3))
      ) {
        const r = this.stringToken(line, token, start, end);
        if (r.done) return;
        pos = r.pos;
      } else if (ID_START.test(token)) {
        this.emit(PyTok.NAME, token, lnum, start, lnum, end);
      } else if (initial === '\\') {
        this.continued = true;
      } else {
        if ('([{'.includes(initial)) this.parenlev += 1;
        else if (')]}'.includes(initial)) this.parenlev -= 1;
        this.emit(PyTok.OP, token, lnum, start, lnum, end);
      }
    }
  }
}

/** Tokenizes `source` exactly as CPython 3.11's `generate_tokens(StringIO(source).readline)`. */
export function pyTokenize(source: string): PyToken[] {
  const t = new PyTokenizer();
  const lines = splitLines(source);
  let lastLine = '';
  let line = '';
  let li = 0;
  for (;;) {
    lastLine = line;
    line = li < lines.length ? (lines[li++] as string) : '';
    t.lnum += 1;
    let pos = 0;
    if (t.contstr) {
      pos = t.inString(line);
      if (pos === SKIP) continue;
    } else if (t.parenlev === 0 && !t.continued) {
      if (!line) break;
      pos = t.lineStart(line);
      if (pos === END) break;
      if (pos === SKIP) continue;
    } else {
      if (!line) throw new PyTokenizeError('EOF in multi-line statement');
      t.continued = false;
    }
    t.rest(line, pos);
  }
  const { lnum } = t;
  if (lastLine && !/[\r\n]$/.test(lastLine) && !pyStrip(lastLine).startsWith('#')) {
    t.emit(PyTok.NEWLINE, '', lnum - 1, lastLine.length, lnum - 1, lastLine.length + 1);
  }
  for (let i = 1; i < t.indents.length; i++) t.emit(PyTok.DEDENT, '', lnum, 0, lnum, 0);
  t.emit(PyTok.ENDMARKER, '', lnum, 0, lnum, 0);
  return t.out;
}
