/**
 * Multi-SWE-bench's `parse_log` rules for TypeScript/JavaScript repositories whose runners print jest
 * file lines or mocha/karma marks, ported line for line (see `msb-native.ts`).
 */
import type { TestMap } from './common.ts';
import { addMatches, fromSets, pyRe, pySplitlines, pyStrip, sets, strippedLines } from './py.ts';
import { pyLstrip } from './py-str.ts';

const ANSI = /\x1b\[[0-9;]*m/g;
const FILE_PASS = pyRe(String.raw`^PASS (.+?)(?:\s\(\d*\.?\d+\s*\w+\))?$`, 's');
const FILE_FAIL = pyRe(String.raw`^FAIL (.+?)(?:\s\(\d*\.?\d+\s*\w+\))?$`, 's');

/** react-router, zod: only jest's per-file `PASS file` / `FAIL file` lines, the file being the test. */
export function parseMsbJestFiles(log: string): TestMap {
  const r = sets();
  for (const line of strippedLines(log)) addMatches(r, line, { passed: FILE_PASS, failed: FILE_FAIL });
  return fromSets(r);
}

const FILES_MARK_PASS = pyRe(String.raw`^✓ (.+?)(?:\s\(\d*\.?\d+\s*\w+\))?$`, 's');
const FILES_MARK_FAIL = pyRe(String.raw`^\d+\) (.+?)(?:\s\(\d*\.?\d*\s*\w+\))?$`, 's');

/**
 * redux: jest's `PASS file` / `FAIL file` lines and, as tests of their own (no file prefix), `✓ title`
 * passes and mocha-style `1) title` failures; the four rules are read independently on each stripped line.
 */
export function parseMsbJestFilesMarks(log: string): TestMap {
  const r = sets();
  for (const line of strippedLines(log)) {
    addMatches(r, line, { passed: FILE_PASS, failed: FILE_FAIL });
    addMatches(r, line, { passed: FILES_MARK_PASS, failed: FILES_MARK_FAIL });
  }
  return fromSets(r);
}

const MARK_PASS = [
  pyRe(String.raw`^PASS:?\s+([^\(]+)`, 's'),
  pyRe(String.raw`^[\s]*[✔✓]\s+(.*?)(?:\s+\([\d\.]+\s*\w+\))?$`, 's'),
];
const MARK_FAIL = [
  pyRe(String.raw`^FAIL:?\s+([^\(]+)`, 's'),
  pyRe(String.raw`^[\s]*[✖✘]\s+(.*?)(?:\s+\([\d\.]+\s*\w+\))?$`, 's'),
];
const MARK_SKIP = [
  pyRe(String.raw`^SKIP:?\s?(.+?)\s`, 's'),
  pyRe(String.raw`^[\s]*[-]\s+(.*?)(?:\s+\([\d\.]+\s*\w+\))?$`, 's'),
];

/**
 * react-hook-form, lightweight-charts, vuetify: `PASS x` / `FAIL x` (up to a `(`), `✓ title`, `✖ title`,
 * `- title` (skipped) and `SKIP x`, stripped and ANSI-free; a failure is never overridden by a pass.
 */
export function parseMsbMarksStripped(log: string): TestMap {
  const r = sets();
  for (const raw of pySplitlines(log)) {
    const line = pyStrip(raw.replace(ANSI, ''));
    for (const re of MARK_PASS) {
      const m = re.exec(line);
      if (m && !r.failed.has(pyStrip(m[1]!))) r.passed.add(pyStrip(m[1]!));
    }
    for (const re of MARK_FAIL) {
      const m = re.exec(line);
      if (m) {
        r.failed.add(pyStrip(m[1]!));
        r.passed.delete(pyStrip(m[1]!));
      }
    }
    for (const re of MARK_SKIP) {
      const m = re.exec(line);
      if (m) r.skipped.add(pyStrip(m[1]!));
    }
  }
  return fromSets(r);
}

const HC_PASS = pyRe(String.raw`^[\s]*[✔✓]\s+(.*?)(?:\s+\([\d\.]+\s*\w+\))?$`, 's');
const HC_FAIL = [
  pyRe(String.raw`^[\s]*✖\s+(.*?)(?:\s+\([\d\.]+\s*\w+\))?$`, 's'),
  pyRe(String.raw`^\s*\d+\)\s*(.+)$`, 's'),
];
const HC_SKIP = pyRe(String.raw`^\s*-\s+(.*)$`, 's');

/**
 * highcharts, openmct: the first of failure (`✖ title`, `1) title`), skip (`- title`) or pass (`✓ title`)
 * that matches a line decides it; failures win over earlier passes and skips.
 */
export function parseMsbMarksFirst(log: string): TestMap {
  const r = sets();
  for (const raw of pySplitlines(log)) {
    const line = pyStrip(raw.replace(ANSI, ''));
    if (!line) continue;
    const f = HC_FAIL.map((re) => re.exec(line)).find((m) => m);
    if (f) {
      const name = pyStrip(f[1]!);
      r.failed.add(name);
      r.passed.delete(name);
      r.skipped.delete(name);
      continue;
    }
    const s = HC_SKIP.exec(line);
    if (s) {
      const name = pyStrip(s[1]!);
      if (!r.failed.has(name)) {
        r.skipped.add(name);
        r.passed.delete(name);
      }
      continue;
    }
    const p = HC_PASS.exec(line);
    if (p) {
      const name = pyStrip(p[1]!);
      if (!r.failed.has(name) && !r.skipped.has(name)) r.passed.add(name);
    }
  }
  return fromSets(r);
}

const SPEC_SUITE = pyRe('^▶ (.+)$', 's');
const SPEC_PASS = pyRe(String.raw`^✔ (.+?)(?:\s\(\d*\.?\d+\s*\w+\))?$`, 's');
const SPEC_FAIL = pyRe(String.raw`^✖ (.+?)(?:\s\(\d*\.?\d+\s*\w+\))?$`, 's');

/**
 * marked: node's spec reporter. `▶ suite` opens a suite (one at the line's start resets the stack); a
 * `✔ test` / `✖ test` is named `suite:…:test`, or only `test` when it is the single open suite's own
 * name. Indentation is measured before stripping; lines are not ANSI-cleaned.
 */
export function parseMsbNodeSpecSuites(log: string): TestMap {
  const r = sets();
  let stack: string[] = [];
  const named = (test: string) => {
    const suite = stack.join(':');
    if (suite && stack.length === 1 && test === stack[stack.length - 1]) return test;
    return suite ? `${suite}:${test}` : test;
  };
  for (const raw of pySplitlines(log)) {
    const indent = raw.length - pyLstrip(raw).length;
    const line = pyStrip(raw);
    if (!line) continue;
    const suite = SPEC_SUITE.exec(line);
    if (suite) {
      if (indent === 0) stack = [];
      stack.push(suite[1]!);
      continue;
    }
    const p = SPEC_PASS.exec(line);
    if (p) {
      r.passed.add(named(p[1]!));
      continue;
    }
    const f = SPEC_FAIL.exec(line);
    if (f) r.failed.add(named(f[1]!));
  }
  return fromSets(r);
}
