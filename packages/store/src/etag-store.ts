/**
 * The crawler's conditional-request cache, kept in the store's DuckDB file (table `etag_cache`, created
 * on first use; not a content table, so it is in no content hash or export). Keyed by (identity, URL):
 * GitHub's ETags depend on the credentials. Sized for a whole crawl — one row per GET answer, no
 * eviction — and written in batches, not rewritten whole. Structurally an `EtagCache` of
 * `@faun/github`.
 */
import type { DuckDBValue } from '@duckdb/node-api';
import type { Db } from './db.ts';

export interface CachedAnswer {
  etag: string;
  data: unknown;
  headers: Record<string, string>;
}

const CREATE = `CREATE TABLE IF NOT EXISTS etag_cache (
  identity VARCHAR NOT NULL, url VARCHAR NOT NULL, etag VARCHAR NOT NULL, headers VARCHAR NOT NULL,
  data VARCHAR NOT NULL, PRIMARY KEY (identity, url))`;
const BATCH = 256;

export class EtagStore {
  readonly stats = { hits: 0, stores: 0 };
  private ready: Promise<void> | null = null;
  private pending = new Map<string, [string, string, CachedAnswer]>();

  constructor(private readonly db: Db) {}

  private init(): Promise<void> {
    this.ready ??= this.db.exclusive(() => this.db.run(CREATE));
    return this.ready;
  }

  async get(identity: string, url: string): Promise<CachedAnswer | undefined> {
    const p = this.pending.get(`${identity}\n${url}`);
    if (p) return p[2];
    await this.init();
    const [row] = await this.db.exclusive(() =>
      this.db.all<{ etag: string; headers: string; data: string }>(
        'SELECT etag, headers, data FROM etag_cache WHERE identity = ? AND url = ?',
        [identity, url],
      ),
    );
    if (!row) return undefined;
    return { etag: row.etag, headers: JSON.parse(row.headers), data: JSON.parse(row.data) };
  }

  async set(identity: string, url: string, value: CachedAnswer): Promise<void> {
    this.pending.set(`${identity}\n${url}`, [identity, url, value]);
    this.stats.stores++;
    if (this.pending.size >= BATCH) await this.flush();
  }

  /** Writes pending answers (one statement per batch). */
  async flush(): Promise<void> {
    if (!this.pending.size) return;
    const rows = [...this.pending.values()];
    this.pending = new Map();
    await this.init();
    const params: DuckDBValue[] = [];
    for (const [identity, url, v] of rows)
      params.push(identity, url, v.etag, JSON.stringify(v.headers), JSON.stringify(v.data));
    const values = rows.map(() => '(?, ?, ?, ?, ?)').join(', ');
    await this.db.exclusive(() => this.db.run(`INSERT OR REPLACE INTO etag_cache VALUES ${values}`, params));
  }

  /** Rows stored (pending ones included once written). */
  async size(): Promise<number> {
    await this.flush();
    const [r] = await this.db.exclusive(() =>
      this.db.all<{ n: number }>('SELECT count(*)::INTEGER AS n FROM etag_cache'),
    );
    return Number(r?.n ?? 0);
  }
}
