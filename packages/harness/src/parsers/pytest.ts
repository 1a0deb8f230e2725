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

const SECTION = /^=+ (FAILURES|ERRORS|PASSES|warnings summary|short test summary info|.*captured.*) =+$/i;
const SUMMARY_HEADER = /^=+ short test summary info =+$/;

/**
 * Only the outer session counts: with `-rA`, captured output of passing tests (e.g. pytest's own tests,
 * which run inner sessions) is printed before the final summary, so summary lines are read after the
 * *last* summary header and verbose lines only from the live part before the first report section.
 */
export function parsePytest(log: string): TestMap {
  const out: TestMap = {};
  const all = lines(log).map((l) => l.trimEnd());
  let last = -1;
  all.forEach((l, i) => {
    if (SUMMARY_HEADER.test(l)) last = i;
  });
  const firstSection = all.findIndex((l) => SECTION.test(l));
  const live = firstSection < 0 ? all : all.slice(0, firstSection);
  const summary = last < 0 ? (firstSection < 0 ? [] : all.slice(firstSection)) : all.slice(last + 1);
  for (const line of summary) {
    const s = SUMMARY.exec(line);
    if (s) {
      const id = summaryId(s[2]!);
      if (id) put(out, id, WORDS[s[1]!]!);
    }
  }
  for (const line of live) {
    const s = SUMMARY.exec(line);
    if (s && last < 0) {
      const id = summaryId(s[2]!);
      if (id) put(out, id, WORDS[s[1]!]!);
      continue;
    }
    const v = VERBOSE.exec(line.trim());
    if (v) put(out, v[1]!, WORDS[v[2]!]!);
  }
  return out;
}
