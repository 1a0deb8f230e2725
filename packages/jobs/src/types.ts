/**
 * The queue interface faun's API enqueues to and `faun worker` pulls from. Two implementations share it:
 * an in-process queue with bounded concurrency (the default) and BullMQ on Redis (when REDIS_URL is set).
 */

/** A unit of work to enqueue. */
export interface JobSpec<T = unknown> {
  /** The job kind (`score`, `verify`, `result`…): selects the handler. */
  name: string;
  data: T;
  /** Deduplication id: enqueuing a job whose id is already queued is a no-op. */
  id?: string;
  /** Total tries, including the first (default 3). Only infrastructure failures are retried. */
  attempts?: number;
  /** Base delay of the exponential backoff between tries, ms (default 500). */
  backoffMs?: number;
  /** The group the job belongs to (a run id): `cancelGroup` removes every job of a group at once. */
  group?: string;
}

/** What a handler receives. */
export interface JobContext<T = unknown> {
  id: string;
  name: string;
  data: T;
  /** 1 on the first try. */
  attempt: number;
  /** The configured number of tries. */
  attempts: number;
  /** Reports progress (a number in [0, 100] or a small object); listeners get `progress` events. */
  progress(value: number | Record<string, unknown>): Promise<void>;
  /** Aborted when the job's group is cancelled while it runs (in-process queue). */
  signal?: AbortSignal;
}

export type JobHandler = (job: JobContext) => Promise<unknown>;

export interface ProcessOptions {
  /** Jobs processed at once by this process (default 4). */
  concurrency?: number;
}

export type QueueEvent =
  | { type: 'progress'; id: string; name: string; value: unknown }
  | { type: 'completed'; id: string; name: string; result: unknown }
  | { type: 'failed'; id: string; name: string; error: string; final: boolean; data: unknown };

export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  completed: number;
  failed: number;
}

/** A named job queue. */
export interface Queue {
  readonly name: string;
  readonly backend: 'memory' | 'bullmq';
  enqueue(job: JobSpec): Promise<string>;
  enqueueMany(jobs: JobSpec[]): Promise<string[]>;
  /** Starts processing jobs of this queue with `handler` in this process. */
  process(handler: JobHandler, opts?: ProcessOptions): Promise<void>;
  /** Subscribes to events of jobs this process runs; returns the unsubscribe function. */
  on(listener: (e: QueueEvent) => void): () => void;
  counts(): Promise<QueueCounts>;
  /**
   * Cancels every job of `group`: waiting, delayed and retrying ones are removed and never start; running
   * ones in this process see their `signal` aborted. Returns how many jobs were removed or aborted.
   */
  cancelGroup(group: string): Promise<number>;
  /** True when the backend is reachable. */
  ping(): Promise<boolean>;
  /** Resolves once no job is waiting or running (in-process) — for tests and graceful shutdown. */
  drained(): Promise<void>;
  /** Stops processing (running jobs finish first) and releases connections. */
  close(): Promise<void>;
}

/**
 * Thrown by a handler for a failure that retrying cannot fix (bad input, missing prerequisite): the job
 * fails at once. Any other error is treated as an infrastructure failure and retried with backoff.
 */
export class PermanentJobError extends Error {
  constructor(message: string, opts?: { cause?: unknown }) {
    super(message, opts);
    this.name = 'PermanentJobError';
  }
}

export const DEFAULT_ATTEMPTS = 3;
export const DEFAULT_BACKOFF_MS = 500;
