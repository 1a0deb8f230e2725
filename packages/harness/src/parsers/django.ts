/**
 * django's `tests/runtests.py --verbosity 2`, as SWE-bench's `parse_log_django` reads it:
 * `name ... ok|OK` PASSED, `name ... skipped …` SKIPPED, `name ... FAIL` FAILED, `name ... ERROR` ERROR,
 * `FAIL: name …` / `ERROR: name …` (first field only), and a line starting with `ok` (even `okay`) makes
 * the last `name ... ` line PASSED — output printed between a test's name and its result. `expected
 * failure` and `unexpected success` are not recorded. The last report of a test wins.
 */
import type { TestMap } from './common.ts';
import { assign, before, beforeLast, PY_SPACE, pySplit, pyStrip } from './py-str.ts';

const PASS_SUFFIXES = [' ... ok', ' ... OK', ' ...  OK'];
const S = `[${PY_SPACE}]`;
const L = '[^\\n]';
/** Interrupted result lines (SWE-bench's three whole-log patterns, `^`/`$` at line boundaries). */
const INTERRUPTED = [
  new RegExp(
    `(?<=^|\\n)(${L}*?)${S}\\.\\.\\.${S}Testing against Django installed in ([\\s\\S]*?) silenced\\)\\.\\nok(?=\\n|$)`,
    'gu',
  ),
  new RegExp(`(?<=^|\\n)(${L}*?)${S}\\.\\.\\.${S}Internal Server Error: \\/(${L}*)\\/\\nok(?=\\n|$)`, 'gu'),
  new RegExp(
    `(?<=^|\\n)(${L}*?)${S}\\.\\.\\.${S}System check identified no issues \\(0 silenced\\)\\nok(?=\\n|$)`,
    'gu',
  ),
];

export function parseDjango(log: string): TestMap {
  const out: TestMap = {};
  let prev: string | null = null;
  for (const raw of log.split('\n')) {
    let line = pyStrip(raw);
    if (line.includes('--version is equivalent to version'))
      assign(out, '--version is equivalent to version', 'PASSED');
    if (line.includes(' ... ')) prev = before(line, ' ... ');
    for (const suffix of PASS_SUFFIXES) {
      if (!line.endsWith(suffix)) continue;
      // A migration message glued before one test's name (a special case of the reference).
      if (pyStrip(line).startsWith('Applying sites.0002_alter_domain_unique...test_no_migrations'))
        line = pyStrip(line.slice(line.indexOf('...') + 3));
      assign(out, beforeLast(line, suffix), 'PASSED');
      break;
    }
    if (line.includes(' ... skipped')) assign(out, before(line, ' ... skipped'), 'SKIPPED');
    if (line.endsWith(' ... FAIL')) assign(out, before(line, ' ... FAIL'), 'FAILED');
    if (line.startsWith('FAIL:')) {
      const name = pySplit(line)[1];
      if (name !== undefined) assign(out, name, 'FAILED');
    }
    if (line.endsWith(' ... ERROR')) assign(out, before(line, ' ... ERROR'), 'ERROR');
    if (line.startsWith('ERROR:')) {
      const name = pySplit(line)[1];
      if (name !== undefined) assign(out, name, 'ERROR');
    }
    if (line.startsWith('ok') && prev !== null) assign(out, prev, 'PASSED');
  }
  for (const re of INTERRUPTED) for (const m of log.matchAll(re)) assign(out, m[1]!, 'PASSED');
  return out;
}
