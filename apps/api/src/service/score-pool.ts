/**
 * The server's scoring threads. Text scoring with bootstrap intervals is CPU work of milliseconds to
 * seconds; on the event loop it would stall every other request (health checks included), so heavy calls
 * run on the scoring pool of @faun/metrics (workers only, none on this thread; started on first use, never
 * keeping the process alive), the least busy thread first. Small calls (`isLight`) stay inline: a thread
 * hop costs more than they do.
 */
import type { ScoreTaskFn } from '@faun/jobs';
import type { TaskScore } from '@faun/metrics';
import { createScorer, type Scorer } from '@faun/metrics/pool';
import { ApiError } from '../errors.ts';

export interface ScorePoolOptions {
  /** Threads (default 2). */
  threads?: number;
  /** Calls waiting for a thread before new ones are refused with 503 (default 1000). */
  maxQueued?: number;
}

/** Rough cost of a call in item-resamples: items × (1 + resamples / 50). */
export function scoreCost(items: number, bootstrap: number | undefined): number {
  return items * (1 + (bootstrap ?? 1000) / 50);
}

/** Calls cheap enough to run inline (well under a millisecond). */
export const isLight = (items: number, bootstrap: number | undefined) => scoreCost(items, bootstrap) <= 1000;

export class ScorePool {
  private scorer: Scorer | null = null;
  private readonly maxQueued: number;
  private readonly threads: number;
  private outstanding = 0;
  private closed = false;

  constructor(o: ScorePoolOptions = {}) {
    this.maxQueued = o.maxQueued ?? 1000;
    this.threads = Math.max(1, o.threads ?? 2);
  }

  /** `scoreTask` with the same signature, run on a thread. */
  readonly scoreTask: ScoreTaskFn = async (task, items, predictions, opts = {}) => {
    if (this.closed) throw new Error('the scoring pool is closed');
    // calls beyond one per thread wait for a thread
    if (this.outstanding - this.threads >= this.maxQueued)
      throw new ApiError(
        503,
        'busy',
        'the server is busy scoring; retry shortly',
        { retry_after_s: 1 },
        { 'retry-after': '1' },
      );
    this.scorer ??= createScorer(this.threads, { inline: false, unref: true });
    this.outstanding++;
    try {
      const { scorer: _inProcess, ...plain } = opts;
      return (await this.scorer.task({ task, items, predictions, opts: plain })) as TaskScore;
    } finally {
      this.outstanding--;
    }
  };

  async close(): Promise<void> {
    this.closed = true;
    this.scorer?.terminate(new Error('the scoring pool is closed'));
  }
}
