/** Python `str` semantics the reference relies on: its whitespace set, `split()` and `strip()`. */

/** Characters Python's `str.split()`/`strip()` treat as whitespace (a regex class body). */
export const PY_WS_CLASS =
  '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const SPLIT_RE = new RegExp(`[^${PY_WS_CLASS}]+`, 'g');

/** True when UTF-16 code unit `c` is Python whitespace (none of them are surrogates). */
export function isPyWs(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Python `s.split()`: runs of non-whitespace; `''.split()` is `[]`. */
export function pySplit(s: string): string[] {
  return s.match(SPLIT_RE) ?? [];
}

/** Python `s.strip()`. */
export function pyStrip(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isPyWs(s.charCodeAt(a))) a++;
  while (b > a && isPyWs(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** Python `s.strip() == ''`. */
export function pyIsBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isPyWs(s.charCodeAt(i))) return false;
  return true;
}

/** `'\n'.join(line for line in s.split('\n') if line.strip() != '')`. */
export function dropBlankLines(s: string): string {
  return s
    .split('\n')
    .filter((l) => !pyIsBlank(l))
    .join('\n');
}
