/**
 * The thin edge over `@duckdb/node-api`: opening a file with clear errors, queries returning plain JS
 * objects, chunked appends, and one-at-a-time transactions.
 * @module
 */
import { closeSync, existsSync, mkdirSync, openSync, readSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  type DuckDBAppender,
  type DuckDBConnection,
  DuckDBDataChunk,
  DuckDBInstance,
  type DuckDBValue,
  listValue,
} from '@duckdb/node-api';
import { FaunError, InputError, PrerequisiteError } from '@faun/kit';
import type { Row } from './rows.ts';
import type { TableDef } from './tables.ts';

/** Largest number of rows one DuckDB data chunk holds. */
const CHUNK = 2048;

/** Converts DuckDB result values to plain JS: BIGINT → number when safe (else string). */
function plain(v: unknown): unknown {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v.toString();
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

/** True when `path` starts like a DuckDB database file (magic `DUCK` at byte 8), or is empty. */
function isDuckDbFile(path: string): boolean {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(12);
    const n = readSync(fd, head, 0, 12, 0);
    return n === 0 || (n === 12 && head.toString('latin1', 8, 12) === 'DUCK');
  } finally {
    closeSync(fd);
  }
}

/** Turns a DuckDB open error into one that says what to do. */
export function openError(path: string, err: unknown): FaunError {
  const msg = err instanceof Error ? err.message : String(err);
  const lock = /Conflicting lock is held in (.*?) \(PID (\d+)\)/.exec(msg);
  if (lock || /Could not set lock/.test(msg)) {
    const who = lock ? `${lock[1]} (PID ${lock[2]})` : 'another process';
    return new PrerequisiteError(`store ${path} is locked by ${who}`, {
      hint: `wait for that process (e.g. a running faun crawl or curate) to finish, or stop it${
        lock ? ` with 'kill ${lock[2]}'` : ''
      }; a DuckDB file has one writer, or several readers but no writer`,
      cause: err,
    });
  }
  if (/not a valid DuckDB database|database file .* is not valid|Failed to read database header/i.test(msg)) {
    return new InputError(`${path} is not a DuckDB database, so not a faun store`, {
      hint: 'pass the .duckdb file written by faun crawl (--db)',
      cause: err,
    });
  }
  return new FaunError(`cannot open store ${path}: ${msg}`, { cause: err });
}

/**
 * One DuckDB connection. Callers serialise their work with `exclusive`; appends are buffered in open
 * appenders that are flushed before any other statement runs (so every statement sees them).
 */
export class Db {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly appenders = new Map<string, DuckDBAppender>();
  /**
   * One reusable data chunk per table: a chunk's native memory is freed only when the JS object is
   * collected, and the collector does not see that memory, so fresh chunks per page pile up.
   */
  private readonly chunks = new Map<string, DuckDBDataChunk>();

  private constructor(
    readonly instance: DuckDBInstance,
    readonly conn: DuckDBConnection,
  ) {}

  static async open(path: string, readOnly: boolean, walLimit = '256MB'): Promise<Db> {
    if (readOnly && path !== ':memory:' && !existsSync(path)) {
      throw new InputError(`store ${path} does not exist`, {
        hint: 'check the --db path, or create the store with faun crawl',
      });
    }
    if (path !== ':memory:' && existsSync(path) && !isDuckDbFile(path))
      throw new InputError(`${path} is not a DuckDB database, so not a faun store`, {
        hint: 'pass the .duckdb file written by faun crawl (--db)',
      });
    if (!readOnly && path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
    try {
      const options: Record<string, string> = {
        threads: '2',
        // A larger WAL before DuckDB checkpoints (compresses into the file) saves CPU in bulk ingest.
        ...(readOnly ? {} : { checkpoint_threshold: walLimit }),
      };
      if (readOnly) options.access_mode = 'READ_ONLY';
      const instance = await DuckDBInstance.create(path, options);
      return new Db(instance, await instance.connect());
    } catch (err) {
      throw openError(path, err);
    }
  }

  async run(sql: string, params: DuckDBValue[] = []): Promise<void> {
    this.flushAppenders();
    await this.conn.run(sql, params);
  }

  /** Runs a query and returns rows as plain objects. */
  async all<T = Record<string, unknown>>(sql: string, params: DuckDBValue[] = []): Promise<T[]> {
    this.flushAppenders();
    const reader = await this.conn.runAndReadAll(sql, params);
    return reader.getRowObjectsJS().map((o) => {
      const r: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(o)) r[k] = plain(v);
      return r as T;
    });
  }

  /**
   * Streams a query's rows as objects decoded from DuckDB's `to_json` (several times faster than
   * converting each value through the client), in `order`. Fine for record columns (text, integers,
   * booleans, lists); not for BIGINTs beyond 2^53.
   */
  async *streamJson(
    sql: string,
    params: DuckDBValue[],
    order: string,
  ): AsyncGenerator<Record<string, unknown>> {
    // A connection of its own, so writes may run while the caller iterates (it reads a snapshot).
    const conn = await this.instance.connect();
    try {
      const result = await conn.stream(
        `SELECT to_json(q)::VARCHAR AS j FROM (${sql}) q ORDER BY ${order}`,
        params,
      );
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) return;
        for (const j of chunk.getColumnValues(0)) yield JSON.parse(j as string) as Record<string, unknown>;
      }
    } finally {
      conn.closeSync();
    }
  }

  /** Like `streamJson`, collected, on this connection (it sees the open transaction). */
  async allJson(sql: string, params: DuckDBValue[], order: string): Promise<Record<string, unknown>[]> {
    this.flushAppenders();
    const reader = await this.conn.runAndReadAll(
      `SELECT to_json(q)::VARCHAR AS j FROM (${sql}) q ORDER BY ${order}`,
      params,
    );
    return reader.getColumnsJS()[0]?.map((j) => JSON.parse(j as string) as Record<string, unknown>) ?? [];
  }

  /**
   * Appends rows (values in column order) through a buffered appender that stays open until the next
   * statement or `flushAppenders`; joins the open transaction.
   */
  async append(t: TableDef, rows: Row[], schema: 'main' | 'temp' = 'main', table = t.name): Promise<void> {
    if (rows.length === 0) return;
    const key = `${schema}.${table}`;
    let appender = this.appenders.get(key);
    if (!appender) {
      appender = await this.conn.createAppender(table, 'main', schema === 'temp' ? 'temp' : null);
      this.appenders.set(key, appender);
    }
    const types = t.columns.map((c) => c.type);
    const sqlTypes = t.columns.map((c) => c.sql);
    let chunk = this.chunks.get(t.name);
    if (!chunk) {
      chunk = DuckDBDataChunk.create(types);
      this.chunks.set(t.name, chunk);
    }
    for (let at = 0; at < rows.length; at += CHUNK) {
      const slice = rows.slice(at, at + CHUNK);
      chunk.reset();
      chunk.setRows(slice.map((r) => r.map((v, i) => toDuck(v, sqlTypes[i] ?? ''))));
      appender.appendDataChunk(chunk);
    }
  }

  /** Flushes and closes the open appenders (throws the first append error, e.g. a key violation). */
  flushAppenders(): void {
    if (this.appenders.size === 0) return;
    const open = [...this.appenders.values()];
    this.appenders.clear();
    let first: unknown = null;
    for (const a of open) {
      try {
        a.closeSync();
      } catch (err) {
        first ??= err;
      }
    }
    if (first) throw first;
  }

  /**
   * Closes the open appenders ignoring errors: their rows go into the open transaction, which the
   * caller then rolls back (closing after the rollback would write them in autocommit mode).
   */
  discardAppenders(): void {
    for (const a of this.appenders.values()) {
      try {
        a.closeSync();
      } catch {
        // The transaction is being rolled back anyway.
      }
    }
    this.appenders.clear();
  }

  /** Discards buffered appends and rolls the open transaction back. */
  async rollback(): Promise<void> {
    this.discardAppenders();
    await this.conn.run('ROLLBACK').catch(() => {});
  }

  /** Runs `fn` inside BEGIN/COMMIT, ROLLBACK on error. Call inside `exclusive`. */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    await this.run('BEGIN TRANSACTION');
    try {
      const out = await fn();
      await this.run('COMMIT');
      return out;
    } catch (err) {
      await this.rollback();
      throw err;
    }
  }

  /** Runs `fn` after every earlier `exclusive` call has finished. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn);
    this.chain = next.catch(() => {});
    return next;
  }

  /** Waits for running transactions, then closes. */
  async close(): Promise<void> {
    await this.chain;
    this.flushAppenders();
    this.conn.closeSync();
    this.instance.closeSync();
  }
}

function toDuck(v: unknown, sql: string): DuckDBValue {
  if (v == null) return null;
  if (Array.isArray(v)) return listValue(v as DuckDBValue[]);
  if (sql === 'BIGINT') return typeof v === 'bigint' ? v : BigInt(v as number);
  return v as DuckDBValue;
}
