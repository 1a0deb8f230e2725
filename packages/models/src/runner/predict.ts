/**
 * The prediction runner: builds each item's prompt, calls the (wrapped) provider with a bounded number
 * of items in flight, and appends each prediction to the output file as it finishes. A re-run with the
 * same output file sends only items without a prediction (or whose previous attempt failed); the run
 * ends with an atomic rewrite of the file in dataset order. Per-item failures are recorded in
 * `Prediction.error` and do not stop the run, except fatal ones (`isFatalError`: bad key, unknown
 * model, a model unfit for the task): the first stops the run, is not written as a prediction, and is
 * returned in `fatal`. When `signal` aborts, no new items start; what is in flight finishes and is saved.
 */
import type { FaunError, Progress, RunRecord } from '@faun/kit';
import { UsageError } from '@faun/kit';
import { appendJsonl, type Prediction, type TaskItem, type TaskName, writeJsonlAtomic } from '@faun/schema';
import { lengthBuckets } from '../buckets.ts';
import { costOf, type PriceTable } from '../cost.ts';
import { describeError, isFatalError, isTransientError } from '../errors.ts';
import { checkOutput, intendedOutput } from '../parse/inspect.ts';
import { type AblatePart, ablateItem, buildPrompt, promptSha256 } from '../prompts/build.ts';
import { PROMPT_VERSIONS } from '../prompts/templates.ts';
import type { GenerationParams, ModelProvider } from '../types.ts';
import { formatIssue, loadPredictions } from './dataset.ts';

export interface PredictOptions {
  task: TaskName;
  /** The whole dataset, in order. */
  items: TaskItem[];
  /** Run only the first `limit` items (the output still keeps earlier predictions of other items). */
  limit?: number | null;
  /** The model as given (`provider:name`), stored in every prediction. */
  model: string;
  provider: ModelProvider;
  out: string;
  concurrency: number;
  ablate: AblatePart[];
  params: GenerationParams;
  /** Prompt budget in estimated tokens (context window minus room for the answer). */
  promptBudget: number;
  prices?: PriceTable | null;
  signal?: AbortSignal;
  progress?: Progress;
  record?: RunRecord;
  log?: (line: string) => void;
}

export interface PredictSummary {
  total: number;
  /** Items that had a usable prediction from an earlier run. */
  resumed: number;
  generated: number;
  errors: number;
  /** Errors a re-run may fix (429/5xx/timeouts/network); the rest of `errors` are permanent. */
  transientErrors: number;
  /** The first permanent (non-transient) error, e.g. an id missing from a replayed file. */
  firstPermanentError: string | null;
  /** The error that stopped the run early (nothing else was started after it), or null. */
  fatal: FaunError | null;
  /** Outputs that do not follow the requested format (kept and scored as they are). */
  malformed: number;
  /** Empty outputs of `baseline:no-edit`: its intended answer, so not counted as malformed. */
  emptyEdits: number;
  truncated: number;
  cacheHits: number;
  /** Items not run because the run was interrupted. */
  notRun: number;
  cancelled: boolean;
  tokens: { prompt: number; completion: number; cached: number };
  costUsd: number | null;
  out: string;
  /** Tercile buckets of `input_tokens` over the output file's predictions (null when empty). */
  lengthBuckets: { thresholds: number[]; labels: string[]; counts: Record<string, number> } | null;
}

const sameConfig = (p: Prediction, o: PredictOptions) =>
  p.model === o.model &&
  p.task === o.task &&
  p.prompt_version === PROMPT_VERSIONS[o.task] &&
  p.ablate.join(',') === o.ablate.join(',');

/** What the items of one run share while they run: the summary so far, the kept predictions, the flags. */
interface Lane {
  o: PredictOptions;
  s: PredictSummary;
  byId: Map<string, Prediction>;
  /** In-flight calls are not aborted by an interrupt: they finish and are saved (a fatal error aborts). */
  callCtl: AbortController;
  stopping: boolean;
  notRun: number;
  /** Appends go one after another, in the order items finish. */
  appending: Promise<void>;
  /** Local, deterministic providers (no cache scope) answer in microseconds: latency and cache not recorded. */
  timed: boolean;
}

const statusOf = (s: PredictSummary) =>
  `errors ${s.errors} · tokens ${s.tokens.prompt}+${s.tokens.completion}` +
  (s.cacheHits ? ` · cached ${s.cacheHits}` : '') +
  (s.costUsd !== null ? ` · $${s.costUsd.toFixed(4)}` : '');

/** The earlier predictions of `o.out` to keep (readable, of this configuration, without an error). */
async function keptPredictions(
  o: PredictOptions,
  order: Map<string, number>,
): Promise<Map<string, Prediction>> {
  const previous = await loadPredictions(o.out);
  if (previous.issues.length)
    (o.log ?? (() => {}))(
      `${o.out}: dropping ${previous.issues.length} unreadable line(s), e.g. ${formatIssue(previous.issues[0]!)}`,
    );
  const foreign = previous.values.find((p) => order.has(p.id) && !sameConfig(p, o));
  if (foreign)
    throw new UsageError(
      `${o.out} already holds predictions of another configuration (model ${foreign.model}, ` +
        `prompt ${foreign.prompt_version}, ablate [${foreign.ablate.join(',')}])`,
      { hint: 'pass a different --out, or delete the file to start over' },
    );
  const byId = new Map<string, Prediction>();
  for (const p of previous.values) if (order.has(p.id) && p.error === null) byId.set(p.id, p);
  return byId;
}

function emptySummary(o: PredictOptions, total: number, resumed: number): PredictSummary {
  return {
    total,
    resumed,
    generated: 0,
    errors: 0,
    transientErrors: 0,
    firstPermanentError: null,
    fatal: null,
    malformed: 0,
    emptyEdits: 0,
    truncated: 0,
    cacheHits: 0,
    notRun: 0,
    cancelled: false,
    tokens: { prompt: 0, completion: 0, cached: 0 },
    costUsd: null,
    out: o.out,
    lengthBuckets: null,
  };
}

/** A prediction of `item` before its call: the prompt's version, length and hash, nothing answered yet. */
function newPrediction(
  o: PredictOptions,
  item: TaskItem,
  prompt: ReturnType<typeof buildPrompt>,
): Prediction {
  return {
    v: 1,
    id: item.id,
    task: o.task,
    model: o.model,
    output: '',
    prompt_version: prompt.promptVersion,
    ablate: o.ablate,
    input_tokens: prompt.inputTokens,
    truncated: prompt.truncated,
    usage: null,
    cost_usd: null,
    latency_ms: null,
    cache_hit: null,
    prompt_sha256: promptSha256(prompt.messages),
    prompt_budget: o.promptBudget,
    error: null,
  };
}

/** Calls the model for `pred`; records output, usage, cost, latency and cache hit. Returns whether cached. */
async function call(
  l: Lane,
  item: TaskItem,
  prompt: ReturnType<typeof buildPrompt>,
  pred: Prediction,
  started: number,
) {
  const { o } = l;
  const r = await o.provider
    .generate({ ...o.params, messages: prompt.messages, item }, { signal: l.callCtl.signal })
    .finally(() => {
      if (l.timed) pred.latency_ms = Math.round(performance.now() - started);
    });
  pred.output = r.text;
  const cached = r.cached === true;
  if (l.timed) pred.cache_hit = cached;
  if (r.usage) {
    pred.usage = {
      prompt_tokens: r.usage.promptTokens,
      completion_tokens: r.usage.completionTokens,
      cached_tokens: r.usage.cachedTokens,
    };
    pred.cost_usd = costOf(o.prices ?? null, o.model, r.usage);
  }
  return cached;
}

/**
 * A failed call: a fatal error (or one that comes while the run stops) is not the item's — nothing is
 * written, a re-run sends it again — and returns false; otherwise the error is recorded in the prediction.
 */
async function failed(l: Lane, e: unknown, pred: Prediction, started: number): Promise<boolean> {
  const { s, o } = l;
  if (isFatalError(e) || (l.stopping && l.callCtl.signal.aborted)) {
    if (isFatalError(e) && !s.fatal) {
      s.fatal = e;
      l.stopping = true;
      l.callCtl.abort(e); // ends other items' retry waits; their calls count as not run
    }
    l.notRun++;
    if (s.fatal === e)
      await o.record?.sample({
        id: pred.id,
        outcome: 'error',
        duration_ms: Math.round(performance.now() - started),
        error: `stopped the run: ${describeError(e)}`,
      });
    return false;
  }
  pred.error = describeError(e);
  if (isTransientError(e)) s.transientErrors++;
  else s.firstPermanentError ??= `${pred.id}: ${pred.error}`;
  return true;
}

/** Counts a finished prediction in the summary, appends it to the file and records its sample. */
async function settle(
  l: Lane,
  item: TaskItem,
  pred: Prediction,
  cached: boolean,
  started: number,
): Promise<void> {
  const { s, o } = l;
  let check = pred.error === null ? checkOutput(item, pred.output) : null;
  const intended = check && !check.wellFormed ? intendedOutput(o.model, item, pred.output) : null;
  if (check && intended) {
    check = { wellFormed: true, reason: null, data: { ...check.data, intended } };
    if (intended === 'empty edit') s.emptyEdits++;
  }
  if (pred.error) s.errors++;
  else {
    s.generated++;
    l.byId.set(pred.id, pred);
    if (!check?.wellFormed) s.malformed++;
  }
  if (pred.truncated) s.truncated++;
  if (cached) s.cacheHits++;
  else if (pred.usage) {
    s.tokens.prompt += pred.usage.prompt_tokens;
    s.tokens.completion += pred.usage.completion_tokens;
    s.tokens.cached += pred.usage.cached_tokens;
    if (pred.cost_usd !== null) s.costUsd = (s.costUsd ?? 0) + pred.cost_usd;
  }
  l.appending = l.appending.then(() => appendJsonl(o.out, [pred]));
  await l.appending;
  await o.record?.sample({
    id: pred.id,
    outcome: pred.error ? 'error' : 'pass',
    duration_ms: Math.round(performance.now() - started),
    error: pred.error,
    data: {
      input_tokens: pred.input_tokens,
      truncated: pred.truncated,
      cached,
      well_formed: check?.wellFormed ?? null,
      format_problem: check?.reason ?? null,
      ...(check?.data ?? {}),
    },
  });
  o.progress?.tick(1, statusOf(s));
}

/** Runs one item: prompt, call, record. */
async function one(l: Lane, raw: TaskItem): Promise<void> {
  const item = ablateItem(raw, l.o.ablate);
  const prompt = buildPrompt(item, l.o.promptBudget);
  const started = performance.now();
  const pred = newPrediction(l.o, item, prompt);
  let cached = false;
  try {
    cached = await call(l, item, prompt, pred, started);
  } catch (e) {
    if (!(await failed(l, e, pred, started))) return;
  }
  await settle(l, item, pred, cached, started);
}

export async function runPredictions(o: PredictOptions): Promise<PredictSummary> {
  const order = new Map(o.items.map((it, i) => [it.id, i]));
  const byId = await keptPredictions(o, order);
  const sorted = () => [...byId.values()].sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  // Rewrite first: drops torn lines and stale errors so the appends below start on a clean line.
  await writeJsonlAtomic(o.out, sorted());

  const selected = o.limit ? o.items.slice(0, o.limit) : o.items;
  const pending = selected.filter((it) => !byId.has(it.id));
  const s = emptySummary(o, selected.length, selected.length - pending.length);
  o.progress?.setTotal(selected.length);
  if (s.resumed) {
    o.progress?.tick(s.resumed, `resumed ${s.resumed}`);
    for (const it of selected)
      if (byId.has(it.id))
        void o.record?.sample({ id: it.id, outcome: 'skipped', duration_ms: 0, data: { resumed: true } });
  }
  const l: Lane = {
    o,
    s,
    byId,
    callCtl: new AbortController(),
    stopping: false,
    notRun: 0,
    appending: Promise.resolve(),
    timed: o.provider.cacheScope !== null,
  };
  let next = 0;
  async function worker(): Promise<void> {
    while (!o.signal?.aborted && !l.stopping) {
      const it = pending[next++];
      if (!it) return;
      await one(l, it);
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, pending.length)) }, worker));
  await l.appending;
  s.notRun = Math.max(0, pending.length - next) + l.notRun;
  s.cancelled = !s.fatal && Boolean(o.signal?.aborted) && s.notRun > 0;
  // Final rewrite in dataset order, keeping this run's errors so they are visible (and retried next time).
  const finalById = new Map(byId);
  const current = await loadPredictions(o.out);
  for (const p of current.values) if (p.error !== null && !finalById.has(p.id)) finalById.set(p.id, p);
  const final = [...finalById.values()].sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  await writeJsonlAtomic(o.out, final);
  const lengths = final.flatMap((p) => (p.input_tokens === null ? [] : [p.input_tokens]));
  if (lengths.length) {
    const { thresholds, labels, counts } = lengthBuckets(lengths);
    s.lengthBuckets = { thresholds, labels, counts };
  }
  o.progress?.done(statusOf(s));
  return s;
}
