/**
 * The job kinds faun runs and the messages they produce. The API enqueues `score` and `verify` jobs on the
 * work queue; whoever runs them (the API process itself, or `faun worker` on any machine) posts one
 * `result` message per item on the results queue, which the API writes to its database idempotently
 * (unique (run_id, item_id)) — so a job re-run after a worker died never duplicates a result.
 */
import { ExecutionInstance, SampleOutcome, TaskName } from '@faun/schema';
import { z } from 'zod';

export const WORK_QUEUE = 'faun-work';
export const RESULTS_QUEUE = 'faun-results';

/** Score a chunk of a text-metric run (QA/FL/CE): items and their predictions. */
export const ScoreJobData = z.object({
  runId: z.string(),
  task: TaskName,
  /** TaskItem records (validated by the scorer). */
  items: z.array(z.record(z.string(), z.unknown())),
  /** Prediction records for those items. */
  predictions: z.array(z.record(z.string(), z.unknown())),
});
export type ScoreJobData = z.infer<typeof ScoreJobData>;

/** Verify one execution instance with a model patch in a container. */
export const VerifyJobData = z.object({
  runId: z.string(),
  instance: ExecutionInstance,
  model: z.string(),
  patch: z.string(),
});
export type VerifyJobData = z.infer<typeof VerifyJobData>;

/**
 * An item's outcome in the API: the run-record outcomes plus `scored` — a QA or CE item that got metric
 * scores, which have no pass/fail threshold (FL items pass on exact match, execution items when resolved).
 */
export const ItemOutcome = z.enum([...SampleOutcome.options, 'scored']);
export type ItemOutcome = z.infer<typeof ItemOutcome>;

/** The outcomes an item of each task can have, in display order. */
export const TASK_OUTCOMES: Record<'qa' | 'fl' | 'ce' | 'exec', readonly ItemOutcome[]> = {
  qa: ['scored', 'fail', 'error', 'skipped'],
  ce: ['scored', 'fail', 'error', 'skipped'],
  fl: ['pass', 'fail', 'error', 'skipped'],
  exec: ['pass', 'fail', 'error', 'timeout', 'skipped'],
};

/** One item's result, as written to the results table. */
export const ItemResult = z.object({
  runId: z.string(),
  itemId: z.string(),
  outcome: ItemOutcome,
  /** Metric name → value (text metrics), empty for execution runs. */
  scores: z.record(z.string(), z.number()).default({}),
  /** What was extracted from the output and scored. */
  answer: z.string().nullable().default(null),
  /** Kind-specific detail: the ExecutionResult of a verification, notes of a score. */
  data: z.record(z.string(), z.unknown()).default({}),
  /** Test log excerpt (execution runs). */
  log: z.string().nullable().default(null),
  error: z.string().nullable().default(null),
  durationMs: z.number().nonnegative().default(0),
});
export type ItemResult = z.infer<typeof ItemResult>;
export type ItemResultInput = z.input<typeof ItemResult>;

/** A results-queue message: the results of one work job. */
export const ResultMessage = z.object({ runId: z.string(), results: z.array(ItemResult) });
export type ResultMessage = z.infer<typeof ResultMessage>;
