/** Execution-verification records (a superset SWE-bench, SWE-bench-java and Multi-SWE-bench rows map into). */
import { z } from 'zod';
import { Language, version } from './common.ts';

/** One stage's results as Multi-SWE-bench stores them (`TestResult`: test ids by outcome). */
export const MsbStageResult = z.object({
  passed_tests: z.array(z.string()),
  failed_tests: z.array(z.string()),
  skipped_tests: z.array(z.string()),
});
export type MsbStageResult = z.infer<typeof MsbStageResult>;

/** What a Multi-SWE-bench dataset row carries for grading: its test categories and stored stage results. */
export const MsbGrading = z.object({
  fixed_tests: z.array(z.string()).default([]),
  p2p_tests: z.array(z.string()).default([]),
  f2p_tests: z.array(z.string()).default([]),
  /** Skipped after the test patch, passing after the fix. */
  s2p_tests: z.array(z.string()).default([]),
  /** Absent after the test patch (e.g. did not compile), passing after the fix. */
  n2p_tests: z.array(z.string()).default([]),
  /** Stored results of the stages Multi-SWE-bench does not rerun (null when the row has none). */
  run_result: MsbStageResult.nullable().default(null),
  test_patch_result: MsbStageResult.nullable().default(null),
  fix_patch_result: MsbStageResult.nullable().default(null),
});
export type MsbGrading = z.infer<typeof MsbGrading>;

/**
 * The grading rule an instance is held to: a reference benchmark's (each implemented once in
 * @faun/harness `benchmarks/`; files keep these names).
 */
export const GradingRule = z.enum(['swebench', 'multi-swe-bench']);
export type GradingRule = z.infer<typeof GradingRule>;

export const ExecutionInstance = z.object({
  v: version(1),
  /** The row's id as its benchmark gives it: SWE-bench's `owner__repo-N`, Multi-SWE-bench's `owner/repo:pr-N`. */
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
  /** Which benchmark's grading rule applies (the row's origin; absent = SWE-bench). */
  source: GradingRule.optional(),
  /** Multi-SWE-bench rows: every test category and stored stage result. */
  msb: MsbGrading.nullable().optional(),
  /** SWE-bench v5 rows: the script that runs the tests in the published image. */
  eval_script: z.string().nullable().optional(),
  /** SWE-bench v5 rows: the reference log parser's name (e.g. `parse_log_pytest`). */
  log_parser: z.string().nullable().optional(),
  /** SWE-bench v5 rows: `pass_and_fail` or `fail_only` (kept as given; checked when graded). */
  eval_type: z.string().nullable().optional(),
  /** The Python hash seed the tests need (default 0 under the determinism contract; `random` for none). */
  python_hash_seed: z
    .string()
    .regex(/^(random|\d{1,10})$/, 'expected a number or "random"')
    .nullable()
    .optional(),
  /** When the issue or fix was created (ISO time, SWE-bench `created_at`): the pages' contamination view. */
  created_at: z.string().nullable().optional(),
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
  /** The row cannot be graded as given (unknown log parser or eval type, missing stage results…). */
  'bad_input',
  /**
   * The code under test reached for the verdict: a forged or duplicated faun marker in the output. Never
   * resolved. (A prediction's test-infrastructure files are dropped before the run: `dropped_files`.)
   */
  'tampered',
  /**
   * A listed test failed, then passed when re-run in a fresh sandbox: neither resolved nor unresolved by
   * itself; `--flaky-policy` decides how the run report counts it.
   */
  'flaky',
]);
export type ExecutionOutcome = z.infer<typeof ExecutionOutcome>;

/**
 * What a test run was held to, written into every result: the fixed environment (time zone, locale, hash
 * seed, test-runner seed, build timestamp), the network, the user, the limits, and the exact image (by digest).
 */
export const DeterminismContract = z.object({
  TZ: z.string(),
  LANG: z.string(),
  LC_ALL: z.string(),
  PYTHONHASHSEED: z.string(),
  SOURCE_DATE_EPOCH: z.string(),
  /** The seed passed to test runners that draw one per run (absent in results from before it was set). */
  FAUN_TEST_SEED: z.string().optional(),
  network: z.string(),
  user: z.string(),
  cpus: z.number(),
  memory_mb: z.number(),
  pids: z.number(),
  disk_mb: z.number(),
  /** The image the sandbox ran (tag or ref) and its content digest (`sha256:…`; null for the local backend). */
  image: z.string().nullable(),
  image_digest: z.string().nullable(),
});
export type DeterminismContract = z.infer<typeof DeterminismContract>;

/** One step of an instance's run, in order: `apply`, `build`, `tests`, `rerun-1`, … */
export const ExecutionStage = z.object({
  name: z.string(),
  status: z.enum(['ok', 'failed', 'skipped']),
  duration_s: z.number(),
  /** One line: which strategy applied the patch, the exit status, the tests re-run… */
  detail: z.string().nullable(),
  /** The artifact holding this stage's log in the instance directory (e.g. `apply_output.txt`). */
  log: z.string().nullable(),
});
export type ExecutionStage = z.infer<typeof ExecutionStage>;

/** How often a listed test passed over every run of it (the first and the re-runs). */
export const TestRuns = z.record(z.string(), z.object({ passes: z.number().int(), runs: z.number().int() }));
export type TestRuns = z.infer<typeof TestRuns>;

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
  /**
   * faun's stricter checks that did not change the verdict (which is always the reference grader's):
   * e.g. `nonce-markers-missing`, `exit-code-mismatch`, `exit-zero-with-failures`.
   */
  flags: z.array(z.string()).optional(),
  /** Outcome `tampered`: what the run did (`forged-marker`, …). */
  tampered: z.array(z.string()).optional(),
  /**
   * Files of the prediction dropped before the run because they are the benchmark's test infrastructure
   * (`conftest.py`, runner configuration, files the test patch touches…; `--test-infra drop`, the default),
   * with the rule that named each. Absent when nothing was dropped.
   */
  dropped_files: z.array(z.object({ path: z.string(), reason: z.string() })).optional(),
  /** The determinism contract the tests ran under. */
  contract: DeterminismContract.optional(),
  /** The stages as they ran. */
  stages: z.array(ExecutionStage).optional(),
  /** Listed tests that failed in the first run and were re-run: passes / runs over every run. */
  test_runs: TestRuns.optional(),
  /** Listed tests that failed, then passed on a re-run. */
  flaky_tests: z.array(z.string()).optional(),
});
export type ExecutionResult = z.infer<typeof ExecutionResult>;
