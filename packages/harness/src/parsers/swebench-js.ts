/**
 * SWE-bench's JavaScript parsers, ported line for line (its `harness/log_parsers/javascript.py`): the
 * generic jest / jest-json / vitest / karma / TAP parsers and the per-repository ones whose rule fits a
 * few lines. As in the reference, the last report of a test wins and nothing strips ANSI codes unless the
 * reference does.
 */
import type { TestStatus } from '@faun/schema';
import type { TestMap } from './common.ts';
import { pyRe, pyStrip, setLast } from './py.ts';

const JEST = pyRe(String.raw`^\s*(✓|✕|○)\s(.+?)(?:\s\((\d+\s*m?s)\))?$`, 's');
const JEST_SYMBOL: Record<string, TestStatus> = { '✓': 'PASSED', '✕': 'FAILED', '○': 'SKIPPED' };

/** `parse_log_jest` (`--verbose`): the id is the test's own title, without its describe blocks. */
export function parseSwebenchJest(log: string): TestMap {
  const out: TestMap = {};
  for (const raw of log.split('\n')) {
    const m = JEST.exec(pyStrip(raw));
    if (m) setLast(out, pyStrip(m[2]!), JEST_SYMBOL[m[1]!]!);
  }
  return out;
}

const JEST_JSON = pyRe(String.raw`^\[(PASSED|FAILED)\]\s(.+)$`, 's');

/**
 * `parse_log_jest_json`: lines `[PASSED] Suite A > adds numbers` printed by SWE-bench's jq transform of
 * `jest --json` (ancestor titles and title joined by ` > `).
 */
export function parseSwebenchJestJson(log: string): TestMap {
  const out: TestMap = {};
  for (const raw of log.split('\n')) {
    const m = JEST_JSON.exec(pyStrip(raw));
    if (m) setLast(out, m[2]!, m[1] === 'PASSED' ? 'PASSED' : 'FAILED');
  }
  return out;
}

const VITEST = pyRe(String.raw`^\s*(✓|×|↓)\s(.+?)(?:\s(\d+\s*m?s?|\[skipped\]))?$`, 's');
const VITEST_SYMBOL: Record<string, TestStatus> = { '✓': 'PASSED', '×': 'FAILED', '↓': 'SKIPPED' };

/** `parse_log_vitest` (`--reporter=verbose`). */
export function parseSwebenchVitest(log: string): TestMap {
  const out: TestMap = {};
  for (const raw of log.split('\n')) {
    const m = VITEST.exec(pyStrip(raw));
    if (m) setLast(out, m[2]!, VITEST_SYMBOL[m[1]!]!);
  }
  return out;
}

const KARMA = pyRe(String.raw`^(\s*)?([✔✖])?\s(.*)$`, 's');

/** `parse_log_karma`: suites by indentation after `Starting browser`, up to `SUMMARY:`. */
export function parseSwebenchKarma(log: string): TestMap {
  const out: TestMap = {};
  let indentLevel = -1;
  const suite: string[] = [];
  let started = false;
  for (const line of log.split('\n')) {
    if (line.startsWith('SUMMARY:')) return out;
    if (line.includes('Starting browser')) {
      started = true;
      continue;
    }
    if (!started) continue;
    const m = KARMA.exec(line);
    if (!m) continue;
    const [, indent, status, name] = m as unknown as [string, string | undefined, string | undefined, string];
    if (indent && !status) {
      if (indent.length > indentLevel) {
        indentLevel = indent.length;
        suite.push(name);
      } else if (indent.length < indentLevel) {
        indentLevel = indent.length;
        suite.pop();
        continue;
      }
    }
    if (status === '✔' || status === '✖')
      setLast(out, [...suite, name].join(' > '), status === '✔' ? 'PASSED' : 'FAILED');
  }
  return out;
}

const TAP = pyRe(String.raw`^(ok|not ok) (\d+) (.+)$`, 's');

/** `parse_log_tap`: `ok 1 name` / `not ok 2 name` (the id keeps a leading `- ` and any directive). */
export function parseSwebenchTap(log: string): TestMap {
  const out: TestMap = {};
  for (const raw of log.split('\n')) {
    const m = TAP.exec(pyStrip(raw));
    if (m) setLast(out, m[3]!, m[1] === 'ok' ? 'PASSED' : 'FAILED');
  }
  return out;
}

const CARBON: Array<[RegExp, TestStatus]> = [
  [pyRe(String.raw`^PASS\s(.*)\s\([\d.]+ms\)`, 's'), 'PASSED'],
  [pyRe(String.raw`^PASS\s(.*)\s\([\d.]+\ss\)`, 's'), 'PASSED'],
  [pyRe(String.raw`^PASS\s(.*)\s\([\d.]+s\)`, 's'), 'PASSED'],
  [pyRe(String.raw`^PASS\s(.*)`, 's'), 'PASSED'],
  [pyRe(String.raw`^FAIL\s(.*)\s\([\d.]+ms\)`, 's'), 'FAILED'],
  [pyRe(String.raw`^FAIL\s(.*)\s\([\d.]+\ss\)`, 's'), 'FAILED'],
  [pyRe(String.raw`^FAIL\s(.*)\s\([\d.]+s\)`, 's'), 'FAILED'],
  [pyRe(String.raw`^FAIL\s(.*)`, 's'), 'FAILED'],
];

/**
 * `parse_log_carbon` (also react-pdf, prettier, scratch-gui and lighthouse's jest versions): jest's
 * per-file `PASS path (1.2 s)` / `FAIL path` lines, the id being the file.
 */
export function parseSwebenchCarbon(log: string): TestMap {
  const out: TestMap = {};
  for (const line of log.split('\n')) {
    for (const [re, status] of CARBON) {
      const m = re.exec(line);
      if (m) {
        setLast(out, m[1]!, status);
        break;
      }
    }
  }
  return out;
}

// Python's `^FAIL\s(.*)` under re.MULTILINE: `^` only after `\n`, `.` anything but `\n`.
const LINE_FAIL = pyRe(String.raw`(?<![^\n])FAIL\s([^\n]*)`, 'g');
const LINE_PASS = pyRe(String.raw`(?<![^\n])PASS\s([^\n]*)`, 'g');

const GROMMET_TIME = pyRe(String.raw`\s\([\d.]+\s?(?:ms|s)\)$`, 's');

/** `parse_log_grommet`: `PASS path` / `FAIL path` at line start, a trailing `(1.2 s)` removed. */
export function parseSwebenchGrommet(log: string): TestMap {
  const out: TestMap = {};
  for (const m of log.matchAll(LINE_FAIL)) setLast(out, pyStrip(m[1]!).replace(GROMMET_TIME, ''), 'FAILED');
  for (const m of log.matchAll(LINE_PASS)) setLast(out, pyStrip(m[1]!).replace(GROMMET_TIME, ''), 'PASSED');
  return out;
}

/** `parse_log_emotion`: `PASS path` / `FAIL path` at line start. */
export function parseSwebenchEmotion(log: string): TestMap {
  const out: TestMap = {};
  for (const m of log.matchAll(LINE_FAIL)) setLast(out, pyStrip(m[1]!), 'FAILED');
  for (const m of log.matchAll(LINE_PASS)) setLast(out, pyStrip(m[1]!), 'PASSED');
  return out;
}

const MARKED = pyRe(String.raw`^\d+\)\s(.*)`, 's');

/** `parse_log_marked`: only failures, `1) title` at line start. */
export function parseSwebenchMarked(log: string): TestMap {
  const out: TestMap = {};
  for (const line of log.split('\n')) {
    const m = MARKED.exec(line);
    if (m) setLast(out, pyStrip(m[1]!), 'FAILED');
  }
  return out;
}

const HL_SUMMARY = pyRe(String.raw`\n[ \t]*\d+ passing`);
const HL_TIME = pyRe(String.raw`\(\d+ms\)`);
const HL_TIMES = pyRe(String.raw`\(\d+ms\)`, 'g');
const HL_FAIL = pyRe(String.raw`^\d+\)`);

/**
 * `parse_log_highlightjs` (mocha spec reporter): everything after the first `N passing` is dropped;
 * `✓ title` passes and `1) title` fails, ids are the suite (2-space line) and sub-suites (4-space lines)
 * joined with the title by `.`.
 */
export function parseSwebenchHighlightjs(log: string): TestMap {
  const head = log.split(HL_SUMMARY)[0]!;
  const out: TestMap = {};
  let suite: string[] = [];
  const untime = (name: string) => (HL_TIME.test(name) ? pyStrip(name.replace(HL_TIMES, '')) : pyStrip(name));
  for (const line of head.split('\n')) {
    const t = pyStrip(line);
    if (t.startsWith('✓') || t.startsWith('✔')) {
      const check = t.startsWith('✓') ? '✓' : '✔';
      const name = untime(line.slice(line.indexOf(check) + check.length));
      setLast(out, [...suite, name].join('.'), 'PASSED');
    } else if (HL_FAIL.test(t)) {
      const name = untime(line.slice(line.indexOf(')') + 1));
      setLast(out, [...suite, name].join('.'), 'FAILED');
    } else if (line.startsWith('  ')) suite = [pyStrip(line)];
    else if (!line.startsWith('  ') && line.startsWith('    ')) suite.push(pyStrip(line));
  }
  return out;
}

const ANSI = pyRe(String.raw`\x1B(?:[@-Z\\-_]|\[[0-?]*[ -/]*[@-~])`, 'g');

// Python's `[^\S\r\n]`: whitespace other than CR and LF.
const H = String.raw`[\t\x0b\x0c\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]`;
const CHART_FAILED = pyRe(String.raw`Chrome\s[\d.]+${H}\([^\n]+?\)${H}([^\n]*)FAILED(?![^\n])`, 'g');

/** `parse_log_chart_js`: karma's `Chrome 1.2 (Linux) name FAILED` lines, ANSI removed first. */
export function parseSwebenchChartJs(log: string): TestMap {
  const out: TestMap = {};
  for (const m of log.replace(ANSI, '').matchAll(CHART_FAILED)) setLast(out, m[1]!, 'FAILED');
  return out;
}
