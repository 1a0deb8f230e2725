/**
 * The default work handlers: text scoring through `@faun/metrics`' `scoreTask` (the same function
 * `faun score` uses) and container verification through `@faun/harness`. Both packages load lazily so a
 * worker that only scores never loads the container stack.
 */
import type { ExecutionResult, ItemScore, SampleOutcome } from '@faun/schema';
import type { ItemResultInput, ScoreJobData, VerifyJobData } from './kinds.ts';
import { PermanentJobError } from './types.ts';
import type { WorkDeps } from './worker.ts';

/** The shape of `scoreTask` this package relies on. */
export type ScoreTaskFn = (
  task: string,
  items: unknown[],
  predictions: unknown[],
  opts?: Record<string, unknown>,
) => unknown;

/** Loads `scoreTask` from @faun/metrics (lazily, so a verify-only worker never loads the metrics). */
export async function loadScoreTask(): Promise<ScoreTaskFn> {
  const { scoreTask } = await import('@faun/metrics');
  return scoreTask as ScoreTaskFn;
}

/** The per-item scores inside a scoreTask result. */
export function itemScoresOf(result: unknown): ItemScore[] {
  const r = result as Record<string, unknown>;
  const list = r.items ?? r.itemScores ?? r.scores;
  if (!Array.isArray(list)) throw new PermanentJobError('scoreTask returned no per-item scores');
  return list as ItemScore[];
}

/**
 * A text item's outcome: `error` when the model call failed, `skipped` when no prediction was submitted,
 * `fail` when nothing scorable was extracted or an exact-match metric is 0, otherwise `pass`.
 */
export function textOutcome(
  score: ItemScore | undefined,
  predictionError: string | null | undefined,
): SampleOutcome {
  if (predictionError) return 'error';
  if (!score) return 'skipped';
  if (score.missing) return 'fail';
  const em = score.scores.em ?? score.scores.exact_match ?? score.scores.EM;
  if (em !== undefined) return em >= 1 ? 'pass' : 'fail';
  return 'pass';
}

/** Scores a chunk with scoreTask and maps each item to a result. */
export async function scoreChunk(job: ScoreJobData, scoreTask?: ScoreTaskFn): Promise<ItemResultInput[]> {
  const fn = scoreTask ?? (await loadScoreTask());
  const started = performance.now();
  const result = await fn(job.task, job.items, job.predictions, { bootstrap: 0 });
  const byId = new Map(itemScoresOf(result).map((s) => [s.id, s]));
  const predErr = new Map(job.predictions.map((p) => [String(p.id), (p.error as string | null) ?? null]));
  const each = (performance.now() - started) / Math.max(1, job.items.length);
  return job.items.map((it) => {
    const id = String(it.id);
    const s = byId.get(id);
    return {
      runId: job.runId,
      itemId: id,
      outcome: textOutcome(s, predErr.get(id)),
      scores: s?.scores ?? {},
      answer: s?.answer ?? null,
      data: s?.note ? { note: s.note } : {},
      error: predErr.get(id) ?? null,
      durationMs: each,
    };
  });
}

type VerifyInstanceFn = (
  instance: VerifyJobData['instance'],
  prediction: { model: string; patch: string },
) => Promise<ExecutionResult & { log?: string }>;

const OUTCOMES: Record<ExecutionResult['outcome'], SampleOutcome> = {
  resolved: 'pass',
  unresolved: 'fail',
  apply_failed: 'fail',
  empty_patch: 'fail',
  timeout: 'timeout',
  invalid_log: 'error',
  infra_error: 'error',
};

/** Verifies one instance through @faun/harness; an infrastructure error throws so the job is retried. */
export async function verifyOne(job: VerifyJobData): Promise<ItemResultInput> {
  const m = (await import('@faun/harness')) as Record<string, unknown>;
  const fn = m.verifyInstance as VerifyInstanceFn | undefined;
  if (typeof fn !== 'function') throw new PermanentJobError('@faun/harness does not export verifyInstance');
  const r = await fn(job.instance, { model: job.model, patch: job.patch });
  if (r.outcome === 'infra_error') throw new Error(`infrastructure failure: ${r.error ?? 'unknown'}`);
  const { log, ...result } = r;
  return {
    runId: job.runId,
    itemId: job.instance.instance_id,
    outcome: OUTCOMES[r.outcome],
    data: { execution: result },
    log: log ? log.slice(-20_000) : null,
    error: r.error,
    durationMs: r.duration_s * 1000,
  };
}

/** The default dependencies of a work handler. */
export function defaultWorkDeps(log?: (line: string) => void): WorkDeps {
  const slow = Number(process.env.FAUN_WORKER_SLOW_MS ?? 0);
  return {
    score: (job) => scoreChunk(job),
    verify: verifyOne,
    ...(slow > 0 ? { slowMs: slow } : {}),
    ...(log ? { log } : {}),
  };
}
