/**
 * A pool of scoring workers (Bun Workers) behind one promise-per-job interface. With one thread the jobs run
 * in this process; with N, this thread is one of the N lanes and N − 1 workers are the others. Jobs go out in small batches; each job carries an affinity key (the reference text, the
 * item id) and goes to the worker that key hashes to, so the worker's CodeBLEU cache sees every use of that
 * text and parses it once, unless that worker is well behind the others (then the least busy one takes it).
 * Results are values of pure functions of the job, so they are the same for any number of threads; callers
 * keep the input order by awaiting the promises in order. A whole `scoreTask` call (`task`) has no affinity: it
 * goes to the least busy lane; a server creates the pool without the inline lane, so its event loop stays free.
 * @module
 */
import { availableParallelism, cpus } from 'node:os';
import type { ItemResult } from '../score/items.ts';
import type { TaskScore } from '../score/task.ts';
import {
  type ItemJob,
  type Job,
  type JobBatch,
  type JobReply,
  type PairJob,
  replyError,
  runJob,
  type TaskJob,
} from './jobs.ts';

/** Runs scoring jobs, in this process or spread over workers. */
export interface Scorer {
  readonly threads: number;
  pair(job: Omit<PairJob, 'kind'>): Promise<Record<string, number>>;
  item(job: Omit<ItemJob, 'kind'>, affinity: string): Promise<ItemResult>;
  /** One whole `scoreTask` call. */
  task(job: Omit<TaskJob, 'kind'>): Promise<TaskScore>;
  /** Stops the workers (after the jobs already given finish). */
  close(): Promise<void>;
  /** Stops the workers now; the jobs not finished fail with `reason`. */
  terminate(reason: Error): void;
}

export interface ScorerOptions {
  /** This thread is one of the lanes (default true); false: every lane is a worker, even with one thread. */
  inline?: boolean;
  /** The workers do not keep the process alive (a server's pool). */
  unref?: boolean;
}

/** The machine's cores (the default `--threads`). */
export function machineThreads(): number {
  try {
    return Math.max(1, availableParallelism());
  } catch {
    return Math.max(1, cpus().length);
  }
}

/** Jobs per message to a worker. */
const BATCH = 16;
/**
 * A lane this many jobs behind the least busy one loses new jobs to it: small, so a worker still warming up
 * (its first batches run slowly) does not hold up the in-order results for long.
 */
const SLACK = BATCH;

/**
 * Marks a job's promise as handled: callers await results in input order, so a job may fail before its
 * turn comes, which must not count as an unhandled rejection. The caller still sees the rejection.
 */
function handled<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}

class InlineScorer implements Scorer {
  readonly threads = 1;
  private tail: Promise<unknown> = Promise.resolve();
  /**
   * Runs jobs one after another, each on a later turn of the event loop than the end of the one before, so
   * what the caller does with a result (writing it out) happens before the next job starts.
   */
  private deferred(job: Job): Promise<unknown> {
    const next = this.tail
      .catch(() => {})
      .then(() => new Promise((r) => setImmediate(r)))
      .then(() => runJob(job));
    this.tail = next;
    return next;
  }
  pair(job: Omit<PairJob, 'kind'>): Promise<Record<string, number>> {
    return handled(this.deferred({ kind: 'pair', ...job }) as Promise<Record<string, number>>);
  }
  item(job: Omit<ItemJob, 'kind'>): Promise<ItemResult> {
    return handled(this.deferred({ kind: 'item', ...job }) as Promise<ItemResult>);
  }
  task(job: Omit<TaskJob, 'kind'>): Promise<TaskScore> {
    return handled(this.deferred({ kind: 'task', ...job }) as Promise<TaskScore>);
  }
  async close(): Promise<void> {}
  terminate(): void {}
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/** Where a batch of jobs runs: a worker, or this thread. */
interface JobLane {
  readonly waiting: Map<number, Pending>;
  batch: { id: number; job: Job }[];
  failed: Error | null;
  readonly load: number;
  flush(): void;
  stop(): void;
}

/**
 * This thread as one of the lanes: it would otherwise mostly wait, and a lane here costs no second copy of
 * the grammars and compiled code. Batches run one macrotask each, so reading and writing go on between them.
 */
class InlineLane implements JobLane {
  readonly waiting = new Map<number, Pending>();
  batch: { id: number; job: Job }[] = [];
  failed: Error | null = null;

  get load(): number {
    return this.waiting.size;
  }

  flush(): void {
    if (!this.batch.length) return;
    const jobs = this.batch;
    this.batch = [];
    setImmediate(async () => {
      for (const { id, job } of jobs) {
        const p = this.waiting.get(id);
        if (!p) continue;
        try {
          const v = await runJob(job);
          this.waiting.delete(id);
          p.resolve(v);
        } catch (e) {
          this.waiting.delete(id);
          p.reject(e instanceof Error ? e : new Error(String(e)));
        }
      }
    });
  }

  stop(): void {}
}

class Lane implements JobLane {
  readonly worker: Worker;
  readonly waiting = new Map<number, Pending>();
  batch: { id: number; job: Job }[] = [];
  failed: Error | null = null;

  constructor(url: URL, unref: boolean) {
    this.worker = new Worker(url);
    if (unref) (this.worker as unknown as { unref(): void }).unref();
    this.worker.onmessage = (e: MessageEvent<JobReply[]>) => {
      for (const r of e.data) {
        const p = this.waiting.get(r.id);
        if (!p) continue;
        this.waiting.delete(r.id);
        if (r.ok) p.resolve(r.value);
        else p.reject(replyError(r));
      }
    };
    this.worker.onerror = (e: ErrorEvent) => this.fail(new Error(`scoring worker failed: ${e.message}`));
  }

  fail(err: Error): void {
    this.failed = err;
    for (const p of this.waiting.values()) p.reject(err);
    this.waiting.clear();
  }

  get load(): number {
    return this.waiting.size;
  }

  flush(): void {
    if (!this.batch.length) return;
    const msg: JobBatch = { jobs: this.batch };
    this.batch = [];
    this.worker.postMessage(msg);
  }

  stop(): void {
    this.worker.terminate();
  }
}

/** 32-bit FNV-1a of a string's UTF-16 units (cheap and stable). */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

class WorkerScorer implements Scorer {
  private readonly lanes: JobLane[];
  private nextId = 0;
  private flushScheduled = false;

  constructor(
    readonly threads: number,
    o: ScorerOptions,
  ) {
    const url = new URL('./worker.ts', import.meta.url);
    const inline = o.inline !== false;
    const workers = Array.from(
      { length: inline ? threads - 1 : threads },
      () => new Lane(url, o.unref === true),
    );
    this.lanes = inline ? [new InlineLane(), ...workers] : workers;
  }

  /** `affinity` picks the lane (unless it is well behind); without one, the least busy lane. */
  private submit(job: Job, affinity?: string): Promise<unknown> {
    let least = this.lanes[0] as JobLane;
    for (const l of this.lanes) if (l.load < least.load) least = l;
    let lane = affinity === undefined ? least : (this.lanes[hash(affinity) % this.lanes.length] as JobLane);
    if (lane.load > least.load + SLACK) lane = least;
    if (lane.failed) return Promise.reject(lane.failed);
    const id = this.nextId++;
    const p = handled(new Promise<unknown>((resolve, reject) => lane.waiting.set(id, { resolve, reject })));
    lane.batch.push({ id, job });
    if (lane.batch.length >= BATCH) lane.flush();
    else if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        for (const l of this.lanes) l.flush();
      });
    }
    return p;
  }

  pair(job: Omit<PairJob, 'kind'>): Promise<Record<string, number>> {
    return this.submit({ kind: 'pair', ...job }, job.ref) as Promise<Record<string, number>>;
  }

  item(job: Omit<ItemJob, 'kind'>, affinity: string): Promise<ItemResult> {
    return this.submit({ kind: 'item', ...job }, affinity) as Promise<ItemResult>;
  }

  task(job: Omit<TaskJob, 'kind'>): Promise<TaskScore> {
    return this.submit({ kind: 'task', ...job }) as Promise<TaskScore>;
  }

  terminate(reason: Error): void {
    for (const l of this.lanes) {
      l.stop();
      for (const p of l.waiting.values()) p.reject(reason);
      l.waiting.clear();
      l.batch = [];
    }
  }

  async close(): Promise<void> {
    for (const l of this.lanes) l.flush();
    const left = this.lanes.flatMap((l) =>
      [...l.waiting.values()].map(
        (p) =>
          new Promise<void>((done) => {
            const { resolve, reject } = p;
            p.resolve = (v) => {
              resolve(v);
              done();
            };
            p.reject = (e) => {
              reject(e);
              done();
            };
          }),
      ),
    );
    await Promise.all(left);
    for (const l of this.lanes) l.stop();
  }
}

/** A scorer with `threads` lanes (1 = this process unless `inline: false`; default: the machine's cores). */
export function createScorer(threads: number = machineThreads(), o: ScorerOptions = {}): Scorer {
  if (!Number.isInteger(threads) || threads < 1)
    throw new Error(`threads must be a positive integer, got ${threads}`);
  return threads === 1 && o.inline !== false ? new InlineScorer() : new WorkerScorer(threads, o);
}

/**
 * A value still being computed. Async generators await a yielded promise before handing it on, so a
 * generator that wants to keep going while a job runs yields the promise wrapped in this.
 */
export class Later<T> {
  constructor(readonly promise: Promise<T>) {
    promise.catch(() => {}); // a rejection surfaces when inOrder awaits it
  }
}

/**
 * Yields the values of `source` in order, awaiting the {@link Later} ones, while keeping up to `window` of
 * them in flight (so a pool has work queued while the caller writes earlier results).
 */
export async function* inOrder<T>(source: AsyncIterable<T | Later<T>>, window: number): AsyncGenerator<T> {
  const queue: (T | Later<T>)[] = [];
  let inFlight = 0;
  const take = async (): Promise<T> => {
    const v = queue.shift() as T | Later<T>;
    if (!(v instanceof Later)) return v;
    inFlight--;
    return await v.promise;
  };
  for await (const v of source) {
    queue.push(v);
    if (v instanceof Later) inFlight++;
    while (inFlight >= window || (queue.length > 0 && !(queue[0] instanceof Later))) yield await take();
  }
  while (queue.length) yield await take();
}
