/** A minimal ExecutionResult for tests of reports and summaries (override any field with `extra`). */
import type { ExecutionResult } from '@faun/schema';
import { failedStatus } from '../src/grading/grading.ts';

export const executionResult = (
  id: string,
  outcome: ExecutionResult['outcome'],
  extra: Partial<ExecutionResult> = {},
): ExecutionResult => ({
  v: 1,
  instance_id: id,
  model: 'm',
  outcome,
  resolved_status:
    outcome === 'resolved' ? 'RESOLVED_FULL' : outcome === 'infra_error' ? null : 'RESOLVED_NO',
  applied_with: 'git apply',
  patch_sha256: 'x',
  image_id: null,
  spec_version: null,
  exit_code: 0,
  tests_status: failedStatus([], []),
  duration_s: 1,
  error: null,
  ...extra,
});
