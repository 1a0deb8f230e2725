/** `cargo test`: `test path::name ... ok|FAILED|ignored`, tolerant of output printed between name and result. */
import type { TestStatus } from '@faun/schema';
import { lines, put, type TestMap } from './common.ts';

const RESULT: Record<string, TestStatus> = { ok: 'PASSED', FAILED: 'FAILED', ignored: 'SKIPPED' };
const FULL = /^test (\S+) \.\.\. (ok|FAILED|ignored)\b/;
const OPEN = /^test (\S+) \.\.\. ?(.*)$/;
const BARE = /(?:^|\s)(ok|FAILED|ignored)$/;

export function parseCargo(log: string): TestMap {
  const out: TestMap = {};
  let pending: string | null = null;
  for (const raw of lines(log)) {
    const line = raw.trimEnd();
    const full = FULL.exec(line);
    if (full) {
      put(out, full[1]!, RESULT[full[2]!]!);
      pending = null;
      continue;
    }
    const open = OPEN.exec(line);
    if (open && !open[1]!.startsWith('result:')) {
      pending = open[1]!;
      continue;
    }
    if (pending) {
      const b = BARE.exec(line);
      if (b) {
        put(out, pending, RESULT[b[1]!]!);
        pending = null;
      }
    }
  }
  return out;
}
