/** Model predictions and per-item scores. */
import { z } from 'zod';
import { TaskName, version } from './common.ts';

export const Usage = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  cached_tokens: z.number().int().nonnegative().default(0),
});
export type Usage = z.infer<typeof Usage>;

export const Prediction = z.object({
  v: version(1),
  id: z.string().min(1),
  task: TaskName,
  /** `provider:name`, e.g. `openai:gpt-4o`, `bm25`, `baseline:title`. */
  model: z.string(),
  /** The raw model output, kept even when malformed. */
  output: z.string(),
  prompt_version: z.string().nullable().default(null),
  /** Input parts removed for an ablation run (issue_title, issue_body, pr_title, pr_body). */
  ablate: z.array(z.string()).default([]),
  /** Prompt length in estimated tokens, for RQ3 length buckets. */
  input_tokens: z.number().int().nonnegative().nullable().default(null),
  truncated: z.boolean().default(false),
  usage: Usage.nullable().default(null),
  cost_usd: z.number().nullable().default(null),
  /** Wall time of the model call (retries included), ms; null when not recorded. */
  latency_ms: z.number().nonnegative().nullable().default(null),
  /** True when the answer came from the on-disk model cache; null when not recorded. */
  cache_hit: z.boolean().nullable().default(null),
  /**
   * sha256 of the messages as sent (stable JSON, the model cache's prompt hash), and the prompt budget
   * they were built within: the prompt can be rebuilt from the dataset item and checked against it.
   */
  prompt_sha256: z.string().nullable().default(null),
  prompt_budget: z.number().int().nullable().default(null),
  /** Set when the model call failed for this item; `output` is then empty. */
  error: z.string().nullable().default(null),
});
export type Prediction = z.infer<typeof Prediction>;

export const ItemScore = z.object({
  v: version(1),
  id: z.string(),
  task: TaskName,
  model: z.string(),
  /** Metric name → value. */
  scores: z.record(z.string(), z.number()),
  /** What was extracted from the output and scored (path, edited text…), for auditing. */
  answer: z.string().nullable().default(null),
  missing: z.boolean().default(false),
  /** Nothing the task scores could be read from the output: every metric is its floor. */
  unparsed: z.boolean().default(false),
  note: z.string().nullable().default(null),
});
export type ItemScore = z.infer<typeof ItemScore>;
