/**
 * The Redis-backed queue (BullMQ). Jobs survive the process that enqueued them and the worker that runs
 * them: a worker that dies holding a job stops renewing its lock, the stalled-job check moves the job back
 * to waiting, and another worker picks it up. `lockMs` bounds how long that takes.
 */
import { Queue as BullQueue, type Job, UnrecoverableError, Worker } from 'bullmq';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  type JobHandler,
  type JobSpec,
  PermanentJobError,
  type ProcessOptions,
  type Queue,
  type QueueCounts,
  type QueueEvent,
} from './types.ts';

export interface RedisQueueOptions {
  url: string;
  /**
   * Job lock duration, ms: a worker renews it every lockMs/2; a job whose lock expires is stalled and
   * re-queued. Default 30000 (env FAUN_JOBS_LOCK_MS).
   */
  lockMs?: number;
  /** Completed jobs kept in Redis for inspection (default 1000). */
  keepCompleted?: number;
}

/** BullMQ ids may not contain ':'; map them reversibly-enough for dedup. */
function jobId(id: string): string {
  return id.replace(/:/g, '_');
}

/** A queue in Redis shared by every process that opens the same name. */
export class RedisQueue implements Queue {
  readonly backend = 'bullmq' as const;
  private readonly queue: BullQueue;
  private readonly workers: Worker[] = [];
  private readonly listeners = new Set<(e: QueueEvent) => void>();
  private readonly connection: { url: string; maxRetriesPerRequest: null };
  private readonly lockMs: number;
  private readonly keepCompleted: number;

  constructor(
    readonly name: string,
    opts: RedisQueueOptions,
  ) {
    this.connection = { url: opts.url, maxRetriesPerRequest: null };
    this.lockMs = opts.lockMs ?? Number(process.env.FAUN_JOBS_LOCK_MS ?? 30_000);
    this.keepCompleted = opts.keepCompleted ?? 1000;
    this.queue = new BullQueue(name, { connection: this.connection });
    this.queue.on('error', () => {
      // connection errors surface through ping()/enqueue(); avoid an unhandled 'error' event
    });
  }

  private options(job: JobSpec) {
    return {
      ...(job.id ? { jobId: jobId(job.id) } : {}),
      attempts: job.attempts ?? DEFAULT_ATTEMPTS,
      backoff: { type: 'exponential', delay: job.backoffMs ?? DEFAULT_BACKOFF_MS },
      removeOnComplete: this.keepCompleted,
      removeOnFail: 5000,
    };
  }

  async enqueue(job: JobSpec): Promise<string> {
    const added = await this.queue.add(job.name, job.data, this.options(job));
    return String(added.id);
  }

  async enqueueMany(jobs: JobSpec[]): Promise<string[]> {
    const added = await this.queue.addBulk(
      jobs.map((j) => ({ name: j.name, data: j.data, opts: this.options(j) })),
    );
    return added.map((a) => String(a.id));
  }

  async process(handler: JobHandler, opts: ProcessOptions = {}): Promise<void> {
    const worker = new Worker(
      this.name,
      async (job: Job) => {
        try {
          return await handler({
            id: String(job.id),
            name: job.name,
            data: job.data,
            attempt: job.attemptsMade + 1,
            attempts: job.opts.attempts ?? 1,
            progress: (value) => job.updateProgress(value),
          });
        } catch (e) {
          if (e instanceof PermanentJobError) throw new UnrecoverableError(e.message);
          throw e;
        }
      },
      {
        connection: this.connection,
        concurrency: Math.max(1, opts.concurrency ?? 4),
        lockDuration: this.lockMs,
        stalledInterval: Math.max(250, Math.floor(this.lockMs / 2)),
        maxStalledCount: 3,
      },
    );
    worker.on('error', () => {
      // reconnects are automatic; errors of single jobs arrive through 'failed'
    });
    worker.on('progress', (job, value) =>
      this.emit({ type: 'progress', id: String(job.id), name: job.name, value }),
    );
    worker.on('completed', (job, result) =>
      this.emit({ type: 'completed', id: String(job.id), name: job.name, result }),
    );
    worker.on('failed', (job, err) => {
      if (!job) return;
      const attempts = job.opts.attempts ?? 1;
      const final =
        err instanceof UnrecoverableError ||
        err.name === 'UnrecoverableError' ||
        job.attemptsMade >= attempts;
      this.emit({
        type: 'failed',
        id: String(job.id),
        name: job.name,
        error: err.message,
        final,
        data: job.data,
      });
    });
    this.workers.push(worker);
    await worker.waitUntilReady();
  }

  on(listener: (e: QueueEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(e: QueueEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // a listener's failure must not break the worker
      }
    }
  }

  async counts(): Promise<QueueCounts> {
    const c = await this.queue.getJobCounts(
      'waiting',
      'active',
      'delayed',
      'completed',
      'failed',
      'prioritized',
    );
    return {
      waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
      active: c.active ?? 0,
      delayed: c.delayed ?? 0,
      completed: c.completed ?? 0,
      failed: c.failed ?? 0,
    };
  }

  async ping(): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        this.queue.getJobCounts('waiting'),
        new Promise<never>((_, rej) => {
          timer = setTimeout(() => rej(new Error('timeout')), 1500);
        }),
      ]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  async drained(): Promise<void> {
    for (;;) {
      const c = await this.counts();
      if (c.waiting + c.active + c.delayed === 0) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /**
   * Stops workers (running jobs finish first) and closes the connections. When Redis is unreachable a
   * graceful close would wait forever for a reconnect, so after `graceMs` the connections are dropped.
   */
  async close(graceMs = 5000): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const graceful = (async () => {
      await Promise.all(this.workers.map((w) => w.close()));
      await this.queue.close();
      return true;
    })().catch(() => false);
    const done = await Promise.race([
      graceful,
      new Promise<false>((r) => {
        timer = setTimeout(() => r(false), graceMs);
      }),
    ]);
    clearTimeout(timer);
    if (!done)
      await Promise.allSettled([...this.workers.map((w) => w.disconnect()), this.queue.disconnect()]);
  }
}
