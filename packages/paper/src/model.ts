/** The table model the paper builder produces and the renderers print. */
import { metricShortLabel } from '@faun/metrics';
import type { TaskName } from '@faun/schema';

export interface Cell {
  value: number;
  lo: number;
  hi: number;
  n: number;
  /** Best in its column (Table 4). */
  best?: boolean;
  /** Differs significantly from the column's best (paired bootstrap, p < 0.05). */
  significant?: boolean;
}

export interface Column {
  key: string;
  label: string;
  /** `score`: a [0,1] score shown ×100; `delta`: a relative change in %; `rate`: [0,1] shown as %. */
  kind: 'score' | 'delta' | 'rate' | 'number';
}

export interface Row {
  /** Row header values, one per `Table.rowHeader` entry. */
  keys: string[];
  cells: (Cell | null)[];
}

export interface Table {
  /** File stem: `table4`, `ablation`, … */
  name: string;
  title: string;
  rowHeader: string[];
  columns: Column[];
  rows: Row[];
  notes: string[];
}

/** The metrics of one task's columns in Table 4 (the FAUN-Eval paper's columns), in order. */
const TABLE4: Record<TaskName, string[]> = {
  qa: ['bleu', 'rougeL', 'rouge1', 'editsim'],
  fl: ['em'],
  ce: ['codebleu_patch'],
};

/** One task's metric columns in Table 4, labelled by the metric registry. */
export const TASK_METRICS: Record<TaskName, { key: string; label: string }[]> = Object.fromEntries(
  Object.entries(TABLE4).map(([task, keys]) => [
    task,
    keys.map((key) => ({ key, label: metricShortLabel(key) })),
  ]),
) as Record<TaskName, { key: string; label: string }[]>;

export const TASK_LABEL: Record<TaskName, string> = { qa: 'QA', fl: 'FL', ce: 'CE' };

/** Per-item scores of one prediction file: (task, model, ablation) → item id → metric → value. */
export interface ScoredRun {
  task: TaskName;
  model: string;
  /** Removed input parts (sorted); empty for the full-input run. */
  ablate: string[];
  scores: Map<string, Record<string, number>>;
}

/** What the breakdowns need to know of a dataset item. */
export interface ItemInfo {
  id: string;
  task: TaskName;
  repo: string;
  language: string;
  /** Input length in estimated tokens (for the RQ3 buckets). */
  length: number;
}

/** One execution-verification verdict. */
export interface ExecRow {
  model: string;
  instance_id: string;
  language: string;
  resolved: boolean;
}
