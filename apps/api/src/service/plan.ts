/**
 * Pure planning of a run: validating predictions against the dataset, and splitting the work into jobs
 * (one `verify` job per instance, `score` jobs of `chunkSize` items) plus `skipped` results for items
 * without a prediction.
 */
import type { ItemResultInput } from '@faun/jobs';
import { Prediction } from '@faun/schema';
import { z } from 'zod';
import { ApiError, invalid } from '../errors.ts';
import type { DatasetItems } from './datasets.ts';

/** SWE-bench style prediction for execution runs. */
export const ExecPrediction = z.object({
  instance_id: z.string().min(1),
  model_patch: z.string(),
  model_name_or_path: z.string().optional(),
});

export interface ParsedPredictions {
  byId: Map<string, Record<string, unknown>>;
  records: Record<string, unknown>[];
  model: string;
}

const fail = (path: string, message: string) =>
  new ApiError(400, 'invalid_request', `${path}: ${message}`, [{ path, message }]);

/** Validates predictions (schema, known and unique ids, task) and names the model. */
export function parsePredictions(task: string, raw: unknown[], ids: Set<string>): ParsedPredictions {
  const byId = new Map<string, Record<string, unknown>>();
  const records: Record<string, unknown>[] = [];
  const models = new Set<string>();
  const schema = task === 'exec' ? ExecPrediction : Prediction;
  raw.forEach((r, i) => {
    const p = schema.safeParse(r);
    if (!p.success) throw invalid(p.error, `body.predictions.${i}`);
    const v = p.data as Record<string, unknown>;
    const id = String(v.instance_id ?? v.id);
    const idField = task === 'exec' ? 'instance_id' : 'id';
    if (!ids.has(id)) throw fail(`body.predictions.${i}.${idField}`, `'${id}' is not in the dataset`);
    if (task !== 'exec' && v.task !== task) throw fail(`body.predictions.${i}.task`, `expected '${task}'`);
    if (byId.has(id)) throw fail(`body.predictions.${i}.${idField}`, `duplicate id '${id}'`);
    byId.set(id, v);
    records.push(v);
    models.add(String(v.model ?? v.model_name_or_path ?? 'unknown'));
  });
  return { byId, records, model: [...models].sort().join('+') || 'unknown' };
}

export interface JobPlan {
  skipped: ItemResultInput[];
  jobs: { name: string; id: string; group: string; data: unknown }[];
}

/**
 * The jobs of a run. Items in `done` (already have a result) are left out; `tag` distinguishes job ids of
 * a resumed run from the first submission.
 */
export function planJobs(o: {
  runId: string;
  ds: DatasetItems;
  byId: Map<string, Record<string, unknown>>;
  model: string;
  chunkSize: number;
  done?: Set<string>;
  tag?: string;
}): JobPlan {
  const { runId, ds, byId } = o;
  const done = o.done ?? new Set<string>();
  const prefix = o.tag ? `${runId}:${o.tag}` : runId;
  const skipped: ItemResultInput[] = [];
  const jobs: JobPlan['jobs'] = [];
  if (ds.task === 'exec') {
    for (const inst of ds.items) {
      if (done.has(inst.instance_id)) continue;
      const p = byId.get(inst.instance_id);
      if (!p) skipped.push({ runId, itemId: inst.instance_id, outcome: 'skipped' });
      else
        jobs.push({
          name: 'verify',
          id: `${prefix}:${inst.instance_id}`,
          group: runId,
          data: { runId, instance: inst, model: o.model, patch: String(p.model_patch) },
        });
    }
    return { skipped, jobs };
  }
  const todo = ds.items.filter((it) => !done.has(it.id));
  const have = todo.filter((it) => byId.has(it.id));
  for (const it of todo) if (!byId.has(it.id)) skipped.push({ runId, itemId: it.id, outcome: 'skipped' });
  for (let i = 0; i < have.length; i += o.chunkSize) {
    const items = have.slice(i, i + o.chunkSize);
    jobs.push({
      name: 'score',
      id: `${prefix}:${i / o.chunkSize}`,
      group: runId,
      data: { runId, task: ds.task, items, predictions: items.map((it) => byId.get(it.id)) },
    });
  }
  return { skipped, jobs };
}
