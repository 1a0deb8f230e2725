/** `faun` subcommands owned by this package: `predict`. */
import { join, resolve } from 'node:path';
import {
  type CommandContext,
  currentInvocation,
  defineCommand,
  FaunError,
  newRunId,
  onInterrupt,
  type Progress,
  parseRepoDirs,
  RunRecord,
  repoDirOption,
  requireOutputFile,
  shellQuote,
  taskDatasetOptions,
  UsageError,
} from '@faun/kit';
import type { TaskName } from '@faun/schema';
import { loadPriceTable } from './cost.ts';
import { describeError } from './errors.ts';
import { checkAblate } from './prompts/build.ts';
import { PROMPT_VERSIONS } from './prompts/templates.ts';
import { checkModelForTask, createProvider, parseModelSpec, providerNames } from './registry.ts';
import { loadDataset } from './runner/dataset.ts';
import { runPredictions } from './runner/predict.ts';
import { contextLimit } from './tokens.ts';
import type { ModelProvider } from './types.ts';
import { defaultCacheDir, withCache } from './wrap/cache.ts';
import { withLimiter } from './wrap/limiter.ts';
import { withRetry } from './wrap/retry.ts';

/** Default answer length per task, in tokens. */
const MAX_TOKENS: Record<TaskName, number> = { qa: 1024, fl: 128, ce: 4096 };

export type Summary = Awaited<ReturnType<typeof runPredictions>>;

/** `faun predict`'s options, checked: numbers in range, a context window with room for a prompt. */
function predictSettings(o: CommandContext['opts']) {
  const task = o.task as TaskName;
  const model = String(o.model);
  const concurrency = Number(o.concurrency);
  const maxRetries = Number(o.maxRetries);
  checkModelForTask(model, task);
  if (!(concurrency >= 1)) throw new UsageError('--concurrency must be at least 1');
  if (!(maxRetries >= 0)) throw new UsageError('--max-retries must be 0 or more');
  if (!(Number(o.timeout) > 0)) throw new UsageError('--timeout must be positive (seconds)');
  const limit = o.limit === undefined ? null : Number(o.limit);
  if (limit !== null && !(limit >= 1)) throw new UsageError('--limit must be at least 1');
  const ablate = checkAblate((o.ablate as string[] | undefined) ?? []);
  const maxTokens = o.maxTokens === undefined ? MAX_TOKENS[task] : Number(o.maxTokens);
  const context = o.contextTokens === undefined ? contextLimit(model) : Number(o.contextTokens);
  const promptBudget = context - maxTokens - 64;
  if (promptBudget < 256)
    throw new UsageError(
      `--context-tokens ${context} leaves no room for a prompt with --max-tokens ${maxTokens}`,
    );
  const repoDirs = parseRepoDirs((o.repoDir as string[] | undefined) ?? []);
  const prices = o.prices ? loadPriceTable(String(o.prices)) : null;
  return { task, model, concurrency, maxRetries, limit, ablate, maxTokens, promptBudget, repoDirs, prices };
}

/** The provider with a concurrency limit, retries shown on the progress line, and the on-disk cache. */
function wrapProvider(
  base: ModelProvider,
  st: ReturnType<typeof predictSettings>,
  o: CommandContext['opts'],
  progress: Progress,
  stats: { hits: number; misses: number },
): ModelProvider {
  const provider = withRetry(withLimiter(base, st.concurrency), {
    maxRetries: st.maxRetries,
    baseDelayMs: Number(o.retryBaseMs),
    onRetry: ({ attempt, delayMs, error }) =>
      progress.status(
        `retry ${attempt} in ${(delayMs / 1000).toFixed(1)}s (${error.status ?? error.message})`,
      ),
  });
  if (o.cache === false) return provider;
  return withCache(provider, { dir: o.cacheDir ? String(o.cacheDir) : defaultCacheDir(), stats });
}

/** The run's closing lines: counts, tokens and cost, length buckets, and how to resume or what failed. */
function reportPredictions(ctx: CommandContext, summary: Summary, resumeCommand: string, runDir: string) {
  ctx.result(
    `${summary.total} items: ${summary.generated} generated, ${summary.resumed} resumed, ${summary.errors} errors, ` +
      `${summary.malformed} malformed, ${summary.emptyEdits ? `${summary.emptyEdits} empty edits (the baseline's answer), ` : ''}` +
      `${summary.truncated} truncated, ${summary.cacheHits} from cache`,
  );
  ctx.log(
    `tokens: ${summary.tokens.prompt} prompt + ${summary.tokens.completion} completion` +
      (summary.costUsd !== null ? ` · cost $${summary.costUsd.toFixed(4)}` : ''),
  );
  const b = summary.lengthBuckets;
  if (b)
    ctx.log(
      `input length (est. tokens) buckets: ${b.labels.map((l) => `${l} ${b.counts[l]}`).join(', ')} ` +
        `at ${b.thresholds.map((t) => Math.round(t)).join(' / ')}`,
    );
  ctx.log(`predictions: ${summary.out}  run record: ${runDir}`);
  if (summary.cancelled)
    ctx.log(`interrupted with ${summary.notRun} items not run; resume with: ${resumeCommand}`);
  const permanent = summary.errors - summary.transientErrors;
  if (summary.transientErrors)
    ctx.log(
      `${summary.transientErrors} items failed transiently (rate limit, server error, timeout or network; ` +
        `see 'error' in ${summary.out}); re-run to retry them: ${resumeCommand}`,
    );
  if (permanent)
    ctx.log(
      `${permanent} items failed in a way a re-run cannot fix (recorded with 'error' in ${summary.out}), ` +
        `e.g. ${summary.firstPermanentError}`,
    );
}

const predict = defineCommand({
  name: 'predict',
  summary: 'run a model on a task dataset',
  description:
    `Writes one Prediction per item to --out, appending as items finish; re-running the same command ` +
    `resumes (only items without a prediction, or whose call failed, are sent again). ` +
    `Model is provider:name — providers: ${providerNames().join(', ')}. OpenAI-compatible providers read ` +
    `<PROVIDER>_API_KEY and <PROVIDER>_BASE_URL (openai: OPENAI_API_KEY / OPENAI_BASE_URL). ` +
    `Offline baselines: bm25 (FL: the best path by BM25 over path tokens, plus file contents with ` +
    `--repo-dir), bm25:K (FL: a ranked list of K paths, one per line — strict em expects a single path, ` +
    `so it scores 0 for K > 1; em_lenient/top1 take the first path, top3/top5/mrr use the ranking), ` +
    `baseline:title (QA), baseline:no-edit (CE: an empty edit). ` +
    `Model calls are cached on disk (FAUN_CACHE_DIR, default ~/.cache/faun); errors are never cached. ` +
    `Prompts: ${Object.values(PROMPT_VERSIONS).join(', ')}; input lengths are estimated as characters/4.`,
  examples: [
    'faun predict --task fl --dataset fl.jsonl --model bm25 --out preds/fl-bm25.jsonl',
    'faun predict --task fl --dataset fl.jsonl --model bm25 --repo-dir pallets/flask=../flask --out fl-bm25c.jsonl',
    'faun predict --task ce --dataset ce.jsonl --model openai:gpt-4o-mini --out preds/ce.jsonl -j 8',
    'faun predict --task fl --dataset fl.jsonl --model vllm:Qwen/Qwen2.5-7B-Instruct --base-url http://gpu:8000 --out fl.jsonl',
    'faun predict --task fl --dataset fl.jsonl --model bm25:5 --out preds/fl-bm25-top5.jsonl',
    'faun predict --task qa --dataset qa.jsonl --model baseline:title --out qa-title.jsonl',
    'faun predict --task ce --dataset ce.jsonl --model openai:gpt-4o --ablate pr_title,pr_body --out ce-nopr.jsonl',
  ],
  options: [
    ...taskDatasetOptions,
    {
      name: 'model',
      short: 'm',
      type: 'string',
      arg: 'PROVIDER:NAME',
      required: true,
      description:
        'model to run, e.g. openai:gpt-4o-mini, bm25, bm25:K (K ranked paths), baseline:title, replay:FILE',
    },
    {
      name: 'out',
      short: 'o',
      type: 'string',
      arg: 'FILE',
      required: true,
      description: 'predictions file (JSONL)',
    },
    {
      name: 'concurrency',
      short: 'j',
      type: 'number',
      arg: 'N',
      default: 4,
      description: 'model calls in flight',
    },
    {
      name: 'ablate',
      type: 'list',
      arg: 'PARTS',
      choices: ['issue_title', 'issue_body', 'pr_title', 'pr_body'],
      description: 'remove these parts from the prompt',
    },
    {
      name: 'temperature',
      type: 'number',
      default: 0.2,
      description: 'sampling temperature (FAUN-Eval uses 0.2)',
    },
    {
      name: 'seed',
      type: 'number',
      arg: 'N',
      description: 'sampling seed sent to the model (where supported)',
    },
    {
      name: 'max-tokens',
      type: 'number',
      arg: 'N',
      description: 'answer length limit (default: qa 1024, fl 128, ce 4096)',
    },
    {
      name: 'context-tokens',
      type: 'number',
      arg: 'N',
      description: "model's context window (default: by model name)",
    },
    {
      name: 'base-url',
      type: 'string',
      arg: 'URL',
      description: 'OpenAI-compatible endpoint (a bare host gets /v1)',
    },
    {
      name: 'max-retries',
      type: 'number',
      arg: 'N',
      default: 5,
      description: 'retries on 429/5xx/timeouts (0 = none)',
    },
    { name: 'retry-base-ms', type: 'number', arg: 'MS', default: 1000, description: 'first back-off step' },
    {
      name: 'timeout',
      type: 'number',
      arg: 'S',
      default: 120,
      description: 'per-request timeout in seconds',
    },
    {
      name: 'cache',
      type: 'boolean',
      default: true,
      description: 'use the on-disk model-call cache (--no-cache to skip)',
    },
    { name: 'cache-dir', type: 'string', arg: 'DIR', description: 'cache location (default ~/.cache/faun)' },
    repoDirOption('a local checkout whose files bm25 indexes too'),
    {
      name: 'prices',
      type: 'string',
      arg: 'FILE',
      input: true,
      description: 'price table JSON for cost accounting',
    },
  ],
  async run(ctx) {
    const o = ctx.opts;
    const st = predictSettings(o);
    const { task, model, limit } = st;
    if (resolve(String(o.out)) === resolve(String(o.dataset)))
      throw new UsageError('--out is the dataset file itself', { hint: 'write predictions to another file' });
    requireOutputFile(String(o.out), 'out', [String(o.dataset)]);
    const items = await loadDataset(String(o.dataset), task);
    if (limit !== null && limit < items.length)
      ctx.log(
        `--limit ${limit}: running ${limit} of ${items.length} items — fine for testing, not for reported results`,
      );
    const base = await createProvider(model, {
      baseUrl: o.baseUrl ? String(o.baseUrl) : null,
      timeoutMs: Number(o.timeout) * 1000,
      repoDirs: Object.keys(st.repoDirs).length ? st.repoDirs : null,
    });
    // The name predictions record (a replay's model, not its file path; provenance stays in the header).
    const modelName = base.model ?? model;
    const replayed = parseModelSpec(model).provider === 'replay' ? [parseModelSpec(model).name] : [];
    const cacheStats = { hits: 0, misses: 0 };
    const runId = newRunId(`predict-${task}-${modelName.replace(/[^\w.-]+/g, '_')}`);
    const record = await RunRecord.start({
      dir: join(ctx.logDir, runId),
      runId,
      command: 'predict',
      argv: ctx.argv,
      options: o,
      inputs: [String(o.dataset), ...replayed],
    });
    const progress = ctx.progress({ label: `predict ${task} ${modelName}`, total: limit ?? items.length });
    const provider = wrapProvider(base, st, o, progress, cacheStats);
    const resumeCommand = `${currentInvocation()} ${ctx.argv.map(shellQuote).join(' ')}`;
    const interrupt = onInterrupt(() => resumeCommand);
    let summary: Summary;
    try {
      summary = await runPredictions({
        task,
        items,
        limit,
        model: modelName,
        provider,
        out: String(o.out),
        concurrency: st.concurrency,
        ablate: st.ablate,
        params: {
          temperature: Number(o.temperature),
          maxTokens: st.maxTokens,
          ...(o.seed === undefined ? {} : { seed: Number(o.seed) }),
        },
        promptBudget: st.promptBudget,
        prices: st.prices,
        signal: interrupt.signal,
        progress,
        record,
        log: ctx.log,
      });
    } finally {
      interrupt.dispose();
    }
    const { fatal, ...counts } = summary;
    const metrics = {
      ...counts,
      fatal: fatal ? describeError(fatal) : null,
      cache: cacheStats,
      prompt_version: PROMPT_VERSIONS[task],
    };
    const failed = summary.fatal !== null || summary.errors > 0;
    await record.finish(summary.cancelled ? 'cancelled' : failed ? 'error' : 'success', {
      outputs: { predictions: summary.out },
      metrics,
      resumeCommand: summary.cancelled || summary.fatal || summary.transientErrors ? resumeCommand : null,
    });
    reportPredictions(ctx, summary, resumeCommand, record.dir);
    ctx.emitJson({ run_id: runId, run_dir: record.dir, ...metrics });
    if (fatal) {
      const kept = summary.generated + summary.resumed;
      throw new FaunError(`run stopped: ${describeError(fatal)}`, {
        exitCode: fatal.exitCode,
        hint:
          `${fatal.hint ? `${fatal.hint}; ` : ''}${kept} finished items are kept in ${summary.out} ` +
          `(${summary.notRun} not run); fix it and run the same command to resume`,
      });
    }
    return summary.cancelled ? 130 : summary.errors ? 1 : 0;
  },
});

export const commands = [predict];
