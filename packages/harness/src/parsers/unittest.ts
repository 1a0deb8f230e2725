/**
 * unittest verbose (`python -m unittest -v`), faun's own reading (django rows use SWE-bench's `django` parser):
 * `test_x (module.Class) ... ok|FAIL|ERROR|skipped '…'|expected failure|unexpected success`.
 * Ids are the text before ` ... ` (a docstring's first line when the test has one, as SWE-bench does).
 * Python ≥ 3.11's `test_x (module.Class.test_x)` is normalised to `test_x (module.Class)`.
 */
import type { TestStatus } from '@faun/schema';
import { lines, put, type TestMap } from './common.ts';

const ENDINGS: Array<[RegExp, TestStatus]> = [
  [/^ok$/, 'PASSED'],
  [/^FAIL$/, 'FAILED'],
  [/^ERROR$/, 'ERROR'],
  [/^skipped\b.*$/, 'SKIPPED'],
  [/^expected failure$/, 'XFAIL'],
  [/^unexpected success$/, 'FAILED'],
];

function status(tail: string): TestStatus | null {
  const t = tail.trim();
  for (const [re, s] of ENDINGS) if (re.test(t)) return s;
  return null;
}

/** `test_x (a.B.test_x)` → `test_x (a.B)`. */
export function normaliseUnittestId(id: string): string {
  const m = /^(\w+) \(([\w.]+)\)$/.exec(id.trim());
  if (m && m[2]!.endsWith(`.${m[1]}`)) return `${m[1]} (${m[2]!.slice(0, -m[1]!.length - 1)})`;
  return id.trim();
}

export function parseUnittest(log: string): TestMap {
  const out: TestMap = {};
  let pending: string | null = null;
  for (const raw of lines(log)) {
    const line = raw.trimEnd();
    const sep = line.lastIndexOf(' ... ');
    if (sep >= 0) {
      const id = normaliseUnittestId(line.slice(0, sep));
      const s = status(line.slice(sep + 5));
      if (s) {
        put(out, id, s);
        pending = null;
      } else pending = id; // status printed later (output glued in between)
      continue;
    }
    if (line.endsWith(' ...')) {
      pending = normaliseUnittestId(line.slice(0, -4));
      continue;
    }
    if (pending) {
      const s = status(line);
      if (s) {
        put(out, pending, s);
        pending = null;
      }
    }
  }
  return out;
}
