/** `go test -json` (preferred) and `go test -v` (`--- PASS: TestX (0.00s)`). */
import type { TestStatus } from '@faun/schema';
import { lines, put, type TestMap } from './common.ts';

const ACTIONS: Record<string, TestStatus> = { pass: 'PASSED', fail: 'FAILED', skip: 'SKIPPED' };

export function parseGoJson(log: string): TestMap {
  const out: TestMap = {};
  for (const raw of lines(log)) {
    const start = raw.indexOf('{"');
    if (start < 0) continue;
    let ev: { Action?: string; Test?: string };
    try {
      ev = JSON.parse(raw.slice(start));
    } catch {
      continue;
    }
    if (!ev.Test || !ev.Action) continue;
    const s = ACTIONS[ev.Action];
    if (s) put(out, ev.Test, s);
  }
  return out;
}

const VERBOSE = /---\s+(PASS|FAIL|SKIP):\s+(\S+)(?:\s+\([\d.]+m?s\))?/;

export function parseGoVerbose(log: string): TestMap {
  const out: TestMap = {};
  for (const raw of lines(log)) {
    const m = VERBOSE.exec(raw);
    if (m) put(out, m[2]!, m[1] === 'PASS' ? 'PASSED' : m[1] === 'FAIL' ? 'FAILED' : 'SKIPPED');
  }
  return out;
}

/** JSON events when the log has them, otherwise the `-v` lines. */
export function parseGo(log: string): TestMap {
  const json = parseGoJson(log);
  return Object.keys(json).length ? json : parseGoVerbose(log);
}
