/**
 * The faun store: one DuckDB file holding the crawl (entries, comments, events, cross-references, PR
 * files, repository metadata, checkpoints) and curation's outputs (pairs, funnel, task items).
 * @module
 */

import { resolve } from 'node:path';
import type { DuckDBValue } from '@duckdb/node-api';
import { FaunError, UsageError } from '@faun/kit';
import {
  type Comment,
  type CrossRef,
  type FixPair,
  type FunnelRow,
  type IssueEvent,
  type PrFile,
  type RawEntry,
  type TaskItem,
  TaskItem as TaskItemSchema,
} from '@faun/schema';
import { type Checkpoint, type CrawlBatch, type RepoMeta, validateBatch } from './batch.ts';
import { Db } from './db.ts';
import { EntryIndex } from './entry-index.ts';
import { EtagStore } from './etag-store.ts';
import { createStages } from './ingest.ts';
import { migrate } from './migrations.ts';
import { countsQuery, funnelStagesQuery, type RepoCounts, type StageCounts } from './queries.ts';
import {
  funnelToRow,
  pairToRow,
  rowToCheckpoint,
  rowToComment,
  rowToCrossref,
  rowToEntry,
  rowToEvent,
  rowToFunnel,
  rowToPair,
  rowToPrFile,
} from './rows.ts';
import { contentHashOf, exportTableTo } from './snapshot.ts';
import { FUNNEL, PAIRS, TASK_ITEMS, tableByName } from './tables.ts';
import { type CommitPolicy, DEFAULT_POLICY, GroupWriter } from './writer.ts';

export interface OpenOptions {
  /** Open without writing (several readers may share a file no writer holds). The file must exist. */
  readOnly?: boolean;
  /** Group commit of ingested batches (default: 50 batches or 1 s); `{ maxBatches: 1 }` commits each. */
  commit?: Partial<CommitPolicy>;
  /**
   * WAL size at which DuckDB checkpoints into the file (default `256MB`): larger saves CPU in bulk
   * ingest but holds more uncheckpointed data in memory and replays more after a crash.
   */
  walLimit?: string;
}

/** Store files open in this process (resolved paths). */
const OPEN = new Set<string>();

const READ_PREFIX = /^\s*(select|with|pragma|describe|show|explain|summarize|from)\b/i;

/**
 * A faun store opened by this process (DuckDB allows one writing process per file). Every method is
 * safe to call concurrently: work is serialised on the store's connection, and `entries()` reads a
 * snapshot on a connection of its own. See the package README for the ingest rules.
 */
export class Store {
  private readonly index = new EntryIndex();
  private readonly writer: GroupWriter;

  private constructor(
    private readonly db: Db,
    readonly path: string,
    readonly readOnly: boolean,
    policy: CommitPolicy,
  ) {
    this.writer = new GroupWriter(db, this.index, policy);
  }

  /**
   * Opens (creating if needed) a store; applies pending migrations unless read-only. A file can be
   * open once per process: DuckDB's file lock does not stop a second instance in the same process,
   * and two instances on one file would corrupt it.
   */
  static async open(path: string, opts: OpenOptions = {}): Promise<Store> {
    const readOnly = opts.readOnly ?? false;
    const key = path === ':memory:' ? null : resolve(path);
    if (key && OPEN.has(key)) {
      throw new FaunError(`store ${path} is already open in this process`, {
        hint: 'close the other Store on this file first, or share that one',
      });
    }
    const db = await Db.open(path, readOnly, opts.walLimit);
    if (key) OPEN.add(key);
    let store: Store;
    try {
      await migrate(db, path, readOnly);
      store = new Store(db, path, readOnly, { ...DEFAULT_POLICY, ...opts.commit });
      if (!readOnly) {
        await createStages(db);
        await store.compactCheckpoints();
        process.on('beforeExit', store.onBeforeExit);
      }
    } catch (err) {
      if (key) OPEN.delete(key);
      await db.close();
      throw err;
    }
    store.key = key;
    return store;
  }

  /** Keeps only the latest checkpoint per (repo, stream) and continues the log's sequence. */
  private async compactCheckpoints(): Promise<void> {
    await this.db.run(
      'DELETE FROM checkpoint_log WHERE seq NOT IN (SELECT max(seq) FROM checkpoint_log GROUP BY repo, stream)',
    );
    const [r] = await this.db.all<{ next: number }>(
      'SELECT coalesce(max(seq), -1) + 1 AS next FROM checkpoint_log',
    );
    this.index.startSeq(r?.next ?? 0);
  }

  private etagStore: EtagStore | null = null;

  /** The crawler's conditional-request cache in this file (etag-store.ts). */
  etags(): EtagStore {
    this.etagStore ??= new EtagStore(this.db);
    return this.etagStore;
  }

  /** Commits pending batches and closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.etagStore?.flush();
    this.closed = true;
    process.off('beforeExit', this.onBeforeExit);
    try {
      if (!this.readOnly) await this.writer.flush();
      await this.db.close();
    } finally {
      if (this.key) OPEN.delete(this.key);
    }
  }

  private key: string | null = null;

  private closed = false;

  /** A process that ends without `close()` still commits its pending batches. */
  private readonly onBeforeExit = (): void => {
    if (this.writer.uncommitted > 0) this.writer.flush().catch(() => {});
  };

  /** Batches ingested but not yet committed (group commit). */
  get uncommitted(): number {
    return this.writer.uncommitted;
  }

  /** Commits the batches ingested so far (they are durable when this resolves). */
  async flush(): Promise<void> {
    if (!this.readOnly) await this.writer.flush();
  }

  /** `query` for record reads: rows decoded from DuckDB's JSON (faster for many rows). */
  private queryJson(sql: string, params: DuckDBValue[], order: string): Promise<Record<string, unknown>[]> {
    return this.db.exclusive(() => this.db.allJson(sql, params, order));
  }

  /** Runs a query after earlier work, on the writing connection (it sees uncommitted batches too). */
  private query<T = Record<string, unknown>>(sql: string, params: DuckDBValue[] = []): Promise<T[]> {
    return this.db.exclusive(() => this.db.all<T>(sql, params));
  }

  /** Runs a write in its own transaction, after committing pending batches. */
  private write<T>(what: string, fn: () => Promise<T>): Promise<T> {
    this.writable(what);
    return this.db.exclusive(async () => {
      await this.writer.commitLocked();
      return this.db.transaction(fn);
    });
  }

  private writable(what: string): void {
    if (this.readOnly) throw new UsageError(`${what}: store ${this.path} was opened read-only`);
  }

  /**
   * Writes one batch atomically: all its rows and its checkpoint, or nothing (a bad record fails the
   * whole batch; a crash before commit loses whole batches, never half of one). Batches are group-
   * committed (see `OpenOptions.commit`); pass `durable` or call `flush()` to commit at once.
   * Re-ingesting a row changes nothing;
   * a row with a newer `updated_at` replaces the stored one; an equal `updated_at` fills in fields the
   * stored row lacks (e.g. PR details crawled later).
   */
  async ingest(batch: CrawlBatch, opts: { durable?: boolean } = {}): Promise<void> {
    this.writable('ingest');
    await this.writer.ingest(validateBatch(batch), opts.durable ?? false);
  }

  /** The checkpoint of one stream of a repository, or null when it never started. */
  async checkpoint(repo: string, stream: string): Promise<Checkpoint | null> {
    const rows = await this.query('SELECT * FROM checkpoints WHERE repo = $1 AND stream = $2', [
      repo,
      stream,
    ]);
    return rows[0] ? rowToCheckpoint(rows[0]) : null;
  }

  /** All checkpoints (of one repository), ordered by repo and stream. */
  async checkpoints(repo?: string): Promise<Checkpoint[]> {
    const rows = repo
      ? await this.query('SELECT * FROM checkpoints WHERE repo = $1 ORDER BY stream', [repo])
      : await this.query('SELECT * FROM checkpoints ORDER BY repo, stream');
    return rows.map(rowToCheckpoint);
  }

  /** Records repository metadata (replaces the stored row). */
  async setRepoMeta(meta: RepoMeta): Promise<void> {
    await this.ingest({ repos: [meta] });
  }

  async repoMeta(repo: string): Promise<RepoMeta | null> {
    const r = (await this.query('SELECT * FROM repos WHERE repo = $1', [repo]))[0];
    return r ? (r as unknown as RepoMeta) : null;
  }

  /** Repositories that have entries or metadata, sorted. */
  async repos(): Promise<string[]> {
    const rows = await this.query<{ repo: string }>(
      'SELECT repo FROM (SELECT DISTINCT repo FROM entries UNION SELECT repo FROM repos) ORDER BY repo',
    );
    return rows.map((r) => r.repo);
  }

  /** Per-repository counts: issues and PRs by state, merged PRs, comments, events, cross-refs, pairs. */
  async counts(): Promise<RepoCounts[]> {
    return this.query<RepoCounts>(countsQuery());
  }

  /** Per-repository sizes of the curation stages (the SQL views), for the funnel. */
  async stageCounts(repo?: string): Promise<StageCounts[]> {
    return this.query<StageCounts>(funnelStagesQuery(repo !== undefined), repo ? [repo] : []);
  }

  /**
   * sha256 over every content table in key order (checkpoints and fetch times excluded): two stores
   * with the same data have the same hash, whatever order it was ingested in.
   */
  async contentHash(): Promise<string> {
    return this.db.exclusive(() => contentHashOf(this.db));
  }

  /** Entries in (repo, number) order, streamed. */
  async *entries(filter: { repo?: string; kind?: 'issue' | 'pr' } = {}): AsyncIterable<RawEntry> {
    const where: string[] = [];
    const params: DuckDBValue[] = [];
    if (filter.repo !== undefined) where.push(`repo = $${params.push(filter.repo)}`);
    if (filter.kind !== undefined) where.push(`kind = $${params.push(filter.kind)}`);
    const sql = `SELECT * EXCLUDE (fp) FROM entries ${where.length ? `WHERE ${where.join(' AND ')}` : ''}`;
    await this.flush();
    for await (const r of this.db.streamJson(sql, params, 'repo, number')) yield rowToEntry(r);
  }

  /** One entry, or null. */
  async entry(repo: string, number: number): Promise<RawEntry | null> {
    const sql = 'SELECT * EXCLUDE (fp) FROM entries WHERE repo = $1 AND number = $2';
    const r = (await this.queryJson(sql, [repo, number], 'number'))[0];
    return r ? rowToEntry(r) : null;
  }

  /** Comments of a repository (or one issue), by number then id. */
  async comments(repo: string, number?: number): Promise<Comment[]> {
    return (await this.select('comments', repo, number, 'number, id')).map(rowToComment);
  }

  /** Events of a repository (or one issue), by number, time, id. */
  async events(repo: string, number?: number): Promise<IssueEvent[]> {
    return (await this.select('events', repo, number, 'number, created_at, id')).map(rowToEvent);
  }

  /** Cross-references whose target is in the repository (or is one issue). */
  async crossrefs(repo: string, number?: number): Promise<CrossRef[]> {
    const params: DuckDBValue[] = [repo];
    let sql = 'SELECT * FROM crossrefs WHERE target_repo = $1';
    if (number !== undefined) sql += ` AND target_number = $${params.push(number)}`;
    const order = 'target_number, source_repo, source_number, via';
    return (await this.queryJson(sql, params, order)).map(rowToCrossref);
  }

  /** The stored changed files of one PR, by filename. */
  async prFiles(repo: string, number: number): Promise<PrFile[]> {
    return (await this.select('pr_files', repo, number, 'filename')).map(rowToPrFile);
  }

  /** Changed files of every PR of a repository that has a stored file list. */
  async prFilesByNumber(repo: string): Promise<Map<number, PrFile[]>> {
    const m = new Map<number, PrFile[]>();
    for (const r of await this.select('pr_files', repo, undefined, 'number, filename')) {
      const n = Number(r.number);
      m.set(n, [...(m.get(n) ?? []), rowToPrFile(r)]);
    }
    return m;
  }

  private select(table: string, repo: string, number: number | undefined, order: string) {
    const params: DuckDBValue[] = [repo];
    const byNumber = number === undefined ? '' : ` AND number = $${params.push(number)}`;
    return this.queryJson(`SELECT * FROM ${table} WHERE repo = $1${byNumber}`, params, order);
  }

  /**
   * Stores fix pairs (upsert by repo, issue, PR). With `replace`, first removes every stored pair of the
   * repositories in `pairs` (a fresh curation run), in the same transaction.
   */
  async putPairs(pairs: FixPair[], opts: string | { runId?: string; replace?: boolean } = {}): Promise<void> {
    const o = typeof opts === 'string' ? { runId: opts } : opts;
    const rows = pairs.map((p) => pairToRow(p, o.runId ?? null));
    await this.write('putPairs', async () => {
      if (o.replace) {
        for (const repo of new Set(pairs.map((p) => p.repo))) {
          await this.db.run('DELETE FROM pairs WHERE repo = $1', [repo]);
        }
      }
      await this.replaceRows(PAIRS.name, rows);
    });
  }

  /** Stored fix pairs, by repo, issue, PR. */
  async pairs(repo?: string): Promise<FixPair[]> {
    const rows = repo
      ? await this.query('SELECT * FROM pairs WHERE repo = $1 ORDER BY issue, pr', [repo])
      : await this.query('SELECT * FROM pairs ORDER BY repo, issue, pr');
    return rows.map(rowToPair);
  }

  /** Stores funnel rows; replaces the stored rows of each (run, repo) present. */
  async putFunnel(rows: FunnelRow[]): Promise<void> {
    await this.write('putFunnel', async () => {
      for (const k of new Set(rows.map((r) => JSON.stringify([r.run_id ?? '', r.repo])))) {
        await this.db.run('DELETE FROM funnel WHERE run_id = $1 AND repo = $2', JSON.parse(k) as string[]);
      }
      await this.replaceRows(FUNNEL.name, rows.map(funnelToRow));
    });
  }

  /** Stored funnel rows (of one run), by run, repo, step order. */
  async funnel(runId?: string): Promise<FunnelRow[]> {
    const rows =
      runId === undefined
        ? await this.query('SELECT * FROM funnel ORDER BY run_id, repo, step_order')
        : await this.query('SELECT * FROM funnel WHERE run_id = $1 ORDER BY repo, step_order', [runId]);
    return rows.map(rowToFunnel);
  }

  /** Stores task items of a dataset (upsert by dataset, task, id). */
  async putTaskItems(dataset: string, items: TaskItem[]): Promise<void> {
    const rows = items.map((it) => [dataset, it.task, it.id, it.repo, JSON.stringify(it)]);
    await this.write('putTaskItems', () => this.replaceRows(TASK_ITEMS.name, rows));
  }

  /** Task items of a dataset (and task), by task then id. */
  async taskItems(dataset: string, task?: TaskItem['task']): Promise<TaskItem[]> {
    const params: DuckDBValue[] = [dataset];
    const byTask = task === undefined ? '' : ` AND task = $${params.push(task)}`;
    const rows = await this.query<{ json: string }>(
      `SELECT json FROM task_items WHERE dataset = $1${byTask} ORDER BY task, id`,
      params,
    );
    return rows.map((r) => TaskItemSchema.parse(JSON.parse(r.json)));
  }

  private async replaceRows(table: string, rows: unknown[][]): Promise<void> {
    const t = tableByName(table);
    if (!t || rows.length === 0) return;
    await this.db.append(t, rows, 'temp', `stage_${t.name}`);
    await this.db.run(`INSERT OR REPLACE INTO ${t.name} SELECT * FROM temp.stage_${t.name}`);
    await this.db.run(`DELETE FROM temp.stage_${t.name}`);
  }

  /**
   * Runs any SQL and returns its rows as plain objects (BIGINT → number). Meant for queries; a statement
   * that writes also works but bypasses the ingest rules.
   */
  async all<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    if (READ_PREFIX.test(sql)) return this.query<T>(sql, params as DuckDBValue[]);
    return this.db.exclusive(async () => {
      await this.writer.commitLocked();
      this.index.clear();
      return this.db.all<T>(sql, params as DuckDBValue[]);
    });
  }

  /** Writes a table (or view) to Parquet or JSONL via a temp file and rename, in key order. */
  async exportTable(table: string, path: string, format: 'parquet' | 'jsonl'): Promise<void> {
    await this.flush();
    await this.db.exclusive(() => exportTableTo(this.db, this.path, table, path, format));
  }
}
