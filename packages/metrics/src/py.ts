/**
 * Python string and number semantics the reference implementations rely on: the `str.split()` /
 * `strip()` whitespace set, `\w`, code-point iteration, banker's rounding and exactly rounded sums.
 * @module
 */

/** Python's whitespace set for `str.split()`, `strip()` and `re` `\s` (differs from JS `\s`). */
export const PY_WS_CLASS =
  '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const WS_RUN = new RegExp(`[${PY_WS_CLASS}]+`, 'u');
const LEAD = new RegExp(`^[${PY_WS_CLASS}]+`, 'u');
const TRAIL = new RegExp(`[${PY_WS_CLASS}]+$`, 'u');

/** Python `\w` for str patterns, as a character-class body. */
export const PY_WORD_CLASS = '\\p{L}\\p{N}_';

/** True when `ch` (one code point) is Python whitespace. */
export function isPyWhitespace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    (code >= 0x1c && code <= 0x20) ||
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** Python `s.split()` (no argument): split on whitespace runs, no empty strings; `''.split()` is `[]`. */
export function pySplit(s: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isPyWhitespace(c)) {
      if (start >= 0) {
        out.push(s.slice(start, i));
        start = -1;
      }
    } else if (start < 0) start = i;
  }
  if (start >= 0) out.push(s.slice(start));
  return out;
}

/** Python `s.strip()`. */
export function pyStrip(s: string): string {
  return s.replace(LEAD, '').replace(TRAIL, '');
}

/** Python `s.rstrip()`. */
export function pyRstrip(s: string): string {
  return s.replace(TRAIL, '');
}

/** Python `s.lstrip()`. */
export function pyLstrip(s: string): string {
  return s.replace(LEAD, '');
}

/** True when `s` contains a whitespace run (used by callers that split lazily). */
export function hasPyWhitespace(s: string): boolean {
  return WS_RUN.test(s);
}

/** The code points of `s` (Python string indexing), as numbers. */
export function codePoints(s: string): Int32Array {
  const out = new Int32Array(s.length);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        out[n++] = ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
        i++;
        continue;
      }
    }
    out[n++] = c;
  }
  return n === s.length ? out : out.subarray(0, n);
}

/** Length of `s` in code points (Python `len`). */
export function pyLen(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Python 3 `round(x)`: round half to even on the exact double value. */
export function roundHalfEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  const f = Math.floor(x);
  const diff = x - f; // exact for doubles
  if (diff > 0.5) return f + 1;
  if (diff < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/** Python `math.fsum`: the correctly rounded sum (Shewchuk's algorithm, as CPython's msum). */
export function fsum(values: Iterable<number>): number {
  const partials: number[] = [];
  for (let x of values) {
    let i = 0;
    for (let j = 0; j < partials.length; j++) {
      let y = partials[j]!;
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    partials.push(x);
  }
  // Sum the partials from the top, with CPython's half-way correction.
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n]!;
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n]!;
    hi = x + y;
    const yr = hi - x;
    lo = y - yr;
    if (lo !== 0) break;
  }
  if (n > 0 && ((lo < 0 && partials[n - 1]! < 0) || (lo > 0 && partials[n - 1]! > 0))) {
    const y = lo * 2;
    const x = hi + y;
    const yr = x - hi;
    if (y === yr) hi = x;
  }
  return hi;
}

/** The smallest positive normal double (Python `sys.float_info.min`). */
export const FLOAT_MIN = 2.2250738585072014e-308;
