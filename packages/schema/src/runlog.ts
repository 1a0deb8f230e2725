/**
 * The run record every result-producing command writes to its run directory:
 * `header.json` at start, `samples.jsonl` appended as items finish, `summary.json` at the end.
 * Documented in docs/run-record.md; bump RUN_RECORD_VERSION on incompatible changes.
 */
import { z } from 'zod';
import { RUN_RECORD_VERSION } from './runlog-version.ts';

export { RUN_RECORD_VERSION };

export const SampleOutcome = z.enum(['pass', 'fail', 'error', 'timeout', 'skipped']);
export type SampleOutcome = z.infer<typeof SampleOutcome>;

export const RunHeader = z.object({
  v: z.literal(RUN_RECORD_VERSION),
  run_id: z.string(),
  command: z.string(),
  argv: z.array(z.string()),
  /** Resolved options (secrets removed). */
  options: z.record(z.string(), z.unknown()),
  faun_version: z.string(),
  dependencies: z.record(z.string(), z.string()),
  runtime: z.object({ bun: z.string().nullable(), node: z.string(), platform: z.string() }),
  git: z.object({ sha: z.string().nullable(), dirty: z.boolean().nullable() }),
  /** Input file path → sha256 of its content. */
  inputs: z.record(z.string(), z.string()),
  seed: z.number().int().nullable(),
  started_at: z.string(),
});
export type RunHeader = z.infer<typeof RunHeader>;

export const RunSample = z.object({
  v: z.literal(RUN_RECORD_VERSION),
  id: z.string(),
  outcome: SampleOutcome,
  duration_ms: z.number().nonnegative(),
  data: z.record(z.string(), z.unknown()).default({}),
  error: z.string().nullable().default(null),
});
export type RunSample = z.infer<typeof RunSample>;

export const RunSummary = z.object({
  v: z.literal(RUN_RECORD_VERSION),
  run_id: z.string(),
  status: z.enum(['success', 'error', 'cancelled']),
  counts: z.object({
    pass: z.number().int(),
    fail: z.number().int(),
    error: z.number().int(),
    timeout: z.number().int(),
    skipped: z.number().int(),
  }),
  started_at: z.string(),
  finished_at: z.string(),
  duration_s: z.number(),
  outputs: z.record(z.string(), z.string()),
  metrics: z.record(z.string(), z.unknown()).default({}),
  resume_command: z.string().nullable().default(null),
});
export type RunSummary = z.infer<typeof RunSummary>;
