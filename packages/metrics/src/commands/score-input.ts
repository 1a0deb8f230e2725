/**
 * Reading and checking `faun score` inputs: predictions keep their line numbers so problems name
 * `file:line`; a file of another task is named as such; duplicate ids (per model) are an input error unless `--dedupe` picks one.
 * @module
 */
import { InputError } from '@faun/kit';
import {
  formatIssue,
  type JsonlIssue,
  Prediction,
  type ReadJsonlOptions,
  readJsonl,
  type TaskName,
} from '@faun/schema';

/** A record with its 1-based line number. */
export interface Lined<T> {
  line: number;
  value: T;
}

/** What to do with a second prediction for the same id and model. */
export type DedupeMode = 'error' | 'first' | 'last';

/** Throws an InputError listing the first few issues, or returns when there are none. */
export function failOnIssues(what: string, issues: JsonlIssue[], hint?: string): void {
  if (!issues.length) return;
  const shown = issues.slice(0, 5).map(formatIssue).join('\n  ');
  throw new InputError(
    `${issues.length} bad line(s) in the ${what}:\n  ${shown}${issues.length > 5 ? '\n  …' : ''}`,
    { hint: hint ?? `fix those lines; every ${what} line must be a valid record` },
  );
}

/** Reads the predictions file with line numbers; bad lines are an InputError. */
export async function readPredictions(path: string): Promise<Lined<Prediction>[]> {
  const issues: JsonlIssue[] = [];
  const rows: Lined<Prediction>[] = [];
  for await (const r of readJsonl(path, { schema: Prediction, errors: 'collect', issues })) rows.push(r);
  failOnIssues('predictions', issues);
  return rows;
}

/**
 * Drops repeated predictions for the same (model, id). `error` reports each repeat as
 * `file:line: id: duplicate of line N`; `first`/`last` keep that occurrence. Order is preserved.
 */
export function dedupePredictions(
  file: string,
  rows: readonly Lined<Prediction>[],
  mode: DedupeMode,
): { kept: Lined<Prediction>[]; issues: JsonlIssue[]; dropped: number } {
  const at = new Map<string, number>();
  const issues: JsonlIssue[] = [];
  const keep = rows.map(() => true);
  rows.forEach((r, i) => {
    const key = `${r.value.model}\u0000${r.value.id}`;
    const prev = at.get(key);
    if (prev === undefined) {
      at.set(key, i);
      return;
    }
    if (mode === 'error') {
      const problem = `duplicate of line ${rows[prev]!.line} (id ${JSON.stringify(r.value.id)}, model ${r.value.model})`;
      issues.push({ file, line: r.line, field: 'id', problem });
    } else if (mode === 'first') keep[i] = false;
    else {
      keep[prev] = false;
      at.set(key, i);
    }
  });
  const kept = rows.filter((_, i) => keep[i]);
  return { kept, issues, dropped: rows.length - kept.length };
}

const A_TASK: Record<TaskName, string> = { qa: 'a QA', fl: 'an FL', ce: 'a CE' };

/** The task a dataset row belongs to: its `task` field, else its gold field; null when unknown. */
export function detectTask(row: unknown): TaskName | 'predictions' | null {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return null;
  const r = row as Record<string, unknown>;
  if ('output' in r && 'model' in r) return 'predictions';
  if (r.task === 'qa' || r.task === 'fl' || r.task === 'ce') return r.task;
  if ('gold_path' in r) return 'fl';
  if ('gold_patch' in r) return 'ce';
  if ('answer' in r) return 'qa';
  return null;
}

/**
 * Reads a task dataset. When its lines do not validate and the first row belongs to another task (or
 * is a prediction), says so once (`this is an FL dataset; use --task fl`) instead of listing every
 * missing field of every line.
 */
export async function readDataset<T>(
  path: string,
  task: TaskName,
  schema: NonNullable<ReadJsonlOptions<T>['schema']>,
): Promise<T[]> {
  const issues: JsonlIssue[] = [];
  const values: T[] = [];
  for await (const r of readJsonl(path, { schema, errors: 'collect', issues })) values.push(r.value);
  if (issues.length) {
    let first: Lined<unknown> | undefined;
    for await (const r of readJsonl<unknown>(path, { errors: 'collect' })) {
      first = r;
      break;
    }
    const found = first ? detectTask(first.value) : null;
    if (found === 'predictions')
      throw new InputError(`${path}:${first!.line}: this is a predictions file, not a dataset`, {
        hint: 'pass it to --predictions and the task dataset to --dataset',
      });
    if (found && found !== task)
      throw new InputError(
        `${path}:${first!.line}: task: this is ${A_TASK[found]} dataset; use --task ${found}`,
        { hint: `--task ${task} needs ${A_TASK[task]} dataset` },
      );
  }
  failOnIssues('dataset', issues);
  return values;
}

/** Throws an InputError naming the first prediction whose task is not `task` (and how many differ). */
export function checkPredictionTask(file: string, rows: readonly Lined<Prediction>[], task: TaskName): void {
  const other = rows.filter((r) => r.value.task !== task);
  const first = other[0];
  if (!first) return;
  const theirs = first.value.task;
  throw new InputError(
    `${file}:${first.line}: task: this prediction is for task ${theirs}, but --task is ${task} ` +
      `(${other.length} of ${rows.length} predictions are not ${task})`,
    {
      hint: `pass the ${task} predictions, or score these with --task ${theirs} and ${A_TASK[theirs]} dataset`,
    },
  );
}

/** How the prediction ids relate to the dataset ids. */
export interface IdMatch {
  /** Predictions for items being scored (inside `--limit`). */
  used: Prediction[];
  /** Sorted ids of predictions whose id is not in the dataset. */
  unknown: string[];
  /** Predictions for dataset items outside `--limit` (not scored, not unknown). */
  outsideLimit: number;
}

/**
 * Splits predictions by whether their id is in the dataset. No predictions at all, or none matching a
 * dataset id, is an InputError showing an id of each side.
 */
export function matchIds(
  files: { predictions: string; dataset: string },
  preds: readonly Prediction[],
  datasetIds: readonly string[],
  scoredIds: ReadonlySet<string>,
): IdMatch {
  if (!preds.length)
    throw new InputError(`${files.predictions}: no predictions`, {
      hint: 'pass a predictions file with one {id, task, model, output} line per item',
    });
  const all = new Set(datasetIds);
  const unknown = [...new Set(preds.filter((p) => !all.has(p.id)).map((p) => p.id))].sort();
  if (unknown.length === new Set(preds.map((p) => p.id)).size)
    throw new InputError(
      `none of the ${unknown.length} prediction id(s) in ${files.predictions} is an id of the ` +
        `${datasetIds.length} item(s) in ${files.dataset} — prediction ids look like ` +
        `${JSON.stringify(preds[0]!.id)}, dataset ids like ${JSON.stringify(datasetIds[0] ?? '(none)')}`,
      { hint: 'score predictions made for this dataset (same build, same id scheme)' },
    );
  const used = preds.filter((p) => scoredIds.has(p.id));
  const outsideLimit = preds.filter((p) => all.has(p.id) && !scoredIds.has(p.id)).length;
  return { used, unknown, outsideLimit };
}

/** `N: a, b, c, …` — a count and the first `max` ids. */
export function idList(ids: readonly string[], max = 5): string {
  return `${ids.length}: ${ids.slice(0, max).join(', ')}${ids.length > max ? ', …' : ''}`;
}
