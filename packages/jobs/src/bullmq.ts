/**
 * The Redis-backed queue (BullMQ). Jobs survive the process that enqueued them and the worker that runs
 * them: a worker that dies holding a job stops renewing its lock, the stalled-job check moves the job back
 * to waiting, and another worker picks it up. `lockMs` bounds how long that takes.
 */
import { Queue as BullQueue, type Job, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
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

  /** Redis keys of a group's job ids and of the ids cancelled (checked before a job starts). */
  private groupKey(group: string): string {
    return `faun:${this.name}:group:${group}`;
  }
  private get cancelledKey(): string {
    return `faun:${this.name}:cancelled`;
  }

  private bookkeeping: Redis | null = null;
  /** A connection of our own for group bookkeeping (ids of a group, cancelled ids). */
  private redis(): Redis {
    this.bookkeeping ??= new Redis(this.connection.url, { maxRetriesPerRequest: null, lazyConnect: false });
    this.bookkeeping.on('error', () => {});
    return this.bookkeeping;
  }

  private async remember(jobs: JobSpec[], ids: string[]): Promise<void> {
    const byGroup = new Map<string, string[]>();
    jobs.forEach((j, i) => {
      if (j.group) byGroup.set(j.group, [...(byGroup.get(j.group) ?? []), ids[i]!]);
    });
    if (byGroup.size === 0) return;
    const client = this.redis();
    for (const [g, list] of byGroup) {
      await client.sadd(this.groupKey(g), ...list);
      await client.expire(this.groupKey(g), 7 * 86_400);
    }
  }

  async enqueue(job: JobSpec): Promise<string> {
    const added = await this.queue.add(job.name, job.data, this.options(job));
    await this.remember([job], [String(added.id)]);
    return String(added.id);
  }

  async enqueueMany(jobs: JobSpec[]): Promise<string[]> {
    const added = await this.queue.addBulk(
      jobs.map((j) => ({ name: j.name, data: j.data, opts: this.options(j) })),
    );
    const ids = added.map((a) => String(a.id));
    await this.remember(jobs, ids);
    return ids;
  }

  /**
   * Removes the group's jobs that are not running, and marks all of them cancelled: a worker skips a
   * cancelled job it picks up (a running one in another process finishes; its results are dropped).
   */
  async cancelGroup(group: string): Promise<number> {
    const client = this.redis();
    const ids = await client.smembers(this.groupKey(group));
    if (ids.length === 0) return 0;
    await client.sadd(this.cancelledKey, ...ids);
    let n = 0;
    for (const id of ids) {
      const job = await this.queue.getJob(id);
      if (!job) continue;
      const state = await job.getState();
      if (state === 'completed' || state === 'failed') continue;
      try {
        await job.remove();
      } catch {
        // locked by a worker: it skips or finishes the job, and the results are dropped
      }
      n++;
    }
    await client.del(this.groupKey(group));
    return n;
  }

  async process(handler: JobHandler, opts: ProcessOptions = {}): Promise<void> {
    const worker = new Worker(
      this.name,
      async (job: Job) => {
        if (await this.redis().sismember(this.cancelledKey, String(job.id))) return { cancelled: true };
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
    this.bookkeeping?.disconnect();
  }
}
