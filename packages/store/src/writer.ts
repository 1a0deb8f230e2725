/**
 * Group commit: consecutive batches share one DuckDB transaction, committed after `maxBatches`
 * batches or `maxDelayMs`, on `flush()`, before reads on other connections, and on close. Each batch
 * still lands whole or not at all together with its checkpoint: a crash loses the batches since the
 * last commit — whole batches, with their checkpoints — so a resumed crawl refetches exactly those.
 * (A commit costs an fsync plus WAL work; one per 100-entry page would dominate a bulk crawl.)
 * @module
 */
import { FaunError } from '@faun/kit';
import type { ValidBatch } from './batch.ts';
import type { Db } from './db.ts';
import type { EntryIndex } from './entry-index.ts';
import { writeBatch } from './ingest.ts';

export interface CommitPolicy {
  /** Commit once this many batches are pending (1 = every ingest is durable when it resolves). */
  maxBatches: number;
  /** Commit once the oldest pending batch is this old (checked on ingest and by a timer). */
  maxDelayMs: number;
}

export const DEFAULT_POLICY: CommitPolicy = { maxBatches: 50, maxDelayMs: 1000 };

export class GroupWriter {
  private pending: ValidBatch[] = [];
  private openedAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** A failure of a timer-driven commit, reported by the next call. */
  private deferred: unknown = null;

  constructor(
    private readonly db: Db,
    private readonly index: EntryIndex,
    private readonly policy: CommitPolicy,
  ) {}

  /** Batches written but not yet committed. */
  get uncommitted(): number {
    return this.pending.length;
  }

  /** Writes a batch into the open transaction (opening one); commits per the policy or when `durable`. */
  ingest(batch: ValidBatch, durable: boolean): Promise<void> {
    return this.db.exclusive(async () => {
      this.throwDeferred();
      try {
        if (this.pending.length === 0) {
          await this.db.run('BEGIN TRANSACTION');
          this.openedAt = Date.now();
        }
        await writeBatch(this.db, this.index, batch);
        this.pending.push(batch);
      } catch (err) {
        await this.recover(err, batch);
        return;
      }
      const due = durable || this.pending.length >= this.policy.maxBatches;
      if (due || Date.now() - this.openedAt >= this.policy.maxDelayMs) await this.commitLocked();
      else this.arm();
    });
  }

  /** Commits the open transaction, if any. */
  flush(): Promise<void> {
    return this.db.exclusive(async () => {
      this.throwDeferred();
      await this.commitLocked();
    });
  }

  private throwDeferred(): void {
    const err = this.deferred;
    this.deferred = null;
    if (err) throw err;
  }

  /** Commits the open transaction; call inside `db.exclusive`. */
  async commitLocked(): Promise<void> {
    this.disarm();
    if (this.pending.length === 0) return;
    try {
      await this.db.run('COMMIT');
      this.pending = [];
    } catch (err) {
      await this.recover(err, null);
    }
  }

  private arm(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.policy.maxDelayMs - (Date.now() - this.openedAt));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.db
        .exclusive(() => this.commitLocked())
        .catch((err: unknown) => {
          this.deferred = err;
        });
    }, wait);
    this.timer.unref?.();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * After a failed write or commit: roll back, then write the earlier batches of the group again, each
   * in its own transaction, and the failing one last, so only batches that fail on their own are lost.
   */
  private async recover(err: unknown, current: ValidBatch | null): Promise<void> {
    this.disarm();
    await this.db.rollback();
    this.index.clear();
    const replay = current ? [...this.pending, current] : this.pending;
    this.pending = [];
    const failed: string[] = [];
    let currentError: unknown = current ? err : null;
    for (const b of replay) {
      try {
        await this.db.transaction(() => writeBatch(this.db, this.index, b));
        if (b === current) currentError = null;
      } catch (e) {
        this.index.clear();
        if (b === current) currentError = e;
        else failed.push(`${describe(b)}: ${message(e)}`);
      }
    }
    if (currentError || failed.length) {
      const lost = failed.length
        ? `; earlier batches lost (resume from their checkpoints): ${failed.join('; ')}`
        : '';
      const cause = currentError ?? err;
      throw new FaunError(`ingest failed; nothing from this batch was written${lost}`, {
        hint: message(cause),
        cause,
      });
    }
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function describe(b: ValidBatch): string {
  const cp = b.checkpoints[0];
  return cp
    ? `batch for ${cp.repo} ${cp.stream} (cursor ${cp.cursor ?? 'start'})`
    : `batch of ${b.entries.length} entries`;
}
