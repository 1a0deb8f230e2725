/**
 * Multi-SWE-bench's `parse_log` of its per-repository instance classes for Go, Rust, Java, JavaScript
 * and C/C++ (`multi_swe_bench/harness/repos/<lang>/<org>/<repo>.py`), ported line for line. Many
 * repositories share one rule; `select.ts` says which repository uses which. Results are the reference's
 * passed / failed / skipped sets (see `fromSets`); a log on which the reference raises gives no results.
 */
import type { TestMap } from './common.ts';
import { fromSets, markLine, pyRe, pySplitlines, pyStrip, sets } from './py.ts';

/** Stripped, non-empty lines (`for line in log.splitlines(): line = line.strip(); if not line: continue`). */
function stripped(log: string): string[] {
  return pySplitlines(log)
    .map(pyStrip)
    .filter((l) => l.length > 0);
}

const JEST_PASS_SUITE = pyRe(String.raw`^PASS (.+?)(?:\s\(\d*\.?\d+\s*\w+\))?$`, 's');
const JEST_FAIL_SUITE = pyRe(String.raw`^FAIL (.+?)(?:\s\(\d*\.?\d+\s*\w+\))?$`, 's');
const JEST_PASS = pyRe(String.raw`^✓ (.+?)(?:\s\(\d*\.?\d+\s*\w+\))?$`, 's');
const JEST_FAIL = pyRe(String.raw`^✕ (.+?)(?:\s\(\d*\.?\d+\s*\w+\))?$`, 's');

/**
 * dayjs, github-readme-stats: jest's `PASS file` / `FAIL file` (the file itself is a test) and
 * `✓ title` / `✕ title` under it as `file:title` (describe blocks left out, skipped tests not read).
 * A test line before any file line makes the reference raise.
 */
export function parseMsbJestSuite(log: string): TestMap {
  const r = sets();
  let suite: string | null = null;
  for (const line of stripped(log)) {
    const ps = JEST_PASS_SUITE.exec(line);
    if (ps) r.passed.add((suite = ps[1]!));
    const fs = JEST_FAIL_SUITE.exec(line);
    if (fs) r.failed.add((suite = fs[1]!));
    const p = JEST_PASS.exec(line);
    if (p) {
      if (suite === null) return {};
      r.passed.add(`${suite}:${p[1]}`);
    }
    const f = JEST_FAIL.exec(line);
    if (f) {
      if (suite === null) return {};
      r.failed.add(`${suite}:${f[1]}`);
    }
  }
  return fromSets(r);
}

const MOCHA_PASS = pyRe(String.raw`^✔ (.+?)(?:\s\(\d*\.?\d*\s*\w+\))?$`, 's');
const MOCHA_FAIL = pyRe(String.raw`^\d+\) (.+?)(?:\s\(\d*\.?\d*\s*\w+\))?$`, 's');

/**
 * axios (and express for a few PRs): mocha's spec reporter, the id being the bare title (`✔ title`,
 * `1) title`; the failure list at the end adds its suite lines as failures too).
 */
export function parseMsbMochaSpec(log: string): TestMap {
  const r = sets();
  for (const line of stripped(log)) {
    const p = MOCHA_PASS.exec(line);
    if (p) r.passed.add(p[1]!);
    const f = MOCHA_FAIL.exec(line);
    if (f) r.failed.add(f[1]!);
  }
  return fromSets(r);
}

/** Python's `JSONDecoder().raw_decode` at every `{`: each decodable object, scanning on after it. */
function rawDecodeAll(text: string): unknown[] {
  const out: unknown[] = [];
  let pos = 0;
  for (;;) {
    const start = text.indexOf('{', pos);
    if (start < 0) return out;
    const end = objectEnd(text, start);
    if (end > 0) {
      try {
        out.push(JSON.parse(text.slice(start, end)));
        pos = end;
        continue;
      } catch {}
    }
    pos = start + 1;
  }
}

/** End (exclusive) of the brace-balanced span starting at `start`, strings respected; -1 if unclosed. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inStr = false;
  for (let j = start; j < text.length; j++) {
    const c = text[j];
    if (inStr) {
      if (c === '\\') j++;
      else if (c === '"') inStr = false;
    } else if (c === '"') inStr = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return c === '}' ? j + 1 : -1;
  }
  return -1;
}

const STATS_KEYS = ['suites', 'tests', 'passes', 'pending', 'failures', 'start', 'end', 'duration'];
const TEST_KEYS = ['title', 'fullTitle', 'currentRetry', 'err'];
const LISTS = ['tests', 'pending', 'failures', 'passes'] as const;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The reference decodes each object into its mocha-report dataclasses; a missing field raises. */
function mochaReport(obj: unknown): Record<(typeof LISTS)[number], Rec[]> | null {
  if (!isRec(obj) || !isRec(obj.stats) || !STATS_KEYS.every((k) => Object.hasOwn(obj.stats as Rec, k)))
    return null;
  for (const k of LISTS) {
    const list = obj[k];
    if (!Array.isArray(list)) return null;
    if (!list.every((t) => isRec(t) && TEST_KEYS.every((f) => Object.hasOwn(t, f)))) return null;
  }
  return obj as unknown as Record<(typeof LISTS)[number], Rec[]>;
}

/**
 * express: mocha's `--reporter json` objects anywhere in the log (lines of `=` and `Writing …` removed,
 * newlines joined); ids are `fullTitle`, failed beats skipped beats passed. Any other JSON object in the
 * log makes the reference raise.
 */
export function parseMsbMochaJson(log: string): TestMap {
  const text = log
    .split('\n')
    .map((seg) => (pyRe('^(=+|Writing .*)$', 's').test(seg) ? '' : seg))
    .join('\n')
    .replace(pyRe(String.raw`\r\n`, 'g'), '')
    .replace(pyRe(String.raw`\n`, 'g'), '');
  const r = sets();
  for (const obj of rawDecodeAll(text)) {
    const rep = mochaReport(obj);
    if (!rep) return {};
    for (const t of rep.passes) r.passed.add(String(t.fullTitle));
    for (const t of rep.failures) r.failed.add(String(t.fullTitle));
    for (const t of rep.pending) r.skipped.add(String(t.fullTitle));
  }
  for (const t of r.failed) {
    r.passed.delete(t);
    r.skipped.delete(t);
  }
  for (const t of r.skipped) r.passed.delete(t);
  return fromSets(r);
}

const MARK_PASS = [
  pyRe(String.raw`PASS:?\s+([^(]+)`, 's'),
  pyRe(String.raw`\s*[✔✓]\s+(.*?)(?:\s*\(\d+(?:\.\d+)?\s*(?:ms|s)\))?\s*$`, 's'),
];
const MARK_FAIL = [
  pyRe(String.raw`FAIL:?\s+([^(]+)`, 's'),
  pyRe(String.raw`\s*[×✗]\s+(.*?)(?:\s*\(\d+(?:\.\d+)?\s*(?:ms|s)\))?\s*$`, 's'),
  pyRe(String.raw`\s*\d+\)\s+(.*?)(?:\s*\(\d+(?:\.\d+)?\s*(?:ms|s)\))?\s*$`, 's'),
];
const MARK_SKIP = [pyRe(String.raw`SKIP:?\s+([^(]+)`, 's')];

/**
 * grommet, blueprint, lighthouse, prettier: `PASS x` / `FAIL x` / `SKIP x` anywhere in a line (up to a
 * `(`), `✓ title` / `× title` / `1) title` (ANSI colours removed); a failure is never overridden by a pass.
 */
export function parseMsbJsMarks(log: string): TestMap {
  const r = sets();
  for (const raw of pySplitlines(log)) {
    const line = raw.replace(pyRe(String.raw`\x1b\[[0-9;]*m`, 'g'), '');
    markLine(r, line, MARK_PASS, MARK_FAIL, MARK_SKIP);
  }
  return fromSets(r);
}
