/**
 * In-memory index of stored entries: per repository, for each issue number, the stored row's
 * `updated_at` (epoch ms) and fingerprint, in typed arrays indexed by number (issue numbers are dense,
 * so this costs 16 bytes per number instead of a few hundred for a Map of objects). It is what keeps
 * (repo, number) unique in `entries`: a DuckDB file has one writer process and every write goes
 * through the store, so the index stays exact (`Store.all` clears it after any other write).
 * @module
 */
import type { Db } from './db.ts';

/** What the index knows of one stored entry. */
export interface Known {
  /** `updated_at` as epoch ms (NaN when it does not parse). */
  ms: number;
  fp: bigint;
}

/** The known entries of one repository. */
export class RepoIndex {
  private ms = new Float64Array(0);
  private fps = new BigInt64Array(0);
  private present = new Uint8Array(0);

  get(num: number): Known | undefined {
    if (num >= this.present.length || this.present[num] !== 1) return undefined;
    return { ms: this.ms[num] ?? Number.NaN, fp: this.fps[num] ?? 0n };
  }

  set(num: number, k: Known): void {
    if (num >= this.present.length) this.grow(num + 1);
    this.ms[num] = k.ms;
    this.fps[num] = k.fp;
    this.present[num] = 1;
  }

  private grow(min: number): void {
    const size = Math.max(min, this.present.length * 2, 1024);
    const ms = new Float64Array(size);
    ms.set(this.ms);
    const fps = new BigInt64Array(size);
    fps.set(this.fps);
    const present = new Uint8Array(size);
    present.set(this.present);
    this.ms = ms;
    this.fps = fps;
    this.present = present;
  }
}

export class EntryIndex {
  private repos = new Map<string, RepoIndex>();
  private seq = 0;

  /** Sets the next checkpoint-log sequence number (from the stored maximum). */
  startSeq(next: number): void {
    this.seq = next;
  }

  nextSeq(): number {
    return this.seq++;
  }

  /** The index of one repository, loaded from the store on first use. */
  async forRepo(db: Db, repo: string): Promise<RepoIndex> {
    let m = this.repos.get(repo);
    if (m) return m;
    m = new RepoIndex();
    const rows = await db.all<{ number: number; updated_at: string; fp: bigint | number | string }>(
      'SELECT number, updated_at, fp FROM entries WHERE repo = $1',
      [repo],
    );
    for (const r of rows) m.set(r.number, { ms: Date.parse(r.updated_at), fp: BigInt(r.fp) });
    this.repos.set(repo, m);
    return m;
  }

  /** Forgets everything (after writes the index did not see, or a rollback). */
  clear(): void {
    this.repos.clear();
  }
}
