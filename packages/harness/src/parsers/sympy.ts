/** sympy's `bin/test --verbose`: `test_name ok|F|E|f|s|X` lines plus `___ file:test_name ___` failure headers. */
import type { TestStatus } from '@faun/schema';
import { lines, put, type TestMap } from './common.ts';

const CODES: Record<string, TestStatus> = {
  ok: 'PASSED',
  F: 'FAILED',
  E: 'ERROR',
  f: 'XFAIL',
  X: 'PASSED',
  s: 'SKIPPED',
  w: 'SKIPPED',
  T: 'FAILED',
};
// `test_x ok`, `test_x [0.12s] ok`, `test_x E` — possibly glued after a file header.
const LINE = /(?:^|\s)(_*test_\w+)\s+(?:\[[\d.]+s\]\s+)?(ok|F|E|f|X|s|w|T)(?:\s|$)/;
const HEADER = /^_{3,}\s+\S+?:(\w+)\s+_{3,}$/;
const SECTION = /^_{3,}\s+(?:sympy\/|\S+\.py).*$/;

export function parseSympy(log: string): TestMap {
  const out: TestMap = {};
  for (const raw of lines(log)) {
    const line = raw.trim();
    const h = HEADER.exec(line);
    if (h) {
      // Headers follow the run; they confirm a failure/error already recorded inline.
      if (!out[h[1]!]) put(out, h[1]!, 'FAILED');
      continue;
    }
    if (SECTION.test(line)) continue;
    const m = LINE.exec(line);
    if (m) put(out, m[1]!, CODES[m[2]!]!);
  }
  return out;
}
