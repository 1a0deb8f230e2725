/**
 * Python string semantics the reference parsers (SWE-bench's, written in Python) rely on, so that a port
 * reads a log exactly as the original does: `str.split()`, `str.strip()`, `\s`, `\d` and `.` as Python
 * defines them, and a status map where the last write wins.
 */
import type { TestStatus } from '@faun/schema';
import type { TestMap } from './common.ts';

/** The characters `str.isspace()` accepts (and Python's `\s` matches). */
export const PY_SPACE =
  '\\t\\n\\x0b\\x0c\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const SPACES = new RegExp(`[${PY_SPACE}]+`, 'u');
const EDGE = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'gu');
const LEFT = new RegExp(`^[${PY_SPACE}]+`, 'u');

/** `s.split()`: split on runs of whitespace, no empty fields. */
export function pySplit(s: string): string[] {
  return s.split(SPACES).filter((p) => p.length > 0);
}

/** `s.strip()`. */
export function pyStrip(s: string): string {
  return s.replace(EDGE, '');
}

/** `s.lstrip()`. */
export function pyLstrip(s: string): string {
  return s.replace(LEFT, '');
}

/** `s.split(sep)[0]`: the text before the first `sep`. */
export function before(s: string, sep: string): string {
  const i = s.indexOf(sep);
  return i < 0 ? s : s.slice(0, i);
}

/** `s.rsplit(sep, 1)[0]`: the text before the last `sep`. */
export function beforeLast(s: string, sep: string): string {
  const i = s.lastIndexOf(sep);
  return i < 0 ? s : s.slice(0, i);
}

/** SWE-bench's five status words (its `TestStatus` enum). */
export const STATUS_WORDS: readonly TestStatus[] = ['FAILED', 'PASSED', 'SKIPPED', 'ERROR', 'XFAIL'];

function isStatus(s: string): s is TestStatus {
  return (STATUS_WORDS as readonly string[]).includes(s);
}

/** `any(line.startswith(x.value) for x in TestStatus)`. */
export function startsWithStatus(line: string): boolean {
  return STATUS_WORDS.some((w) => line.startsWith(w));
}

/** `any(line.endswith(x.value) for x in TestStatus)`. */
export function endsWithStatus(line: string): boolean {
  return STATUS_WORDS.some((w) => line.endsWith(w));
}

/**
 * `map[id] = status`: the last report of a test wins, as in the reference. A status token that is not one
 * of the five words (`ERROR:` from a line `ERROR: could not …`) removes the id: the reference keeps such a
 * value, which its grader counts neither as passing nor as failing.
 */
export function assign(map: TestMap, id: string, status: string): void {
  if (!isStatus(status)) {
    delete map[id];
    return;
  }
  if (id === '__proto__')
    Object.defineProperty(map, id, { value: status, enumerable: true, writable: true, configurable: true });
  else map[id] = status;
}
