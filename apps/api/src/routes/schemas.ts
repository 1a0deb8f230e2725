/** Request and response schemas of the API, in one place (they also make up /openapi.json). */

import { ItemOutcome } from '@faun/jobs';
import { CeItem, FlItem, ItemScore, Prediction, QaItem } from '@faun/schema';
import { z } from '@hono/zod-openapi';

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'invalid_request' }),
      message: z.string(),
      details: z.unknown(),
    }),
  })
  .openapi('Error');

export const errorResponses = {
  400: {
    description: 'Malformed body or parameters (details list field paths)',
    content: { 'application/json': { schema: ErrorSchema } },
  },
  401: {
    description: 'Missing or invalid API key',
    content: { 'application/json': { schema: ErrorSchema } },
  },
  429: {
    description: 'Rate limit or quota exceeded',
    content: { 'application/json': { schema: ErrorSchema } },
  },
} as const;

const ITEM_SCHEMAS = { qa: QaItem, fl: FlItem, ce: CeItem } as const;

/** Body of POST /v1/score/{task}. */
export function scoreBody(task: 'qa' | 'fl' | 'ce', maxItems: number) {
  return z
    .object({
      items: z.array(ITEM_SCHEMAS[task]).min(1).max(maxItems),
      predictions: z.array(Prediction).max(maxItems),
      /** Bootstrap resamples for the confidence intervals (0 = none). */
      bootstrap: z.number().int().min(0).max(10_000).optional(),
      seed: z.number().int().optional(),
    })
    .openapi(`Score${task.toUpperCase()}Request`);
}

export const Aggregate = z
  .object({ metric: z.string(), mean: z.number(), low: z.number(), high: z.number(), n: z.number().int() })
  .openapi('Aggregate');

/** Exactly what `scoreTask` (and so `faun score`) returns. */
export const ScoreResponse = z
  .object({
    task: z.enum(['qa', 'fl', 'ce']),
    models: z.array(z.string()),
    n_items: z.number().int(),
    items: z.array(ItemScore),
    aggregate: z
      .record(z.string(), Aggregate)
      .openapi({ description: 'metric → mean with a bootstrap 95% interval' }),
    missing: z.object({ count: z.number().int(), ids: z.array(z.string()) }),
    unknown: z.object({ count: z.number().int(), ids: z.array(z.string()) }),
    seed: z.number().int(),
  })
  .openapi('ScoreResponse');

/** Model names: letters, digits and `. _ : @ / + -`, starting with a letter or digit, at most 128. */
export const MODEL_NAME = /^[A-Za-z0-9][A-Za-z0-9._:@/+-]{0,127}$/;
export const MODEL_NAME_RULE =
  'at most 128 letters, digits and . _ : @ / + - (starting with a letter or digit)';
export const ModelName = z.string().regex(MODEL_NAME, MODEL_NAME_RULE);
/** Dataset names: the JSONL file name without `.jsonl`. */
export const DatasetName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits and . _ - (a dataset file name)');

/** Body of POST /v1/runs, with at most `maxPredictions` records. */
export const submitRunBody = (maxPredictions: number) =>
  z
    .object({
      dataset: DatasetName.openapi({ example: 'fl-sample' }),
      model: ModelName.optional(),
      predictions: z.array(z.record(z.string(), z.unknown())).min(1).max(maxPredictions).openapi({
        description:
          'Prediction records (text datasets) or {instance_id, model_patch} (execution); at most one per dataset item',
      }),
    })
    .openapi('SubmitRun');

export const RunStatus = z.enum(['queued', 'running', 'done', 'error']);

export const Interval = z.object({ value: z.number(), lo: z.number().nullable(), hi: z.number().nullable() });

/** The headline metric of a finished run (the task's primary metric). */
export const RunScore = z.object({
  metric: z.string(),
  value: z.number(),
  lo: z.number().nullable(),
  hi: z.number().nullable(),
});

export const RunView = z
  .object({
    id: z.string(),
    dataset: z.string(),
    task: z.string(),
    kind: z.enum(['text', 'exec']),
    model: z.string(),
    status: RunStatus,
    total: z.number().int(),
    done: z.number().int(),
    progress: z.number(),
    created_at: z.string(),
    finished_at: z.string().nullable(),
    error: z.string().nullable(),
    /** The primary metric of a finished run; null until it is done. */
    score: RunScore.nullable(),
    links: z.object({ self: z.string(), report: z.string(), samples: z.string(), page: z.string() }),
  })
  .openapi('Run');

export const Paging = z.object({
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(999_999)
    .default(1)
    .openapi({ param: { name: 'page', in: 'query' } }),
  per_page: z.coerce
    .number()
    .int()
    .min(1)
    .max(500)
    .default(50)
    .openapi({ param: { name: 'per_page', in: 'query' } }),
});

export const Page = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      items: z.array(item),
      page: z.number().int(),
      per_page: z.number().int(),
      total: z.number().int(),
    })
    .openapi(name);

export const SampleView = z
  .object({
    item_id: z.string(),
    outcome: ItemOutcome,
    scores: z.record(z.string(), z.number()),
    answer: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
    log: z.string().nullable(),
    error: z.string().nullable(),
    duration_ms: z.number(),
  })
  .openapi('Sample');

/** One item of a run: its result and the prediction submitted for it (null when none was). */
export const SampleDetail = SampleView.extend({
  prediction: z.record(z.string(), z.unknown()).nullable(),
}).openapi('SampleDetail');

export const ReportView = z
  .object({
    run_id: z.string(),
    dataset: z.string(),
    task: z.string(),
    kind: z.string(),
    model: z.string(),
    total: z.number().int(),
    counts: z.record(z.string(), z.number()),
    metrics: z.record(z.string(), Interval),
    aggregates: z.unknown(),
  })
  .openapi('Report');

export const DatasetView = z
  .object({ name: z.string(), task: z.string(), items: z.number().int(), sha256: z.string() })
  .openapi('Dataset');

export const DatasetStatsView = z
  .object({
    name: z.string(),
    task: z.string(),
    items: z.number().int(),
    per_repo: z.array(z.object({ repo: z.string(), items: z.number().int() })),
    length: z.array(
      z.object({ bucket: z.string(), lo: z.number(), hi: z.number().nullable(), items: z.number() }),
    ),
    funnel: z.array(z.object({ step: z.string(), count: z.number() })).nullable(),
    funnel_source: z.enum(['card', 'store']).nullable(),
    store_counts: z.record(z.string(), z.number()).nullable(),
  })
  .openapi('DatasetStats');

export const LeaderboardEntry = z
  .object({
    run_id: z.string(),
    dataset: z.string(),
    task: z.string(),
    model: z.string(),
    /** The name of the key that owns the model name; null for the server's own (imported) runs. */
    owner: z.string().nullable(),
    n: z.number().int(),
    metrics: z.record(z.string(), Interval),
    created_at: z.string(),
    /** Finished runs of this model on this dataset and task; the entry is the latest of them. */
    runs: z.number().int(),
    /** Items whose output could not be parsed (scored as every metric's floor). */
    unparsed: z.number().int(),
  })
  .openapi('LeaderboardEntry');
