/**
 * pytest logs as SWE-bench reads them (its `log_parsers/python.py`): the test command runs with `-rA`, and
 * every line that starts with a status word (`PASSED id`, `FAILED id - message`, …) is one result. The
 * live progress part is not read: a test that never gets a `-rA` line (or is `SKIPPED [n] file:line`) is
 * absent. `XPASS` is not a status. A test reported twice keeps its last status.
 *
 * Variants, by SWE-bench's parser names:
 * - `pytest` (`parse_log_pytest`): id = the second field;
 * - `pytest-options` (`parse_log_pytest_options`, requests/pylint/pydicom): a parameter that is an
 *   absolute path keeps only its last component;
 * - `pytest-v2` (`parse_log_pytest_v2`, astropy/scikit-learn/sphinx): colour codes and control characters
 *   dropped, id = everything after the status word (so `ERROR x::t - msg` has id `x::t - msg`), and
 *   `id STATUS` lines of older pytest versions;
 * - `matplotlib`: `MouseButton.LEFT`/`RIGHT` in ids rewritten to `1`/`3`;
 * - `seaborn`: only PASSED and FAILED, also from `id PASSED …` lines.
 */
import type { TestMap } from './common.ts';
import { assign, before, endsWithStatus, pySplit, startsWithStatus } from './py-str.ts';

const SKIP_COUNT = /^\[\p{Nd}+\]$/u;

/** `SKIPPED [N] path:line: reason`: the `[N]` is a count, not a test. */
function isSkipSummary(status: string, name: string): boolean {
  return status === 'SKIPPED' && SKIP_COUNT.test(name);
}

/** The `STATUS id` fields of a summary line, with `FAILED`'s ` - message` separators blanked. */
function summaryFields(line: string): [string, string] | null {
  if (!startsWithStatus(line)) return null;
  const f = pySplit(line.startsWith('FAILED') ? line.replaceAll(' - ', ' ') : line);
  if (f.length <= 1 || isSkipSummary(f[0]!, f[1]!)) return null;
  return [f[0]!, f[1]!];
}

function parseWith(log: string, rewrite: (line: string) => string, id: (name: string) => string): TestMap {
  const out: TestMap = {};
  for (const raw of log.split('\n')) {
    const f = summaryFields(rewrite(raw));
    if (f) assign(out, id(f[1]), f[0]);
  }
  return out;
}

const same = (s: string) => s;

/** SWE-bench's `parse_log_pytest` (flask, pytest, xarray, astroid, marshmallow, pvlib, pyvista, sqlfluff). */
export function parsePytest(log: string): TestMap {
  return parseWith(log, same, same);
}

/** `test_x[/abs/path/file]` → `test_x[/file]` (not for `//…` or globs), as `parse_log_pytest_options`. */
function optionId(name: string): string {
  const open = name.indexOf('[');
  const close = name.lastIndexOf(']');
  if (open < 0 || close <= open) return name;
  const main = name.slice(0, open);
  let option = name.slice(open + 1, close);
  if (option.startsWith('/') && !option.startsWith('//') && !option.includes('*'))
    option = `/${option.split('/').at(-1)}`;
  return `${main}[${option}]`;
}

/** SWE-bench's `parse_log_pytest_options` (requests, pylint, pydicom). */
export function parsePytestOptions(log: string): TestMap {
  return parseWith(log, same, optionId);
}

/** SWE-bench's `parse_log_matplotlib`. */
export function parseMatplotlib(log: string): TestMap {
  return parseWith(
    log,
    (l) => l.replaceAll('MouseButton.LEFT', '1').replaceAll('MouseButton.RIGHT', '3'),
    same,
  );
}

// `[31m`-style colour parameters (the ESC itself goes with the control characters).
const COLOUR = /\[\p{Nd}+m/gu;
const CONTROL = /[\x01-\x1f]/g;

/** SWE-bench's `parse_log_pytest_v2` (astropy, scikit-learn, sphinx). */
export function parsePytestV2(log: string): TestMap {
  const out: TestMap = {};
  for (const raw of log.split('\n')) {
    let line = raw.replace(COLOUR, '').replace(CONTROL, '');
    if (startsWithStatus(line)) {
      if (line.startsWith('FAILED')) line = before(line, ' - ');
      const f = pySplit(line);
      if (f.length >= 2 && !isSkipSummary(f[0]!, f[1]!)) assign(out, f.slice(1).join(' '), f[0]!);
    } else if (endsWithStatus(line)) {
      const f = pySplit(line);
      if (f.length >= 2) assign(out, f.slice(0, -1).join(' '), f.at(-1)!);
    }
  }
  return out;
}

/** SWE-bench's `parse_log_seaborn`: PASSED and FAILED only. */
export function parseSeaborn(log: string): TestMap {
  const out: TestMap = {};
  for (const line of log.split('\n')) {
    const parts = pySplit(line);
    if (parts.length < 2) continue;
    if (line.startsWith('FAILED')) assign(out, parts[1]!, 'FAILED');
    else if (line.includes(' PASSED ')) {
      if (parts[1] === 'PASSED') assign(out, parts[0]!, 'PASSED');
    } else if (line.startsWith('PASSED')) assign(out, parts[1]!, 'PASSED');
  }
  return out;
}

/**
 * Ids the `pytest` rule saw with different statuses (the last one counts, as in SWE-bench). A log where a
 * test is reported both failing and passing is suspicious — a patch can print `PASSED` lines of its own —
 * so graders may record these as a flag; they never change the status map.
 */
export function conflictingReports(log: string): string[] {
  const seen = new Map<string, Set<string>>();
  for (const raw of log.split('\n')) {
    const f = summaryFields(raw);
    if (!f) continue;
    const s = seen.get(f[1]) ?? new Set<string>();
    s.add(f[0]);
    seen.set(f[1], s);
  }
  return [...seen]
    .filter(([, s]) => s.size > 1)
    .map(([id]) => id)
    .sort();
}
