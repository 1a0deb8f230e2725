/** The in-process queue: FIFO, bounded concurrency, retries with exponential backoff, dedup by id. */
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

interface Entry {
  id: string;
  spec: JobSpec;
  attempt: number;
}

/** A queue that lives in this process; jobs are lost when it exits. */
export class MemoryQueue implements Queue {
  readonly backend = 'memory' as const;
  private readonly waiting: Entry[] = [];
  private readonly known = new Set<string>();
  private readonly listeners = new Set<(e: QueueEvent) => void>();
  private handler: JobHandler | null = null;
  private concurrency = 4;
  private active = 0;
  private delayed = 0;
  private completed = 0;
  private failed = 0;
  private seq = 0;
  private closed = false;
  private idleWaiters: (() => void)[] = [];
  private readonly running = new Map<Entry, AbortController>();
  /** Cancelled groups (bounded: the oldest are forgotten first). */
  private readonly cancelled = new Set<string>();

  constructor(readonly name: string) {}

  async enqueue(job: JobSpec): Promise<string> {
    const id = job.id ?? `${this.name}-${++this.seq}`;
    if (this.known.has(id)) return id;
    if (job.group && this.cancelled.has(job.group)) return id;
    this.known.add(id);
    this.waiting.push({ id, spec: job, attempt: 1 });
    this.pump();
    return id;
  }

  async enqueueMany(jobs: JobSpec[]): Promise<string[]> {
    const ids: string[] = [];
    for (const j of jobs) ids.push(await this.enqueue(j));
    return ids;
  }

  async process(handler: JobHandler, opts: ProcessOptions = {}): Promise<void> {
    this.handler = handler;
    this.concurrency = Math.max(1, opts.concurrency ?? 4);
    this.pump();
  }

  on(listener: (e: QueueEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async counts(): Promise<QueueCounts> {
    return {
      waiting: this.waiting.length,
      active: this.active,
      delayed: this.delayed,
      completed: this.completed,
      failed: this.failed,
    };
  }

  async cancelGroup(group: string): Promise<number> {
    this.cancelled.add(group);
    if (this.cancelled.size > 10_000) this.cancelled.delete(this.cancelled.values().next().value!);
    let n = 0;
    for (let i = this.waiting.length - 1; i >= 0; i--)
      if (this.waiting[i]!.spec.group === group) {
        this.waiting.splice(i, 1);
        n++;
      }
    for (const [entry, ctl] of this.running)
      if (entry.spec.group === group && !ctl.signal.aborted) {
        ctl.abort(new Error(`group ${group} was cancelled`));
        n++;
      }
    if (this.idle()) for (const w of this.idleWaiters.splice(0)) w();
    return n;
  }

  async ping(): Promise<boolean> {
    return !this.closed;
  }

  drained(): Promise<void> {
    if (this.idle()) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiting.length = 0;
    await this.drained();
  }

  private idle(): boolean {
    return this.waiting.length === 0 && this.active === 0 && this.delayed === 0;
  }

  private emit(e: QueueEvent): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // a listener's failure must not break the queue
      }
    }
  }

  private pump(): void {
    while (this.handler && !this.closed && this.active < this.concurrency && this.waiting.length > 0) {
      const entry = this.waiting.shift()!;
      this.active++;
      void this.run(entry, this.handler).finally(() => {
        this.active--;
        this.pump();
        if (this.idle()) for (const w of this.idleWaiters.splice(0)) w();
      });
    }
  }

  private async run(entry: Entry, handler: JobHandler): Promise<void> {
    const { spec, id } = entry;
    const attempts = spec.attempts ?? DEFAULT_ATTEMPTS;
    const ctl = new AbortController();
    this.running.set(entry, ctl);
    try {
      const result = await handler({
        id,
        name: spec.name,
        data: spec.data,
        attempt: entry.attempt,
        attempts,
        progress: async (value) => this.emit({ type: 'progress', id, name: spec.name, value }),
        signal: ctl.signal,
      });
      this.completed++;
      this.emit({ type: 'completed', id, name: spec.name, result });
    } catch (e) {
      const final =
        e instanceof PermanentJobError || entry.attempt >= attempts || this.closed || ctl.signal.aborted;
      this.emit({
        type: 'failed',
        id,
        name: spec.name,
        error: String((e as Error)?.message ?? e),
        final,
        data: spec.data,
      });
      if (final) {
        this.failed++;
        return;
      }
      const delay = (spec.backoffMs ?? DEFAULT_BACKOFF_MS) * 2 ** (entry.attempt - 1);
      this.delayed++;
      setTimeout(() => {
        this.delayed--;
        if (!(spec.group && this.cancelled.has(spec.group)))
          this.waiting.push({ ...entry, attempt: entry.attempt + 1 });
        this.pump();
        if (this.idle()) for (const w of this.idleWaiters.splice(0)) w();
      }, delay);
    } finally {
      this.running.delete(entry);
    }
  }
}
