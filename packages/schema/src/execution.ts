/** Execution-verification records (a superset SWE-bench, SWE-bench-java and Multi-SWE-bench rows map into). */
import { z } from 'zod';
import { Language, version } from './common.ts';

export const ExecutionInstance = z.object({
  v: version(1),
  /** SWE-bench style `owner__repo-N`, or Multi-SWE-bench `owner/repo:pr-N`. */
  instance_id: z.string().min(1),
  repo: z.string(),
  language: Language,
  base_commit: z.string(),
  /** The gold fix (SWE-bench `patch`, Multi-SWE-bench `fix_patch`). */
  patch: z.string(),
  test_patch: z.string(),
  fail_to_pass: z.array(z.string()),
  pass_to_pass: z.array(z.string()),
  problem_statement: z.string().default(''),
  version: z.string().nullable().default(null),
  environment_setup_commit: z.string().nullable().default(null),
  /** Override of the repository spec's test command, when the row carries one. */
  test_cmd: z.string().nullable().default(null),
  /** A prebuilt image to use instead of building one. */
  image: z.string().nullable().default(null),
});
export type ExecutionInstance = z.infer<typeof ExecutionInstance>;

export const TestStatus = z.enum(['PASSED', 'FAILED', 'SKIPPED', 'ERROR', 'XFAIL']);
export type TestStatus = z.infer<typeof TestStatus>;

export const ResolvedStatus = z.enum(['RESOLVED_FULL', 'RESOLVED_PARTIAL', 'RESOLVED_NO']);

export const ExecutionOutcome = z.enum([
  'resolved',
  'unresolved',
  'apply_failed',
  'empty_patch',
  'timeout',
  'invalid_log',
  'infra_error',
]);
export type ExecutionOutcome = z.infer<typeof ExecutionOutcome>;

export const ExecutionResult = z.object({
  v: version(1),
  instance_id: z.string(),
  model: z.string(),
  outcome: ExecutionOutcome,
  resolved_status: ResolvedStatus.nullable(),
  /** Which step of the apply chain worked (`git apply`, `git apply --3way`, `patch --fuzz`…). */
  applied_with: z.string().nullable(),
  patch_sha256: z.string(),
  image_id: z.string().nullable(),
  spec_version: z.string().nullable(),
  exit_code: z.number().int().nullable(),
  tests_status: z.object({
    FAIL_TO_PASS: z.object({ success: z.array(z.string()), failure: z.array(z.string()) }),
    PASS_TO_PASS: z.object({ success: z.array(z.string()), failure: z.array(z.string()) }),
    FAIL_TO_FAIL: z.object({ success: z.array(z.string()), failure: z.array(z.string()) }),
    PASS_TO_FAIL: z.object({ success: z.array(z.string()), failure: z.array(z.string()) }),
  }),
  duration_s: z.number(),
  error: z.string().nullable(),
});
export type ExecutionResult = z.infer<typeof ExecutionResult>;
