/**
 * Stable test names: the part of a test name a runner prints differently from one run of the same tests to
 * the next — colour codes, surrounding whitespace, a duration (`(12 ms)`, `(0.01s)`, `<0.001s>`,
 * `# time=3ms`, `Time elapsed: 0.2 s`), a pytest-xdist worker tag (`[gw3]`) or a progress mark (`[ 42%]`) —
 * removed, so that the same test has the same name whatever the timing, colour, ordering or worker count.
 *
 * Parsers keep the reference's names (a row lists them in that form); grading matches a listed name to a
 * parsed one through `stableTestName` on both sides (`stableTestMap`), and re-run merging and gold health
 * count tests by it. It removes only what a run decides, never a character of the test's own title.
 */
import type { TestStatus } from '@faun/schema';
import type { TestMap } from './common.ts';

// CSI / OSC escape sequences.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;
const UNIT = '(?:ns|µs|μs|us|ms|s|sec|secs|seconds?|m|min)';
const NUMBER = String.raw`\d+(?:[.,]\d+)?`;
/**
 * Volatile text at the end of a name, after whitespace (so `test_x[42%]`, a parameter, stays); each is
 * removed repeatedly.
 */
const TRAILING = [
  new RegExp(String.raw`\s+\(\s*${NUMBER}\s*${UNIT}\s*\)$`, 'u'), // jest/mocha/go `(12 ms)`, `(0.01s)`
  new RegExp(String.raw`\s+<\s*${NUMBER}\s*${UNIT}\s*>$`, 'u'), // cargo --report-time `<0.001s>`
  new RegExp(String.raw`\s+#\s*time=${NUMBER}\s*${UNIT}?$`, 'u'), // node-tap `# time=3.2ms`
  new RegExp(String.raw`(?:,|\s+--?)?\s*Time elapsed:\s*${NUMBER}\s*${UNIT}?$`, 'u'), // surefire
  /\s+\[\s*\d+%\]$/u, // pytest progress `[ 42%]`
];
/** Volatile text at the start of a name, before whitespace: pytest-xdist worker tags and progress marks. */
const LEADING = /^(?:\[gw\d+\]|\[\s*\d+%\])\s+/u;

/** `name` without the parts a run decides (colour, edge whitespace, durations, worker tags, progress). */
export function stableTestName(name: string): string {
  let s = name.replace(ANSI, '').trim();
  for (let prev = ''; prev !== s; ) {
    prev = s;
    s = s.replace(LEADING, '');
    for (const re of TRAILING) s = s.replace(re, '');
    s = s.trim();
  }
  return s;
}

const RANK: Record<TestStatus, number> = { PASSED: 0, XFAIL: 1, SKIPPED: 2, FAILED: 3, ERROR: 4 };

/**
 * A status map keyed by stable names. Names that differ only in volatile parts are one test; when they were
 * read with different statuses the worse one counts (a passing line cannot hide a failure).
 */
export function stableTestMap(tests: TestMap): TestMap {
  const out: TestMap = {};
  for (const [name, status] of Object.entries(tests)) {
    const key = stableTestName(name);
    if (!key) continue;
    const prev = Object.hasOwn(out, key) ? out[key] : undefined;
    if (prev === undefined || RANK[status] > RANK[prev])
      Object.defineProperty(out, key, {
        value: status,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}
