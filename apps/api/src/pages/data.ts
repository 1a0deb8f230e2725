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

/** The input text the free-text search looks in: issue (and PR) text, the QA conversation, the statement. */
export function inputText(it: DatasetItem): string {
  if ('instance_id' in it) return it.problem_statement;
  const parts = [it.issue_title, it.issue_body];
  if (it.task === 'qa') parts.push(...it.context.map((t) => t.content));
  if (it.task === 'ce') parts.push(it.pr_title, it.pr_body, it.path);
  return parts.join('\n');
}

/** The item attributes the run page filters and charts use. */
export function itemInfo(it: DatasetItem) {
  return {
    repo: it.repo,
    language: it.language,
    length: issueLength(it),
    created: 'instance_id' in it ? (it.created_at ?? null) : null,
    input: inputText(it),
  };
}

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

/** The submitted prediction records of a run, by item id. */
export async function loadPredictions(
  s: Services,
  runId: string,
): Promise<Map<string, Record<string, unknown>>> {
  const [sub] = await s.db.db.select().from(submissions).where(eq(submissions.runId, runId));
  const preds = (sub?.predictions ?? []) as Record<string, unknown>[];
  return new Map(preds.map((p) => [String(p.instance_id ?? p.id), p]));
}

/** The run's results, with the item attributes the filters use and each item's prediction. */
export async function runRows(
  s: Services,
  run: RunRow,
): Promise<{
  rows: ItemRow[];
  items: Map<string, DatasetItem>;
  preds: Map<string, Record<string, unknown>>;
}> {
  const [list, items, preds] = await Promise.all([
    s.db.db.select().from(results).where(eq(results.runId, run.id)),
    datasetItems(s, run.dataset),
    loadPredictions(s, run.id),
  ]);
  const rows = list.map((r) => {
    const it = items.get(r.itemId);
    return itemRow(r, it ? itemInfo(it) : undefined, preds.get(r.itemId) ?? null);
  });
  return { rows, items, preds };
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
