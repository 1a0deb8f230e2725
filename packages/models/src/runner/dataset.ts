/** Loading a task dataset and an existing predictions file (for resume). */
import { existsSync } from 'node:fs';
import { InputError, requireReadableFile } from '@faun/kit';
import {
  CeItem,
  FlItem,
  formatIssue,
  type JsonlIssue,
  Prediction,
  QaItem,
  readJsonl,
  readJsonlAll,
  type TaskItem,
  type TaskName,
} from '@faun/schema';

const SCHEMAS = { qa: QaItem, fl: FlItem, ce: CeItem } as const;

/** Reads every item of `task` from a JSONL dataset; names file:line:field on a bad row. */
export async function loadDataset(path: string, task: TaskName): Promise<TaskItem[]> {
  await requireReadableFile(path, 'dataset');
  const items: TaskItem[] = [];
  const seen = new Map<string, number>();
  try {
    for await (const { line, value } of readJsonl<TaskItem>(path, { schema: SCHEMAS[task] as never })) {
      const prev = seen.get(value.id);
      if (prev !== undefined)
        throw new InputError(`${path}:${line}: id: duplicate id '${value.id}' (first on line ${prev})`, {
          hint: 'ids must be unique; rebuild the dataset',
        });
      seen.set(value.id, line);
      items.push(value);
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError(`${(e as Error).message}`, {
      hint: `is ${path} a '${task}' dataset? (--task)`,
      cause: e,
    });
  }
  return items;
}

/** Existing predictions in `path` (torn or invalid lines are reported and dropped). */
export async function loadPredictions(path: string): Promise<{ values: Prediction[]; issues: JsonlIssue[] }> {
  if (!existsSync(path)) return { values: [], issues: [] };
  return readJsonlAll(path, { schema: Prediction, errors: 'collect' });
}

export { formatIssue };
