/** pytest: `-rA` short summary lines (`PASSED id`) and verbose lines (`id PASSED [ 50%]`). */
import type { TestStatus } from '@faun/schema';
import { lines, put, type TestMap } from './common.ts';

const WORDS: Record<string, TestStatus> = {
  PASSED: 'PASSED',
  FAILED: 'FAILED',
  SKIPPED: 'SKIPPED',
  ERROR: 'ERROR',
  XFAIL: 'XFAIL',
  XPASS: 'PASSED',
};
const SUMMARY = /^(PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS)\s+(.+?)\s*$/;
const VERBOSE =
  /^(\S+::\S.*?)\s+(PASSED|FAILED|SKIPPED|ERROR|XFAIL|XPASS)(?:\s+\(.*\))?(?:\s+\[\s*\d+%\])?\s*$/;

/** Strips the ` - message` tail pytest adds to FAILED/ERROR/XFAIL summary lines. */
function summaryId(rest: string): string | null {
  if (rest.startsWith('[')) return null; // `SKIPPED [1] file.py:12: reason` names no test id
  const dash = rest.indexOf(' - ');
  return (dash >= 0 ? rest.slice(0, dash) : rest).trim();
}

export function parsePytest(log: string): TestMap {
  const out: TestMap = {};
  for (const raw of lines(log)) {
    const line = raw.trimEnd();
    const s = SUMMARY.exec(line);
    if (s) {
      const id = summaryId(s[2]!);
      if (id) put(out, id, WORDS[s[1]!]!);
      continue;
    }
    const v = VERBOSE.exec(line.trim());
    if (v) put(out, v[1]!, WORDS[v[2]!]!);
  }
  return out;
}
