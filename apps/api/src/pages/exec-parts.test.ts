import { expect, test } from 'bun:test';
import type { ExecutionResult } from '@faun/schema';
import type { ResultRow } from './data.ts';
import { execSection } from './exec-parts.ts';

const none = { success: [], failure: [] };
const execution = (extra: Partial<ExecutionResult>): ExecutionResult => ({
  v: 1,
  instance_id: 'o__r-1',
  model: 'm',
  outcome: 'unresolved',
  resolved_status: 'RESOLVED_NO',
  applied_with: null,
  patch_sha256: 'x',
  image_id: null,
  spec_version: null,
  exit_code: null,
  tests_status: { FAIL_TO_PASS: none, PASS_TO_PASS: none, FAIL_TO_FAIL: none, PASS_TO_FAIL: none },
  duration_s: 0,
  error: null,
  ...extra,
});
const row = (ex: ExecutionResult) => ({ data: { execution: ex }, log: null }) as unknown as ResultRow;

test('the files dropped before the run are listed with their rule (escaped); none → no list', () => {
  const html = String(
    execSection(
      row(execution({ dropped_files: [{ path: 'a/<b>/conftest.py', reason: 'pytest conftest' }] })),
      undefined,
      '',
    ),
  );
  expect(html).toContain('id="dropped-files"');
  expect(html).toContain('<li><code>a/&lt;b&gt;/conftest.py</code> — pytest conftest</li>');
  expect(String(execSection(row(execution({})), undefined, ''))).not.toContain('dropped-files');
});
