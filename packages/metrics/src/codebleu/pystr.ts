/** Python `str` semantics the reference relies on: its whitespace set, `split()` and `strip()`. */

/** Characters Python's `str.split()`/`strip()` treat as whitespace (a regex class body). */
export const PY_WS_CLASS =
  '\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';

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

/** Python `s.split()`: runs of non-whitespace; `''.split()` is `[]` (one scan, no regular expression). */
export function pySplit(s: string): string[] {
  const out: string[] = [];
  const n = s.length;
  let i = 0;
  while (i < n) {
    while (i < n && isPyWs(s.charCodeAt(i))) i++;
    if (i === n) break;
    const start = i;
    while (i < n && !isPyWs(s.charCodeAt(i))) i++;
    out.push(s.slice(start, i));
  }
  return out;
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

/**
 * `'\n'.join(line for line in s.split('\n') if line.strip() != '')`, in one scan: kept lines are copied as
 * runs (a text without blank lines comes back as is).
 */
export function dropBlankLines(s: string): string {
  const n = s.length;
  let out = '';
  let runStart = -1; // start of the current run of kept lines
  let runEnd = 0;
  let allKept = true;
  let start = 0;
  while (start <= n) {
    let end = s.indexOf('\n', start);
    if (end < 0) end = n;
    let blank = true;
    for (let i = start; i < end; i++) {
      if (!isPyWs(s.charCodeAt(i))) {
        blank = false;
        break;
      }
    }
    if (blank) {
      allKept = false;
      if (runStart >= 0) {
        out += (out !== '' ? '\n' : '') + s.slice(runStart, runEnd);
        runStart = -1;
      }
    } else {
      if (runStart < 0) runStart = start;
      runEnd = end;
    }
    start = end + 1;
  }
  if (allKept) return s;
  if (runStart >= 0) out += (out !== '' ? '\n' : '') + s.slice(runStart, runEnd);
  return out;
}
