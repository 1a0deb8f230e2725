import { afterAll, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '@faun/kit';
import { executionResult } from '../../testing/results.ts';
import { testInstance } from '../run/test-instance.ts';
import { writeFormatReports } from './report-write.ts';

const root = mkdtempSync(join(tmpdir(), 'faun-report-write-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (id: string, reportDir: string, model = 'm') => {
  const runDir = join(root, 'run');
  mkdirSync(join(runDir, 'instances', 'x'), { recursive: true });
  writeFileSync(join(runDir, 'instances', 'x', 'patch.diff'), 'p');
  return writeFormatReports({
    reportDir,
    runDir,
    runId: 'r1',
    model,
    instances: [testInstance({ instance_id: id })],
    predictions: [{ instance_id: id, empty: false }],
    results: [executionResult(id, 'unresolved')],
    dirName: () => 'x',
  });
};

test('an instance id can never write outside --report-dir', async () => {
  const reportDir = join(root, 'a', 'b', 'reports');
  // the per-instance folder is 4 levels below the report directory: 6 levels up is `a`
  const e = await write('../../../../../..', reportDir).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(InputError);
  expect((e as Error).message).toContain("instance id '../../../../../..' leads outside");
  // nothing was copied next to or above the report directory
  expect(readdirSync(join(root, 'a', 'b'))).toEqual(['reports']);
  expect(existsSync(join(root, 'a', 'patch.diff'))).toBe(false);
});

test('an ordinary id is written where SWE-bench keeps it', async () => {
  const reportDir = join(root, 'ok');
  await write('o__r-1', reportDir);
  expect(existsSync(join(reportDir, 'logs', 'run_evaluation', 'r1', 'm', 'o__r-1', 'patch.diff'))).toBe(true);
  expect(existsSync(join(reportDir, 'm.r1.json'))).toBe(true);
});
