/** ctest (`1/3 Test #1: name ....   Passed  0.01 sec`) and GoogleTest (`[       OK ] Suite.Test (0 ms)`). */
import type { TestStatus } from '@faun/schema';
import { lines, put, type TestMap } from './common.ts';

const CTEST =
  /Test\s+#\d+:\s+(\S+)\s+\.*\s*(\*{3})?(Passed|Failed|Not Run|Skipped|Timeout|Exception|\*?\*?\*?Failed|SEGFAULT)/;

export function parseCtest(log: string): TestMap {
  const out: TestMap = {};
  for (const raw of lines(log)) {
    const m = CTEST.exec(raw);
    if (!m) continue;
    const word = m[3]!.replace(/\*/g, '');
    const s: TestStatus =
      word === 'Passed' ? 'PASSED' : word === 'Skipped' || word === 'Not Run' ? 'SKIPPED' : 'FAILED';
    put(out, m[1]!, s);
  }
  return out;
}

const GTEST = /\[\s*(RUN|OK|FAILED|SKIPPED)\s*\]\s+([\w/.<>:-]+\.[\w/<>:-]+)(?:\s+\(\d+ ms\))?/;

export function parseGtest(log: string): TestMap {
  const out: TestMap = {};
  const running = new Set<string>();
  for (const raw of lines(log)) {
    const m = GTEST.exec(raw);
    if (!m) continue;
    const [, word, id] = m as unknown as [string, string, string];
    if (word === 'RUN') {
      running.add(id);
      continue;
    }
    running.delete(id);
    put(out, id, word === 'OK' ? 'PASSED' : word === 'SKIPPED' ? 'SKIPPED' : 'FAILED');
  }
  // Started but never finished: the binary crashed inside that test.
  for (const id of running) put(out, id, 'ERROR');
  return out;
}

/** Both: ctest lines name executables; GoogleTest lines (printed with `--output-on-failure -V`) name cases. */
export function parseCtestGtest(log: string): TestMap {
  return { ...parseCtest(log), ...parseGtest(log) };
}
