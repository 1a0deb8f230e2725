/**
 * The daily item quota of POST /v1/score, kept in the database (key_usage.score_items) so it survives
 * restarts and holds across server processes. Each request would otherwise cost a database write, so a
 * process leases items in blocks (5% of the quota, at most 10,000, and never more than the quota left) and
 * spends them from memory; a lease unused when the process stops stays counted — the quota errs on the
 * safe side.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/open.ts';
import { keyUsage } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import { utcDay } from './runs.ts';

export class ScoreQuota {
  private day = '';
  private readonly left = new Map<string, number>();

  constructor(private readonly db: Db) {}

  /** Adds `n` to the key's leased items in the database when it fits under `limit`; false otherwise. */
  private async lease(keyId: string, day: string, n: number, limit: number): Promise<boolean> {
    if (n > limit) return false;
    const [row] = await this.db
      .insert(keyUsage)
      .values({ keyId, day, scoreItems: n })
      .onConflictDoUpdate({
        target: [keyUsage.keyId, keyUsage.day],
        set: { scoreItems: sql`${keyUsage.scoreItems} + ${n}` },
        setWhere: sql`${keyUsage.scoreItems} + ${n} <= ${limit}`,
      })
      .returning({ used: keyUsage.scoreItems });
    return !!row;
  }

  private readonly chains = new Map<string, Promise<unknown>>();

  /**
   * Takes `n` items of the key's quota for today or throws a 429. Takes of one key run one after the
   * other, so concurrent requests share one lease instead of each writing the database.
   */
  take(keyId: string, n: number, limit: number): Promise<void> {
    const have = this.left.get(keyId) ?? 0;
    if (!this.chains.has(keyId) && have >= n && this.day === utcDay()) {
      this.left.set(keyId, have - n); // the common case: spent from the lease, no waiting
      return Promise.resolve();
    }
    const prev = this.chains.get(keyId) ?? Promise.resolve();
    const next = prev.catch(() => {}).then(() => this.takeNow(keyId, n, limit));
    this.chains.set(keyId, next);
    void next
      .finally(() => {
        if (this.chains.get(keyId) === next) this.chains.delete(keyId);
      })
      .catch(() => {});
    return next;
  }

  private async takeNow(keyId: string, n: number, limit: number): Promise<void> {
    const day = utcDay();
    if (day !== this.day) {
      this.day = day;
      this.left.clear();
    }
    const have = this.left.get(keyId) ?? 0;
    if (have >= n) {
      this.left.set(keyId, have - n);
      return;
    }
    const block = Math.max(n - have, Math.min(10_000, Math.floor(limit / 20)));
    if (await this.lease(keyId, day, block, limit)) {
      this.left.set(keyId, (this.left.get(keyId) ?? 0) + block - n);
      return;
    }
    if (block > n - have && (await this.lease(keyId, day, n - have, limit))) {
      this.left.set(keyId, (this.left.get(keyId) ?? 0) - have);
      return;
    }
    const [u] = await this.db
      .select({ used: keyUsage.scoreItems })
      .from(keyUsage)
      .where(and(eq(keyUsage.keyId, keyId), eq(keyUsage.day, day)));
    const used = Math.max(0, (u?.used ?? 0) - (this.left.get(keyId) ?? 0));
    throw new ApiError(
      429,
      'quota_exceeded',
      `item quota reached: ${used} + ${n} exceeds ${limit} items per day (UTC)`,
      { quota: 'items_per_day', limit, used },
    );
  }
}
