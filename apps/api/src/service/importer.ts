/**
 * Imports folders of prediction files at start-up (`faun serve --import DIR`): each `*.jsonl` of QA / FL /
 * CE predictions becomes a finished text-metric run on the registered dataset its ids belong to, scored
 * through the same jobs and `scoreTask` as a submitted run. The run id is derived from the dataset and
 * the file's bytes, so restarting with the same files finds the same runs instead of adding duplicates.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ResultMessage, ScoreJobData, scoreChunk } from '@faun/jobs';
import { sha256, UsageError } from '@faun/kit';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/open.ts';
import { runs, submissions } from '../db/schema.ts';
import { MODEL_NAME, MODEL_NAME_RULE } from '../routes/schemas.ts';
import type { DatasetInfo, DatasetRegistry } from './datasets.ts';
import { importVerifyRun, verifyRunDirs } from './import-exec.ts';
import type { ImportDeps, ImportResult } from './import-types.ts';
import { parsePredictions, planJobs } from './plan.ts';
import { claimModel } from './runs.ts';

export type { ImportDeps, ImportResult } from './import-types.ts';

/**
 * What `paths` names: prediction files (files as given, folders' `*.jsonl`, sorted, not recursive) and
 * `faun verify` run directories (a run folder, or a folder of them).
 */
export function importSources(paths: string[]): { files: string[]; verifyRuns: string[] } {
  const files: string[] = [];
  const verifyRuns: string[] = [];
  for (const p of paths) {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(p);
    } catch {
      throw new UsageError(`--import ${p}: no such file or folder`, {
        hint: 'name prediction files or folders of them (faun predict --out), or faun verify run folders',
      });
    }
    if (st.isDirectory()) {
      verifyRuns.push(...verifyRunDirs(p));
      for (const n of readdirSync(p).sort()) if (n.endsWith('.jsonl')) files.push(join(p, n));
    }
    if (st.isFile()) files.push(p);
  }
  return { files, verifyRuns };
}

function parseLines(file: string, text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .map((l, i) => [l, i + 1] as const)
    .filter(([l]) => l.trim())
    .map(([l, n]) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        throw new Error(`${file}:${n}: not JSON`);
      }
    });
}

/** The registered dataset of `task` holding every id of the predictions (first by name). */
async function datasetFor(
  reg: DatasetRegistry,
  task: string,
  ids: string[],
): Promise<{ info: DatasetInfo; itemIds: Set<string> } | null> {
  for (const info of reg.list()) {
    if (info.task !== task) continue;
    const ds = await reg.items(info.name);
    const itemIds = new Set(ds.items.map((it) => ('instance_id' in it ? it.instance_id : it.id)));
    if (ids.every((id) => itemIds.has(id))) return { info, itemIds };
  }
  return null;
}

/** Imports one predictions file; never throws for a file that does not fit (it is reported as skipped). */
export async function importFile(d: ImportDeps, file: string): Promise<ImportResult> {
  const name = basename(file);
  const text = readFileSync(file, 'utf8');
  let records: Record<string, unknown>[];
  try {
    records = parseLines(file, text);
  } catch (e) {
    return { file: name, status: 'skipped', reason: (e as Error).message };
  }
  const task = records[0]?.task;
  if (task !== 'qa' && task !== 'fl' && task !== 'ce')
    return {
      file: name,
      status: 'skipped',
      reason:
        'not QA/FL/CE predictions (execution runs: import the faun verify run folder, or POST /v1/runs)',
    };
  const found = await datasetFor(
    d.datasets,
    task,
    records.map((r) => String(r.id)),
  );
  if (!found)
    return { file: name, status: 'skipped', reason: `no registered ${task} dataset holds all its ids` };
  const { info, itemIds } = found;
  const id = `import-${sha256(`${info.sha256}\u0000${text}`).slice(0, 20)}`;
  const [prev] = await d.db.select({ id: runs.id }).from(runs).where(eq(runs.id, id));
  if (prev) return { file: name, status: 'unchanged', run_id: id, dataset: info.name };
  let preds: ReturnType<typeof parsePredictions>;
  try {
    preds = parsePredictions(task, records, itemIds);
  } catch (e) {
    return {
      file: name,
      status: 'skipped',
      reason: (e as Error).message.replace('body.predictions', 'line'),
    };
  }
  if (!MODEL_NAME.test(preds.model))
    return {
      file: name,
      status: 'skipped',
      reason: `model name '${preds.model.slice(0, 140)}': ${MODEL_NAME_RULE}`,
    };
  const ds = await d.datasets.items(info.name);
  await d.db.transaction(async (tx) => {
    await claimModel(tx as unknown as Db, preds.model, null);
    await tx.insert(runs).values({
      id,
      keyId: null,
      dataset: info.name,
      task,
      kind: 'text',
      model: preds.model,
      status: 'running',
      total: itemIds.size,
      idempotencyKey: null,
    });
    await tx
      .insert(submissions)
      .values({ runId: id, sha256: sha256(text), bytes: text.length, predictions: preds.records });
  });
  const plan = planJobs({ runId: id, ds, byId: preds.byId, model: preds.model, chunkSize: 500 });
  if (plan.skipped.length) await d.runs.ingest(ResultMessage.parse({ runId: id, results: plan.skipped }));
  const scoreTask = await d.loadScoreTask();
  for (const job of plan.jobs) {
    const data = ScoreJobData.parse(job.data);
    await d.runs.ingest(ResultMessage.parse({ runId: id, results: await scoreChunk(data, scoreTask) }));
  }
  return { file: name, status: 'imported', run_id: id, dataset: info.name, model: preds.model };
}

/** Imports every predictions file and verify run directory of `paths`, in order. */
export async function importPredictions(d: ImportDeps, paths: string[]): Promise<ImportResult[]> {
  const out: ImportResult[] = [];
  const { files, verifyRuns } = importSources(paths);
  for (const f of files) out.push(await importFile(d, f));
  for (const r of verifyRuns) out.push(await importVerifyRun(d, r));
  return out;
}
