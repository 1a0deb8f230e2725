import { expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExecutionResult } from '@faun/schema';
import type { Meta } from './files/run-files.ts';
import { regradeInstance } from './regrade.ts';

const LOG = [
  '>>>>> faun test start n0nce',
  '>>>>> Start Test Output',
  'Test project /opt/faun-build',
  '1/1 Test #8: format-test ......................   Passed    0.29 sec',
  '>>>>> End Test Output',
  '>>>>> faun test end n0nce',
  '>>>>> Test Exit Code: 0',
  '',
].join('\n');

const empty = { success: [], failure: [] };

test("a stored log is graded again with a row's new parser, no run: the outcome, result and report follow", async () => {
  const d = mkdtempSync(join(tmpdir(), 'faun-regrade-'));
  writeFileSync(join(d, 'test_output.txt'), LOG);
  // graded first with a parser that does not read ctest's lines (SWE-bench's googletest)
  const stored = ExecutionResult.parse({
    v: 1,
    instance_id: 'fmtlib__fmt-3900',
    model: 'gold',
    outcome: 'invalid_log',
    resolved_status: 'RESOLVED_NO',
    applied_with: 'git apply',
    patch_sha256: 'p',
    image_id: 'i',
    spec_version: 's',
    exit_code: 0,
    tests_status: {
      FAIL_TO_PASS: { success: [], failure: ['format-test'] },
      PASS_TO_PASS: empty,
      FAIL_TO_FAIL: empty,
      PASS_TO_FAIL: empty,
    },
    duration_s: 1,
    error: 'no test results in the log and no sign the test suite ran',
  });
  const meta: Meta & { nonce: string | null } = {
    nonce: 'n0nce',
    parser: 'msb-ctest',
    exact_ids: true,
    eval_type: 'pass_and_fail',
    msb: null,
    fail_to_pass: ['format-test'],
    pass_to_pass: [],
    language: 'cpp',
    patch_empty: false,
  };
  const { result, changed } = await regradeInstance(d, stored, meta);
  expect(changed).toBe(true);
  expect(result.outcome).toBe('resolved');
  expect(result.tests_status.FAIL_TO_PASS).toEqual({ success: ['format-test'], failure: [] });
  expect(JSON.parse(readFileSync(join(d, 'result.json'), 'utf8')).outcome).toBe('resolved');
  expect(readFileSync(join(d, 'report.json'), 'utf8')).toContain('"resolved": true');
  // the same inputs again: nothing changes
  expect((await regradeInstance(d, result, meta)).changed).toBe(false);
});
