/**
 * `scoreTask`: per-item scores and the task aggregate (mean with a seeded bootstrap 95% interval) for
 * QA, FL and CE predictions against their dataset. `faun score`, the API and the job worker all call
 * this, so they report the same numbers.
 * @module
 */
import { CeItem, FlItem, type ItemScore, Prediction, QaItem, type TaskName } from '@faun/schema';
import { bootstrapCiMany, type ConfidenceInterval } from '../bootstrap.ts';
import { CODE_LANGS, type CodeLang, initCodeBleu } from '../codebleu/index.ts';
import { type ItemResult, scoreCe, scoreFl, scoreQa } from './items.ts';

export interface ScoreTaskOptions {
  /** Bootstrap seed (default 0). */
  seed?: number;
  /** Bootstrap resamples (default 1000; 0 = no interval, low/high = mean). */
  bootstrap?: number;
  /**
   * Scores the items elsewhere (a worker pool: `createScorer` of `@faun/metrics/pool`); the results are the
   * same as in-process scoring. Default: in this process.
   */
  scorer?: ItemScorer;
  /**
   * The items and predictions are already records parsed with the schemas of @faun/schema (the API
   * validates its request body with them): they are used as they are, not validated a second time.
   */
  validated?: boolean;
}

/** Where items are scored: one item with one output, keyed for cache affinity by `affinity`. */
export interface ItemScorer {
  item(job: { item: QaItem | FlItem | CeItem; output: string }, affinity: string): Promise<ItemResult>;
}

export interface AggregateScore extends ConfidenceInterval {
  metric: string;
}

export interface TaskScore {
  task: TaskName;
  /** Models found in the predictions (sorted). */
  models: string[];
  n_items: number;
  items: ItemScore[];
  /** Metric → mean and 95% interval over all items (missing predictions count as empty answers). */
  aggregate: Record<string, AggregateScore>;
  /** Dataset items without a prediction (scored as empty). */
  missing: { count: number; ids: string[] };
  /** Items whose output could not be parsed (missing ones included): scored as every metric's floor. */
  unparsed: { count: number; ids: string[] };
  /** Predictions whose id is not in the dataset (ignored). */
  unknown: { count: number; ids: string[] };
  seed: number;
}

type SafeParse<T> =
  | { success: true; data: T }
  | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
interface Schema<T> {
  safeParse(v: unknown): SafeParse<T>;
}

const SCHEMAS: Record<TaskName, Schema<QaItem | FlItem | CeItem>> = { qa: QaItem, fl: FlItem, ce: CeItem };

function parseAll<T>(schema: Schema<T>, rows: readonly unknown[], what: string): T[] {
  return rows.map((r, i) => {
    const p = schema.safeParse(r);
    if (p.success) return p.data;
    const issue = p.error.issues[0];
    const field = issue?.path.map(String).join('.') || '(record)';
    const id = (r as { id?: unknown })?.id;
    throw new Error(
      `${what} #${i + 1}${id ? ` (id ${String(id)})` : ''}: ${field}: ${issue?.message ?? 'invalid'}`,
    );
  });
}

function scoreItem(item: QaItem | FlItem | CeItem, output: string): ItemResult {
  return item.task === 'qa'
    ? scoreQa(item, output)
    : item.task === 'fl'
      ? scoreFl(item, output)
      : scoreCe(item, output);
}

/**
 * Scores `predictions` against `items` of one task. Items and predictions are validated with the
 * schema records (a bad record throws naming its position, id and field). Predictions are matched by
 * `id`; items without one are scored as an empty answer and listed in `missing`.
 */
export async function scoreTask(
  task: TaskName,
  items: readonly unknown[],
  predictions: readonly unknown[],
  opts: ScoreTaskOptions = {},
): Promise<TaskScore> {
  if (!(task in SCHEMAS)) throw new Error(`unknown task '${String(task)}' (expected qa, fl or ce)`);
  const parsedItems = opts.validated
    ? (items as (QaItem | FlItem | CeItem)[])
    : parseAll(SCHEMAS[task], items, 'dataset item');
  const preds = opts.validated
    ? (predictions as Prediction[])
    : parseAll<Prediction>(Prediction, predictions, 'prediction');
  const byId = new Map<string, Prediction>();
  for (const p of preds) byId.set(p.id, p);
  const itemIds = new Set(parsedItems.map((i) => i.id));
  const unknown = [...byId.keys()].filter((id) => !itemIds.has(id)).sort();
  const models = [...new Set(preds.map((p) => p.model))].sort();
  const fallbackModel = models.length === 1 ? models[0]! : models.length ? 'mixed' : 'none';
  if (task === 'ce') {
    const langs = new Set(
      (parsedItems as CeItem[])
        .map((i) => i.language)
        .filter((l): l is CodeLang => CODE_LANGS.includes(l as CodeLang)),
    );
    if (langs.size) await initCodeBleu([...langs].sort());
  }
  const missing: string[] = [];
  const outputs = parsedItems.map((item) => byId.get(item.id)?.output ?? '');
  const results: ItemResult[] = opts.scorer
    ? await Promise.all(
        parsedItems.map((item, k) => opts.scorer!.item({ item, output: outputs[k]! }, item.id)),
      )
    : parsedItems.map((item, k) => scoreItem(item, outputs[k]!));
  const scored: ItemScore[] = parsedItems.map((item, k) => {
    const pred = byId.get(item.id);
    if (!pred) missing.push(item.id);
    const base = { v: 1 as const, id: item.id, task, model: pred?.model ?? fallbackModel, missing: !pred };
    const r = results[k]!;
    const note = [
      !pred ? 'no prediction: scored as empty' : null,
      pred?.error ? `model error: ${pred.error}` : null,
      r.note,
    ]
      .filter(Boolean)
      .join('; ');
    return { ...base, scores: r.scores, answer: r.answer, unparsed: r.unparsed, note: note || null };
  });
  const unparsed = scored.filter((x) => x.unparsed).map((x) => x.id);
  const seed = opts.seed ?? 0;
  const iterations = opts.bootstrap ?? 1000;
  const names = [...new Set(scored.flatMap((s) => Object.keys(s.scores)))];
  const columns = names.map((metric) =>
    scored.map((s) => s.scores[metric]).filter((v): v is number => v !== undefined),
  );
  const cis = bootstrapCiMany(columns, { seed, iterations: Math.max(iterations, 1) });
  const aggregate: Record<string, AggregateScore> = {};
  names.forEach((metric, k) => {
    const ci = cis[k]!;
    aggregate[metric] = iterations > 0 ? { metric, ...ci } : { metric, ...ci, low: ci.mean, high: ci.mean };
  });
  return {
    task,
    models,
    n_items: scored.length,
    items: scored,
    aggregate,
    missing: { count: missing.length, ids: missing },
    unparsed: { count: unparsed.length, ids: unparsed },
    unknown: { count: unknown.length, ids: unknown },
    seed,
  };
}
