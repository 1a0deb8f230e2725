/**
 * sympy's `bin/test -C --verbose`, as SWE-bench's `parse_log_sympy` reads it: a `___ path.py:name ___`
 * failure header marks `path.py:name` FAILED; a line starting with `test_` is PASSED when it ends in ` ok`,
 * FAILED in ` F`, ERROR in ` E`, with its first field as id (`test_g printed text ok` → `test_g` PASSED).
 * Expected failures (`f`), skips (`s`) and `X` are not recorded. The last report of a test wins.
 */
import type { TestMap } from './common.ts';
import { assign, pySplit, pyStrip } from './py-str.ts';

// `(_*) (.*)\.py:(.*) (_*)` with Python's `.` (anything but a newline).
const HEADER = /(_*) ([^\n]*)\.py:([^\n]*) (_*)/g;

export function parseSympy(log: string): TestMap {
  const out: TestMap = {};
  for (const m of log.matchAll(HEADER)) assign(out, `${m[2]}.py:${m[3]}`, 'FAILED');
  for (const raw of log.split('\n')) {
    const line = pyStrip(raw);
    if (!line.startsWith('test_')) continue;
    const id = pySplit(line)[0]!;
    if (line.endsWith(' E')) assign(out, id, 'ERROR');
    if (line.endsWith(' F')) assign(out, id, 'FAILED');
    if (line.endsWith(' ok')) assign(out, id, 'PASSED');
  }
  return out;
}
