/**
 * Builds the FAUN-Eval paper tables from per-item scores (pure): Table 4, significance, the RQ2 ablation
 * table, the RQ3 length analysis, per-language and per-repository breakdowns and execution results.
 * Every cell carries a seeded bootstrap 95% interval.
 */
import { mean } from '@faun/metrics';
import type { TaskName } from '@faun/schema';
import {
  type Cell,
  type Column,
  type ExecRow,
  type ItemInfo,
  type Row,
  type ScoredRun,
  TASK_LABEL,
  TASK_METRICS,
  type Table,
} from './model.ts';
import {
  BUCKETS,
  bootstrap,
  bootstrapMean,
  bucketOf,
  deriveSeed,
  pairedBootstrapP,
  terciles,
} from './stats.ts';

export interface PaperInput {
  items: ItemInfo[];
  runs: ScoredRun[];
  exec?: ExecRow[];
  seed: number;
  resamples?: number;
  /** Length thresholds per task; default: terciles of the task's items. */
  lengthThresholds?: Partial<Record<TaskName, [number, number]>>;
}

const TASKS: TaskName[] = ['qa', 'fl', 'ce'];
const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function values(run: ScoredRun, ids: readonly string[], metric: string): number[] {
  return ids.map((id) => run.scores.get(id)?.[metric] ?? 0);
}

function cellOf(vals: number[], seed: number, resamples?: number): Cell {
  return bootstrapMean(vals, seed, resamples);
}

function itemIds(input: PaperInput, task: TaskName): string[] {
  return input.items
    .filter((i) => i.task === task)
    .map((i) => i.id)
    .sort(byKey);
}

function baseRuns(input: PaperInput, task: TaskName): ScoredRun[] {
  return input.runs
    .filter((r) => r.task === task && r.ablate.length === 0)
    .sort((a, b) => byKey(a.model, b.model));
}

/** Table 4: one row per model, the paper's columns per task, best per column marked. */
export function table4(input: PaperInput): Table {
  const models = [...new Set(input.runs.filter((r) => r.ablate.length === 0).map((r) => r.model))].sort(
    byKey,
  );
  const columns: Column[] = [];
  const cols: { task: TaskName; metric: string }[] = [];
  for (const task of TASKS) {
    if (itemIds(input, task).length === 0 || baseRuns(input, task).length === 0) continue;
    for (const m of TASK_METRICS[task]) {
      columns.push({ key: `${task}.${m.key}`, label: `${TASK_LABEL[task]} ${m.label}`, kind: 'score' });
      cols.push({ task, metric: m.key });
    }
  }
  const rows: Row[] = models.map((model) => ({
    keys: [model],
    cells: cols.map(({ task, metric }) => {
      const run = baseRuns(input, task).find((r) => r.model === model);
      if (!run) return null;
      const ids = itemIds(input, task);
      return cellOf(
        values(run, ids, metric),
        deriveSeed(input.seed, `t4|${model}|${task}|${metric}`),
        input.resamples,
      );
    }),
  }));
  cols.forEach(({ task, metric }, c) => {
    const present = rows.filter((r) => r.cells[c]);
    if (present.length === 0) return;
    const bestValue = Math.max(...present.map((r) => r.cells[c]?.value ?? Number.NEGATIVE_INFINITY));
    const best = present.find((r) => r.cells[c]?.value === bestValue);
    const bestRun = baseRuns(input, task).find((r) => r.model === best?.keys[0]);
    const ids = itemIds(input, task);
    for (const r of present) {
      const cell = r.cells[c];
      if (!cell) continue;
      if (cell.value === bestValue) cell.best = true;
      else if (bestRun) {
        const run = baseRuns(input, task).find((x) => x.model === r.keys[0]);
        if (!run) continue;
        const seed = deriveSeed(input.seed, `sig|${task}|${metric}|${r.keys[0]}`);
        cell.significant =
          pairedBootstrapP(values(bestRun, ids, metric), values(run, ids, metric), seed, input.resamples).p <
          0.05;
      }
    }
  });
  return {
    name: 'table4',
    title: 'Table 4: model performance per task (mean ×100, bootstrap 95% interval)',
    rowHeader: ['model'],
    columns,
    rows,
    notes: [
      'Best per column in bold; † marks a model whose difference from the best is significant (paired bootstrap, p < 0.05).',
      'CE CodeBLEU is of the predicted SEARCH/REPLACE text against the gold one, computed as codebleu 0.7.1 does: a dataflow score of 0 counts as 1, so even an empty edit scores 25.',
    ],
  };
}

/** Every pair of models per task metric: mean difference and paired-bootstrap p-value. */
export function significance(input: PaperInput): Table {
  const rows: Row[] = [];
  for (const task of TASKS) {
    const runs = baseRuns(input, task);
    const ids = itemIds(input, task);
    for (const m of TASK_METRICS[task])
      for (let i = 0; i < runs.length; i++)
        for (let j = i + 1; j < runs.length; j++) {
          const a = runs[i];
          const b = runs[j];
          if (!a || !b) continue;
          const va = values(a, ids, m.key);
          const vb = values(b, ids, m.key);
          const seed = deriveSeed(input.seed, `pair|${task}|${m.key}|${a.model}|${b.model}`);
          const { diff, p } = pairedBootstrapP(va, vb, seed, input.resamples);
          const d = bootstrap(
            ids.length,
            (idx) =>
              mean(
                idx.map((k) => (va[k] ?? 0) - (vb[k] ?? 0)),
                Number.NaN,
              ),
            {
              seed,
              resamples: input.resamples,
            },
          );
          rows.push({
            keys: [TASK_LABEL[task], m.label, a.model, b.model],
            cells: [
              { ...d, value: diff },
              { value: p, lo: p, hi: p, n: ids.length, significant: p < 0.05 },
            ],
          });
        }
  }
  return {
    name: 'significance',
    title: 'Paired bootstrap tests between models (difference A − B ×100, two-sided p)',
    rowHeader: ['task', 'metric', 'model A', 'model B'],
    columns: [
      { key: 'diff', label: 'A − B', kind: 'score' },
      { key: 'p', label: 'p', kind: 'number' },
    ],
    rows,
    notes: rows.length
      ? ['p < 0.05 counts as significant.']
      : ['None: every task has fewer than two models.'],
  };
}

/** RQ2: change in % of each metric when an input part is removed, per model. */
export function ablation(input: PaperInput): Table {
  const rows: Row[] = [];
  const columns: Column[] = [];
  const cols: { task: TaskName; metric: string }[] = [];
  for (const task of TASKS)
    for (const m of TASK_METRICS[task]) {
      columns.push({ key: `${task}.${m.key}`, label: `${TASK_LABEL[task]} ${m.label}`, kind: 'delta' });
      cols.push({ task, metric: m.key });
    }
  const ablated = input.runs.filter((r) => r.ablate.length > 0);
  const keys = [...new Set(ablated.map((r) => `${r.model}\u0000${r.ablate.join('+')}`))].sort(byKey);
  for (const key of keys) {
    const [model = '', removed = ''] = key.split('\u0000');
    rows.push({
      keys: [model, removed],
      cells: cols.map(({ task, metric }) => {
        const base = baseRuns(input, task).find((r) => r.model === model);
        const abl = ablated.find(
          (r) => r.task === task && r.model === model && r.ablate.join('+') === removed,
        );
        if (!base || !abl) return null;
        const ids = itemIds(input, task);
        const vb = values(base, ids, metric);
        const va = values(abl, ids, metric);
        const rel = (idx: readonly number[]) => {
          const b = mean(
            idx.map((i) => vb[i] ?? 0),
            Number.NaN,
          );
          return b === 0
            ? Number.NaN
            : ((mean(
                idx.map((i) => va[i] ?? 0),
                Number.NaN,
              ) -
                b) /
                b) *
                100;
        };
        return bootstrap(ids.length, rel, {
          seed: deriveSeed(input.seed, `abl|${model}|${removed}|${task}|${metric}`),
          resamples: input.resamples,
        });
      }),
    });
  }
  return {
    name: 'ablation',
    title: 'RQ2: change (%) of each metric when an input part is removed',
    rowHeader: ['model', 'removed'],
    columns: columns.filter((_, c) => rows.some((r) => r.cells[c])),
    rows: rows.map((r) => ({ ...r, cells: r.cells.filter((_, c) => rows.some((x) => x.cells[c])) })),
    notes: rows.length
      ? ['(ablated − full) / full × 100 over the same items; empty when the full-input score is 0.']
      : ['None: no prediction file has removed input parts (faun predict --ablate …).'],
  };
}

/** Per-task length thresholds (configured, or terciles of the task's item lengths). */
export function lengthThresholds(input: PaperInput): Record<TaskName, [number, number]> {
  const out = {} as Record<TaskName, [number, number]>;
  for (const task of TASKS)
    out[task] =
      input.lengthThresholds?.[task] ??
      terciles(input.items.filter((i) => i.task === task).map((i) => i.length));
  return out;
}

/** Breakdown tables, one per task: rows (model, group) for a grouping of items; columns = the task's metrics. */
function breakdown(
  input: PaperInput,
  name: string,
  title: string,
  groupLabel: string,
  groupOf: (item: ItemInfo) => string,
  order?: string[],
): Table[] {
  const out: Table[] = [];
  for (const task of TASKS) {
    const items = input.items.filter((i) => i.task === task);
    const runs = baseRuns(input, task);
    if (items.length === 0 || runs.length === 0) continue;
    const groups = order ?? [...new Set(items.map(groupOf))].sort(byKey);
    const rows: Row[] = [];
    for (const run of runs)
      for (const g of groups) {
        const ids = items
          .filter((i) => groupOf(i) === g)
          .map((i) => i.id)
          .sort(byKey);
        if (ids.length === 0) continue;
        rows.push({
          keys: [run.model, g],
          cells: TASK_METRICS[task].map((m) =>
            cellOf(
              values(run, ids, m.key),
              deriveSeed(input.seed, `${name}|${task}|${run.model}|${g}|${m.key}`),
              input.resamples,
            ),
          ),
        });
      }
    out.push({
      name: `${name}-${task}`,
      title: `${title} — ${TASK_LABEL[task]}`,
      rowHeader: ['model', groupLabel],
      columns: TASK_METRICS[task].map((m) => ({
        key: `${task}.${m.key}`,
        label: m.label,
        kind: 'score' as const,
      })),
      rows,
      notes: [],
    });
  }
  return out;
}

export function lengthTables(input: PaperInput): Table[] {
  const th = lengthThresholds(input);
  const tables = breakdown(
    input,
    'length',
    'RQ3: scores by input length (short / medium / long)',
    'length',
    (i) => bucketOf(i.length, th[i.task]),
    BUCKETS,
  );
  for (const t of tables) {
    const task = t.name.slice('length-'.length) as TaskName;
    t.notes.push(
      `Input length in estimated tokens: short ≤ ${th[task][0].toFixed(0)} < medium ≤ ${th[task][1].toFixed(0)} < long.`,
    );
  }
  return tables;
}

export const byLanguage = (input: PaperInput) =>
  breakdown(input, 'by-language', 'Scores per language', 'language', (i) => i.language);
export const byRepo = (input: PaperInput) =>
  breakdown(input, 'by-repo', 'Scores per repository', 'repository', (i) => i.repo);

/** Execution results: resolved rate per model, overall and per language. */
export function execution(input: PaperInput): Table | null {
  const rows = input.exec ?? [];
  if (rows.length === 0) return null;
  const out: Row[] = [];
  for (const model of [...new Set(rows.map((r) => r.model))].sort(byKey)) {
    const mine = rows.filter((r) => r.model === model).sort((a, b) => byKey(a.instance_id, b.instance_id));
    for (const lang of ['all', ...[...new Set(mine.map((r) => r.language))].sort(byKey)]) {
      const sel = lang === 'all' ? mine : mine.filter((r) => r.language === lang);
      const v = sel.map((r) => (r.resolved ? 1 : 0));
      out.push({
        keys: [model, lang],
        cells: [bootstrapMean(v, deriveSeed(input.seed, `exec|${model}|${lang}`), input.resamples)],
      });
    }
  }
  return {
    name: 'execution',
    title: 'Execution verification: resolved rate',
    rowHeader: ['model', 'language'],
    columns: [{ key: 'resolved', label: 'resolved', kind: 'rate' }],
    rows: out,
    notes: ['Share of instances whose FAIL_TO_PASS tests pass and PASS_TO_PASS tests still pass.'],
  };
}

/** All tables, in output order. */
export function buildTables(input: PaperInput): Table[] {
  const out = [
    table4(input),
    significance(input),
    ablation(input),
    ...lengthTables(input),
    ...byLanguage(input),
    ...byRepo(input),
  ];
  const ex = execution(input);
  if (ex) out.push(ex);
  return out;
}
