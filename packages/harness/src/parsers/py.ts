/**
 * Python string semantics the reference parsers rely on, so that faun's ports read a log exactly as the
 * reference code does: `str.splitlines()`, `str.split("\n")`, `str.strip()`, last-write-wins status maps
 * and Multi-SWE-bench's passed / failed / skipped sets.
 */
import type { TestStatus } from '@faun/schema';
import type { TestMap } from './common.ts';
import { PY_SPACE, pyStrip } from './py-str.ts';

/** Python's `s.strip()` (no argument), shared with the Python parsers. */
export { pyStrip } from './py-str.ts';

// Line boundaries of Python's `str.splitlines()`.
const BOUNDARY = /\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]/;

/** Python's `s.splitlines()`: no trailing empty line, every Unicode line boundary splits. */
export function pySplitlines(s: string): string[] {
  if (s === '') return [];
  const out = s.split(BOUNDARY);
  if (BOUNDARY.test(s.slice(-1))) out.pop();
  return out;
}

/** `status_map[name] = status` in Python: the last report of a test wins. */
export function setLast(map: TestMap, id: string, status: TestStatus): void {
  Object.defineProperty(map, id, { value: status, enumerable: true, writable: true, configurable: true });
}

/** A Multi-SWE-bench `TestResult` under construction. */
export interface SetResult {
  passed: Set<string>;
  failed: Set<string>;
  skipped: Set<string>;
}

export function sets(): SetResult {
  return { passed: new Set(), failed: new Set(), skipped: new Set() };
}

/** The lines of `log` (Python's `splitlines()`), each stripped, the empty ones left out. */
export function strippedLines(log: string): string[] {
  return pySplitlines(log)
    .map((raw) => pyStrip(raw))
    .filter((line) => line !== '');
}

/** Adds the first group of each of `rules`' regexes that matches `line` to that set of `r`. */
export function addMatches(
  r: SetResult,
  line: string,
  rules: Partial<Record<keyof SetResult, RegExp>>,
): void {
  for (const key of ['passed', 'failed', 'skipped'] as const) {
    const m = rules[key]?.exec(line);
    if (m) r[key].add(m[1]!);
  }
}

/**
 * Marks `line` by the first group of every regex that matches it: `pass` adds to passed unless the test
 * already failed, `fail` adds to failed and takes the test out of passed (a failure is never overridden
 * by a pass), `skip` adds to skipped.
 */
export function markLine(r: SetResult, line: string, pass: RegExp[], fail: RegExp[], skip: RegExp[]): void {
  for (const re of pass) {
    const m = re.exec(line);
    if (m && !r.failed.has(m[1]!)) r.passed.add(m[1]!);
  }
  for (const re of fail) {
    const m = re.exec(line);
    if (m) {
      r.failed.add(m[1]!);
      r.passed.delete(m[1]!);
    }
  }
  for (const re of skip) {
    const m = re.exec(line);
    if (m) r.skipped.add(m[1]!);
  }
}

/**
 * The status map of a Multi-SWE-bench `TestResult`: passed → PASSED, failed → FAILED, skipped → SKIPPED.
 * Multi-SWE-bench refuses a result whose sets overlap (its constructor raises, the log yields no result);
 * that case gives an empty map here.
 */
export function fromSets(r: SetResult): TestMap {
  const out: TestMap = {};
  for (const [set, status] of [
    [r.passed, 'PASSED'],
    [r.failed, 'FAILED'],
    [r.skipped, 'SKIPPED'],
  ] as const) {
    for (const id of set) {
      if (Object.hasOwn(out, id)) return {};
      setLast(out, id, status);
    }
  }
  return out;
}

const PY_DIGIT = '\\p{Nd}';
const PY_WORD = '\\p{L}\\p{N}_';

/**
 * Compiles a Python `re` pattern with Python's meaning of `\s`, `\S`, `\d` and `\w` (Unicode whitespace as
 * `str.isspace()`, Unicode digits and alphanumerics), which differ from JavaScript's at the edges
 * (U+FEFF, U+001C–U+001F, U+0085, non-ASCII digits and letters). Always compiled with the `u` flag.
 */
export function pyRe(pattern: string, flags = ''): RegExp {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const n = pattern[i + 1] ?? '';
      i++;
      if (n === 's') out += inClass ? PY_SPACE : `[${PY_SPACE}]`;
      else if (n === 'S' && !inClass) out += `[^${PY_SPACE}]`;
      else if (n === 'd') out += PY_DIGIT;
      else if (n === 'w') out += inClass ? PY_WORD : `[${PY_WORD}]`;
      else if ((n === 'S' || n === 'D' || n === 'W') && inClass)
        throw new Error(`pyRe: \\${n} inside a character class is not supported: ${pattern}`);
      else out += `\\${n}`;
      continue;
    }
    if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass) inClass = false;
    out += c;
  }
  return new RegExp(out, flags.includes('u') ? flags : `${flags}u`);
}
