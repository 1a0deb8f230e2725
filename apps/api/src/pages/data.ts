/**
 * Read-only queries behind the pages: a run, its results joined with the dataset items and the submitted
 * predictions. Unknown names raise 404 ApiErrors, which the page routes render as HTML error pages.
 */
import type { ExecutionInstance, TaskItem } from '@faun/schema';
import { and, eq, inArray } from 'drizzle-orm';
import type { Services } from '../context.ts';
import { results, runs, submissions } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import { type ItemRow, itemRow } from './items.ts';

export type RunRow = typeof runs.$inferSelect;
export type ResultRow = typeof results.$inferSelect;
export type DatasetItem = TaskItem | ExecutionInstance;

export const itemIdOf = (it: DatasetItem): string => ('instance_id' in it ? it.instance_id : it.id);

/** Characters of the issue text an item shows the model. */
export const issueLength = (it: DatasetItem): number =>
  'instance_id' in it ? it.problem_statement.length : it.issue_title.length + it.issue_body.length;

export async function loadRun(s: Services, id: string): Promise<RunRow> {
  const [run] = await s.db.db.select().from(runs).where(eq(runs.id, id));
  if (!run) throw new ApiError(404, 'run_not_found', `no run with id '${id}'`);
  return run;
}

/** The dataset's items by id; empty when the dataset is no longer registered. */
export async function datasetItems(s: Services, name: string): Promise<Map<string, DatasetItem>> {
  if (!s.datasets.get(name)) return new Map();
  const ds = await s.datasets.items(name);
  return new Map((ds.items as DatasetItem[]).map((it) => [itemIdOf(it), it]));
}

/** The run's results, with the item attributes the filters use. */
export async function runRows(
  s: Services,
  run: RunRow,
): Promise<{ rows: ItemRow[]; items: Map<string, DatasetItem> }> {
  const [list, items] = await Promise.all([
    s.db.db.select().from(results).where(eq(results.runId, run.id)),
    datasetItems(s, run.dataset),
  ]);
  const rows = list.map((r) => {
    const it = items.get(r.itemId);
    return itemRow(r, it ? { repo: it.repo, language: it.language, length: issueLength(it) } : undefined);
  });
  return { rows, items };
}

/** One result row of a run (404 when the run has no such item). */
export async function loadResult(s: Services, run: RunRow, itemId: string): Promise<ResultRow> {
  const [r] = await s.db.db
    .select()
    .from(results)
    .where(and(eq(results.runId, run.id), eq(results.itemId, itemId)));
  if (!r) throw new ApiError(404, 'item_not_found', `run '${run.id}' has no item '${itemId}'`);
  return r;
}

/** The submitted prediction record of one item, or null. */
export async function loadPrediction(
  s: Services,
  runId: string,
  itemId: string,
): Promise<Record<string, unknown> | null> {
  const [sub] = await s.db.db.select().from(submissions).where(eq(submissions.runId, runId));
  const preds = (sub?.predictions ?? []) as Record<string, unknown>[];
  return preds.find((p) => String(p.instance_id ?? p.id) === itemId) ?? null;
}

/** Several runs (404 naming the first unknown id). */
export async function loadRuns(s: Services, ids: string[]): Promise<RunRow[]> {
  const list = ids.length ? await s.db.db.select().from(runs).where(inArray(runs.id, ids)) : [];
  const byId = new Map(list.map((r) => [r.id, r]));
  return ids.map((id) => {
    const r = byId.get(id);
    if (!r) throw new ApiError(404, 'run_not_found', `no run with id '${id}'`);
    return r;
  });
}
