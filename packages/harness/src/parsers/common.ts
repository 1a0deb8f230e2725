/** Shared helpers of the log parsers: ANSI stripping, status merging, the parser signature. */
import type { TestStatus } from '@faun/schema';

/** Test id → status, as read from one test log. */
export type TestMap = Record<string, TestStatus>;

/** A pure log parser: the log text in, the per-test statuses out. */
export type LogParser = (log: string) => TestMap;

// CSI / OSC escape sequences and stray carriage-return overwrites.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

/** Removes ANSI colour/cursor codes and normalises line endings (`\r\n`, bare `\r` overwrites). */
export function stripAnsi(text: string): string {
  return text
    .replace(ANSI, '')
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => {
      // A progress line overwritten in place keeps only its last segment.
      const parts = line.split('\r').filter((p) => p.length > 0);
      return parts[parts.length - 1] ?? '';
    })
    .join('\n');
}

const RANK: Record<TestStatus, number> = { PASSED: 0, XFAIL: 1, SKIPPED: 2, FAILED: 3, ERROR: 4 };

/**
 * Records `status` for `id`; when a test is reported twice with different statuses the worse one wins
 * (a forged `PASSED` line cannot hide a real failure).
 */
export function put(map: TestMap, id: string, status: TestStatus): void {
  const key = id.trim();
  if (!key) return;
  const prev = map[key];
  if (prev === undefined || RANK[status] > RANK[prev]) map[key] = status;
}

/** Splits a log into ANSI-free lines. */
export function lines(log: string): string[] {
  return stripAnsi(log).split('\n');
}
