/**
 * Reads what the paper tables are built from: the task datasets (`qa.jsonl`, `fl.jsonl`, `ce.jsonl` in a
 * folder), a folder of prediction files (any `*.jsonl` of Prediction rows; grouped by task, model and
 * ablation as the rows say), and optionally execution results (ExecutionResult rows).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HEALTH_FILE } from '@faun/harness';
import { sha256File } from '@faun/kit';
import { buildPrompt } from '@faun/models';
import {
  CeItem,
  ExecutionResult,
  FlItem,
  Prediction,
  QaItem,
  readJsonlAll,
  type TaskItem,
  type TaskName,
} from '@faun/schema';
import type { ExecRow, ItemInfo } from './model.ts';

const ITEM_SCHEMA = { qa: QaItem, fl: FlItem, ce: CeItem } as const;

/**
 * An item's input length: the estimated tokens of its full, untruncated prompt — the same measure
 * `faun predict` records as `input_tokens`, but independent of the model and of ablations.
 */
export function inputLength(item: TaskItem): number {
  return buildPrompt(item, Number.POSITIVE_INFINITY).inputTokens;
}

export interface LoadedDatasets {
  items: Partial<Record<TaskName, TaskItem[]>>;
  infos: ItemInfo[];
  hashes: Record<string, string>;
}

export async function loadDatasets(dir: string): Promise<LoadedDatasets> {
  const items: Partial<Record<TaskName, TaskItem[]>> = {};
  const infos: ItemInfo[] = [];
  const hashes: Record<string, string> = {};
  for (const task of ['qa', 'fl', 'ce'] as TaskName[]) {
    const file = join(dir, `${task}.jsonl`);
    if (!existsSync(file)) continue;
    const { values } = await readJsonlAll<TaskItem>(file, { schema: ITEM_SCHEMA[task] as never });
    items[task] = values;
    hashes[`${task}.jsonl`] = await sha256File(file);
    for (const it of values)
      infos.push({ id: it.id, task, repo: it.repo, language: it.language, length: inputLength(it) });
  }
  return { items, infos, hashes };
}

export interface PredictionGroup {
  task: TaskName;
  model: string;
  ablate: string[];
  predictions: Prediction[];
}

export async function loadPredictions(
  dir: string,
): Promise<{ groups: PredictionGroup[]; hashes: Record<string, string> }> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort();
  const groups = new Map<string, PredictionGroup>();
  const hashes: Record<string, string> = {};
  for (const f of files) {
    const path = join(dir, f);
    hashes[f] = await sha256File(path);
    const { values } = await readJsonlAll<Prediction>(path, { schema: Prediction as never });
    for (const p of values) {
      const ablate = [...p.ablate].sort();
      const key = `${p.task}|${p.model}|${ablate.join('+')}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { task: p.task, model: p.model, ablate, predictions: [] }));
      g.predictions.push(p);
    }
  }
  return { groups: [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, g]) => g), hashes };
}

/**
 * Execution verdicts under `dir`: ExecutionResult rows from `*.jsonl` files in it (not the gold health file), and the `result.json`
 * of every instance of `faun verify` run folders (`<run>/instances/<id>/result.json`, with the language
 * from the `meta.json` beside it). `languages` (instance id → language, from the datasets) wins.
 */
export async function loadExecution(dir: string, languages: Map<string, string>): Promise<ExecRow[]> {
  if (!existsSync(dir)) return [];
  const rows: { r: ExecutionResult; language?: string }[] = [];
  const visit = async (d: string, depth: number): Promise<void> => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory() && depth < 4) await visit(p, depth + 1);
      else if (e.isFile() && e.name.endsWith('.jsonl') && e.name !== HEALTH_FILE && depth === 0)
        for (const r of (await readJsonlAll<ExecutionResult>(p, { schema: ExecutionResult as never })).values)
          rows.push({ r });
      else if (e.isFile() && e.name === 'result.json') {
        const r = ExecutionResult.parse(JSON.parse(readFileSync(p, 'utf8')));
        const meta = join(d, 'meta.json');
        const language = existsSync(meta)
          ? (JSON.parse(readFileSync(meta, 'utf8')) as { language?: string }).language
          : undefined;
        rows.push({ r, language });
      }
    }
  };
  await visit(dir, 0);
  return rows.map(({ r, language }) => ({
    model: r.model,
    instance_id: r.instance_id,
    language: languages.get(r.instance_id) ?? language ?? 'unknown',
    resolved: r.outcome === 'resolved',
  }));
}
