/**
 * Runs work jobs (`score`, `verify`) and posts their per-item results on the results queue. The same
 * handler serves the in-process queue of `faun serve` and `faun worker` processes pulling from Redis.
 */
import { type ItemResultInput, ResultMessage, ScoreJobData, VerifyJobData } from './kinds.ts';
import { type JobContext, type JobHandler, PermanentJobError, type Queue } from './types.ts';

/** Scores a chunk of text predictions; returns one result per item. */
export type ScoreFn = (job: ScoreJobData) => Promise<ItemResultInput[]>;
/** Verifies one instance; returns its result (throws on infrastructure failure, to be retried). */
export type VerifyFn = (job: VerifyJobData) => Promise<ItemResultInput>;

export interface WorkDeps {
  score: ScoreFn;
  verify: VerifyFn;
  /** Testing only: sleep this long before each job (env FAUN_WORKER_SLOW_MS). */
  slowMs?: number;
  log?: (line: string) => void;
}

/** Results of a job that failed for good: every item becomes an `error` result. */
export function errorResults(name: string, data: unknown, error: string): ResultMessage | null {
  if (name === 'score') {
    const p = ScoreJobData.safeParse(data);
    if (!p.success) return null;
    const results = p.data.items.map((it) => ({
      runId: p.data.runId,
      itemId: String(it.id ?? ''),
      outcome: 'error' as const,
      error,
    }));
    return ResultMessage.parse({ runId: p.data.runId, results });
  }
  if (name === 'verify') {
    const p = VerifyJobData.safeParse(data);
    if (!p.success) return null;
    return ResultMessage.parse({
      runId: p.data.runId,
      results: [{ runId: p.data.runId, itemId: p.data.instance.instance_id, outcome: 'error', error }],
    });
  }
  return null;
}

/** The work-queue handler: runs the job, then posts its results (deduplicated by job id). */
export function createWorkHandler(results: Queue, deps: WorkDeps): JobHandler {
  return async (job: JobContext) => {
    deps.log?.(`job ${job.id} ${job.name} start (try ${job.attempt}/${job.attempts})`);
    if (deps.slowMs) await new Promise((r) => setTimeout(r, deps.slowMs));
    if (job.signal?.aborted) throw new PermanentJobError('cancelled: the run was deleted');
    let message: ResultMessage;
    if (job.name === 'score') {
      const parsed = ScoreJobData.safeParse(job.data);
      if (!parsed.success) throw new PermanentJobError(`bad score job: ${parsed.error.message}`);
      const out = await deps.score(parsed.data);
      message = ResultMessage.parse({ runId: parsed.data.runId, results: out });
    } else if (job.name === 'verify') {
      const parsed = VerifyJobData.safeParse(job.data);
      if (!parsed.success) throw new PermanentJobError(`bad verify job: ${parsed.error.message}`);
      const out = await deps.verify(parsed.data);
      message = ResultMessage.parse({ runId: parsed.data.runId, results: [out] });
    } else {
      throw new PermanentJobError(`unknown job kind '${job.name}' (expected score or verify)`);
    }
    if (job.signal?.aborted) throw new PermanentJobError('cancelled: the run was deleted');
    await job.progress(100);
    await results.enqueue({ name: 'result', id: `r-${job.id}`, data: message, attempts: 5 });
    deps.log?.(`job ${job.id} ${job.name} done (${message.results.length} results)`);
    return { results: message.results.length };
  };
}

/** Posts `error` results for jobs that failed for good, so runs always finish. */
export function forwardFinalFailures(work: Queue, results: Queue): () => void {
  return work.on((e) => {
    if (e.type !== 'failed' || !e.final) return;
    const msg = errorResults(e.name, e.data, e.error);
    if (msg)
      void results.enqueue({ name: 'result', id: `r-${e.id}`, data: msg, attempts: 5 }).catch(() => {});
  });
}
