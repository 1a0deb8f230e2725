/**
 * `faun score`: scores a predictions file against a task dataset with {@link scoreTask}, writes the
 * per-item scores (ItemScore JSONL) atomically, records the run, and prints the aggregate table.
 */
import { join } from 'node:path';
import {
  type CommandContext,
  defineCommand,
  InputError,
  newRunId,
  RunRecord,
  requireOutputFile,
  taskDatasetOptions,
} from '@faun/kit';
import { CeItem, FlItem, type Prediction, QaItem, type TaskName, writeJsonlAtomic } from '@faun/schema';
import { createScorer } from '../pool/pool.ts';
import { metricInfo } from '../registry.ts';
import { scoreTask, type TaskScore } from '../score/task.ts';
import { requireReadableFile } from './input.ts';
import {
  checkPredictionTask,
  type DedupeMode,
  dedupePredictions,
  failOnIssues,
  idList,
  matchIds,
  readDataset,
  readPredictions,
} from './score-input.ts';
import { THREADS_OPTION, threadsOption } from './threads.ts';

const SCHEMAS = { qa: QaItem, fl: FlItem, ce: CeItem } as const;

/** A readable aggregate table: metric, mean, 95% interval, n, and which direction is better (↑/↓). */
export function formatScoreTable(s: TaskScore): string {
  const rows = Object.values(s.aggregate).map((a) => [
    a.metric,
    a.mean.toFixed(4),
    `[${a.low.toFixed(4)}, ${a.high.toFixed(4)}]`,
    String(a.n),
    metricInfo(a.metric)?.higherIsBetter === false ? '↓ lower' : '↑ higher',
  ]);
  const head = ['metric', 'mean', '95% CI (bootstrap)', 'n', 'better'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Reads and checks the dataset and predictions; every problem is an InputError naming file and line. */
async function loadInputs(ctx: CommandContext, task: TaskName) {
  const dataset = String(ctx.opts.dataset);
  const predictions = String(ctx.opts.predictions);
  await requireReadableFile(dataset, 'dataset');
  await requireReadableFile(predictions, 'predictions');
  const items = await readDataset(dataset, task, SCHEMAS[task] as typeof QaItem);
  const allowEmpty = Boolean(ctx.opts.allowEmpty);
  if (items.length === 0 && !allowEmpty)
    throw new InputError(`--dataset ${dataset}: no items (the file has no records)`, {
      hint: 'pass a built dataset (faun build), or --allow-empty to accept an empty one',
    });
  const dedupe = (ctx.opts.dedupe === undefined ? 'error' : String(ctx.opts.dedupe)) as DedupeMode;
  const predRows = await readPredictions(predictions);
  if (predRows.length === 0 && !allowEmpty)
    throw new InputError(`--predictions ${predictions}: no predictions (the file has no records)`, {
      hint: 'pass the output of faun predict, or --allow-empty to score an empty file (every item missing)',
    });
  checkPredictionTask(predictions, predRows, task);
  const deduped = dedupePredictions(predictions, predRows, dedupe);
  failOnIssues(
    'predictions',
    deduped.issues,
    'each (model, id) may appear once; keep one line, or pass --dedupe first|last',
  );
  const limit = ctx.opts.limit === undefined ? undefined : Number(ctx.opts.limit);
  const list = limit === undefined ? items : items.slice(0, limit);
  const kept = deduped.kept.map((r) => r.value);
  // --allow-empty: no predictions score every item as missing
  const ids =
    allowEmpty && kept.length === 0
      ? { used: [], unknown: [], outsideLimit: 0 }
      : matchIds(
          { predictions, dataset },
          kept,
          items.map((i) => i.id),
          new Set(list.map((i) => i.id)),
        );
  if (ids.unknown.length)
    process.stderr.write(
      `warning: predictions for ids not in ${dataset} (ignored): ${idList(ids.unknown)}\n`,
    );
  const models = [...new Set(kept.map((p) => p.model))].sort();
  const byModel = new Map<string, Prediction[]>(models.map((m) => [m, []]));
  for (const p of ids.used) byModel.get(p.model)!.push(p);
  return { dataset, predictions, list, ids, byModel, dedupe, dropped: deduped.dropped };
}

/**
 * One sample per (model, item): `skipped` without a prediction, `error` when the prediction carries a
 * model error, else `pass` (= scored; text metrics have no pass/fail, correctness is in the scores).
 */
async function recordSamples(
  rec: RunRecord,
  models: string[],
  results: TaskScore[],
  byModel: Map<string, Prediction[]>,
): Promise<void> {
  for (const [k, r] of results.entries()) {
    const model = models[k]!;
    const errors = new Map(byModel.get(model)!.map((p) => [p.id, p.error]));
    for (const it of r.items) {
      const error = errors.get(it.id) ?? null;
      await rec.sample({
        id: it.id,
        outcome: it.missing ? 'skipped' : error !== null ? 'error' : 'pass',
        duration_ms: 0,
        data: { model, scores: it.scores, note: it.note },
        error: error === null ? null : `model error: ${error}`,
      });
    }
  }
}

async function run(ctx: CommandContext): Promise<number> {
  const task = String(ctx.opts.task) as TaskName;
  const seed = Number(ctx.opts.seed ?? 0);
  const iterations = Number(ctx.opts.bootstrap ?? 1000);
  const input = await loadInputs(ctx, task);
  if (ctx.opts.out !== undefined)
    requireOutputFile(String(ctx.opts.out), 'out', [input.dataset, input.predictions]);
  const { list, ids, byModel } = input;
  const runId = newRunId(`score-${task}`);
  const rec = await RunRecord.start({
    dir: join(ctx.logDir, runId),
    runId,
    command: 'score',
    argv: ctx.argv,
    options: ctx.opts,
    inputs: [input.dataset, input.predictions],
    seed,
  });
  const progress = ctx.progress({ label: `score ${task}`, total: list.length * byModel.size });
  progress.status(task === 'ce' ? 'loading grammars and scoring' : 'scoring');
  // One score per model, each over the whole dataset (a model's missing items score as empty).
  const results: TaskScore[] = [];
  // QA and FL items are cheap to score; CE items (CodeBLEU of patches and whole files) go to the pool
  const scorer = task === 'ce' ? createScorer(threadsOption(ctx.opts.threads)) : null;
  try {
    for (const [model, preds] of byModel) {
      const r = await scoreTask(task, list, preds, {
        seed,
        bootstrap: iterations,
        scorer: scorer ?? undefined,
      });
      // A model whose predictions all fall outside the scored items still names its rows.
      results.push({ ...r, models: [model], items: r.items.map((it) => ({ ...it, model })) });
      progress.tick(list.length);
      if (!preds.length)
        process.stderr.write(
          `warning: model ${model} has no prediction for any of the ${list.length} scored items\n`,
        );
    }
  } finally {
    await scorer?.close();
  }
  progress.done();
  const out = ctx.opts.out === undefined ? join(rec.dir, 'scores.jsonl') : String(ctx.opts.out);
  await writeJsonlAtomic(
    out,
    results.flatMap((r) => r.items),
  );
  const models = [...byModel.keys()];
  await recordSamples(rec, models, results, byModel);
  const unknown = { count: ids.unknown.length, ids: ids.unknown };
  const perModel = Object.fromEntries(
    results.map((r, k) => [models[k]!, { aggregate: r.aggregate, missing: r.missing, unparsed: r.unparsed }]),
  );
  // One model: its aggregate and missing at the top level too (the shape of a scoreTask result).
  const single = results.length === 1 ? perModel[models[0]!] : {};
  await rec.finish('success', {
    outputs: { scores: out },
    metrics: { ...single, by_model: perModel, unknown },
  });
  ctx.emitJson({
    task,
    models,
    n_items: list.length,
    seed,
    ...single,
    by_model: perModel,
    unknown,
    run_id: runId,
    out,
  });
  // The final result is printed even with --quiet (which only drops progress and the other lines).
  const result = (line: string) => {
    if (!ctx.quiet) ctx.log(line);
    else if (!ctx.json) process.stdout.write(`${line}\n`);
  };
  results.forEach((r, k) => {
    if (k > 0) result('');
    result(`${task.toUpperCase()} — model ${models[k]}: ${r.n_items} items`);
    result(formatScoreTable(r));
    if (r.missing.count) ctx.log(`missing predictions (scored as empty): ${idList(r.missing.ids, 10)}`);
    const unparsedOnly = r.unparsed.count - r.missing.count;
    if (unparsedOnly > 0)
      ctx.log(
        `unparsed outputs (scored as every metric's floor): ${unparsedOnly} — ${idList(
          r.unparsed.ids.filter((id) => !r.missing.ids.includes(id)),
          10,
        )}`,
      );
  });
  if (ids.outsideLimit) ctx.log(`predictions for items outside --limit (not scored): ${ids.outsideLimit}`);
  if (input.dropped) ctx.log(`repeated predictions dropped (--dedupe ${input.dedupe}): ${input.dropped}`);
  ctx.log(`per-item scores → ${out} (run record ${rec.dir})`);
  return 0;
}

export const score = defineCommand({
  name: 'score',
  summary: 'score predictions against a task dataset',
  description:
    'QA: bleu (nltk sentence BLEU, method1), rougeL, rouge1, editsim. FL: em (strict), em_lenient, ' +
    'top1/top3/top5, mrr. CE: codebleu_patch (predicted vs gold SEARCH/REPLACE text), apply_rate (share ' +
    'of predictions whose edits all apply), codebleu_file (edited file vs file_after), file_em. Every ' +
    'aggregate has a seeded bootstrap 95% interval. A file with several models gets one aggregate per ' +
    'model, each over the whole dataset. Items without a prediction count as empty answers and are ' +
    'listed; predictions for ids not in the dataset are listed on stderr, and none matching is an input ' +
    'error, as are predictions or a dataset of another task. A repeated id (same model) is an input ' +
    'error unless --dedupe first|last. Per-item ItemScore rows go to --out (default: the run ' +
    'directory). Run record samples, one per model and item: "skipped" = no prediction, "error" = the ' +
    'prediction carries a model error, "pass" = scored (for these metrics "pass" means scored, not ' +
    'correct; correctness is in the scores). --quiet prints only the aggregate tables.',
  examples: [
    'faun score --task qa --dataset qa.jsonl --predictions preds/qa.jsonl',
    'faun score --task fl --dataset fl.jsonl --predictions preds/fl-bm25.jsonl --json',
    'faun score --task ce --dataset ce.jsonl --predictions preds/ce.jsonl --out ce-scores.jsonl --seed 1',
  ],
  options: [
    ...taskDatasetOptions,
    {
      name: 'predictions',
      short: 'p',
      type: 'string',
      arg: 'FILE',
      required: true,
      input: true,
      description: 'predictions (JSONL)',
    },
    { name: 'out', short: 'o', type: 'string', arg: 'FILE', description: 'per-item scores (JSONL)' },
    {
      name: 'dedupe',
      type: 'string',
      choices: ['first', 'last'],
      description: 'keep the first or last of repeated predictions for one id and model (default: error)',
    },
    { name: 'seed', type: 'number', arg: 'N', default: 0, description: 'bootstrap seed' },
    {
      name: 'allow-empty',
      type: 'boolean',
      default: false,
      description: 'accept an empty dataset or predictions file (otherwise an error)',
    },
    {
      name: 'bootstrap',
      type: 'number',
      arg: 'N',
      default: 1000,
      description: 'bootstrap resamples (0 = none)',
    },
    THREADS_OPTION,
  ],
  run,
});
