/**
 * A pool of scoring threads. Text scoring with bootstrap intervals is CPU work of milliseconds to seconds;
 * on the event loop it would stall every other request (health checks included), so heavy calls run
 * here, one at a time per thread, queued in order. Small calls (`isLight`) stay inline: a thread hop
 * costs more than they do.
 */
import type { ScoreTaskFn } from '@faun/jobs';
import type { ScoreTaskOptions, TaskScore } from '@faun/metrics';
import { ApiError } from '../errors.ts';

interface Pending {
  resolve: (v: TaskScore) => void;
  reject: (e: Error) => void;
}

interface Job {
  msg: {
    id: number;
    task: string;
    items: readonly unknown[];
    predictions: readonly unknown[];
    opts: ScoreTaskOptions;
  };
  pending: Pending;
}

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
  private readonly idle: Worker[] = [];
  private readonly all: Worker[] = [];
  private readonly queue: Job[] = [];
  private readonly running = new Map<Worker, Job>();
  private readonly maxQueued: number;
  private seq = 0;
  private closed = false;

  private readonly threads: number;

  constructor(o: ScorePoolOptions = {}) {
    this.maxQueued = o.maxQueued ?? 1000;
    this.threads = Math.max(1, o.threads ?? 2);
  }

  /** Threads start on first use and never keep the process alive. */
  private start(): void {
    if (this.all.length > 0) return;
    for (let i = 0; i < this.threads; i++) {
      const w = new Worker(new URL('./score-worker.ts', import.meta.url).href);
      w.onmessage = (e: MessageEvent) => this.settle(w, e.data as { result?: TaskScore; error?: Error });
      w.onerror = (e) => this.settle(w, { error: { name: 'Error', message: String(e.message ?? e) } });
      (w as unknown as { unref(): void }).unref();
      this.all.push(w);
      this.idle.push(w);
    }
  }

  /** `scoreTask` with the same signature, run on a thread. */
  readonly scoreTask: ScoreTaskFn = (task, items, predictions, opts = {}) => {
    if (this.closed) return Promise.reject(new Error('the scoring pool is closed'));
    if (this.queue.length >= this.maxQueued)
      return Promise.reject(
        new ApiError(
          503,
          'busy',
          'the server is busy scoring; retry shortly',
          { retry_after_s: 1 },
          { 'retry-after': '1' },
        ),
      );
    this.start();
    return new Promise((resolve, reject) => {
      this.queue.push({
        msg: { id: ++this.seq, task, items, predictions, opts },
        pending: { resolve, reject },
      });
      this.pump();
    });
  };

  private pump(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const w = this.idle.pop()!;
      const job = this.queue.shift()!;
      this.running.set(w, job);
      w.postMessage(job.msg);
    }
  }

  private settle(w: Worker, data: { result?: TaskScore; error?: { name: string; message: string } }): void {
    const job = this.running.get(w);
    this.running.delete(w);
    if (!this.closed) this.idle.push(w);
    if (job) {
      if (data.error) {
        const e = new Error(data.error.message);
        e.name = data.error.name;
        job.pending.reject(e);
      } else job.pending.resolve(data.result as TaskScore);
    }
    this.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const j of this.queue.splice(0)) j.pending.reject(new Error('the scoring pool is closed'));
    for (const [, j] of this.running) j.pending.reject(new Error('the scoring pool is closed'));
    this.running.clear();
    for (const w of this.all) w.terminate();
  }
}
