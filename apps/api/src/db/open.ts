/**
 * Opens the API database: embedded PGlite in a folder (default `.faun/api-db`), or a PostgreSQL server
 * when a `postgres://` URL is given (DATABASE_URL). Applies the committed migrations on open.
 */
import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PrerequisiteError, UsageError } from '@faun/kit';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { acquireLock, type FolderLock } from './lock.ts';
import * as schema from './schema.ts';
import { dropTemplate, isFresh, readTemplate, saveTemplate, templatePath } from './template.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  backend: 'pglite' | 'postgres';
  /** Where the data lives (folder, or URL without password). */
  location: string;
  /** The owner lock of a PGlite folder (null for PostgreSQL and memory://). */
  lock: FolderLock | null;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Who opens a PGlite folder (written to its lock; default `serve`). */
  role?: string;
  /** Progress lines while a PGlite database starts (it can take seconds). */
  progress?: (line: string) => void;
}

const MIGRATIONS = resolve(import.meta.dir, '../../drizzle');

/** Removes the password from a database URL for logs and messages. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/**
 * Makes a database folder private to its owner: folders 0700, files 0600 (the embedded engine creates
 * its files world-readable). The folder itself is 0700 from the start, so nothing inside is reachable by
 * others in between.
 */
export function restrictTree(dir: string): void {
  const walk = (p: string, isDir: boolean) => {
    try {
      chmodSync(p, isDir ? 0o700 : 0o600);
    } catch {
      return; // vanished meanwhile
    }
    if (!isDir) return;
    for (const e of readdirSync(p, { withFileTypes: true }))
      if (!e.isSymbolicLink()) walk(join(p, e.name), e.isDirectory());
  };
  walk(dir, true);
}

/** Rejects a PGlite target that is a file (a DuckDB store passed by mistake, most often). */
export function checkPgliteFolder(dir: string): void {
  let isFile = false;
  try {
    isFile = !statSync(dir).isDirectory();
  } catch {
    // absent: created on open
  }
  if (isFile || /\.duckdb$/i.test(dir))
    throw new UsageError(
      `--database ${dir}: expected a PGlite folder or a postgres:// URL, but ${isFile ? 'this is a file' : 'this names a DuckDB file'}`,
      {
        hint: 'the DuckDB store is --store FILE; the API database is --database DIR|URL (default .faun/api-db)',
      },
    );
}

async function openPglite(dir: string, o: OpenOptions): Promise<Database> {
  let lock: FolderLock | null = null;
  if (dir !== 'memory://') {
    checkPgliteFolder(dir);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    restrictTree(dir);
    lock = acquireLock(dir, o.role ?? 'serve', o.progress ? { notice: o.progress } : {});
  }
  try {
    const t0 = performance.now();
    o.progress?.(`starting database ${dir} (PGlite)…`);
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    const fresh = isFresh(dir);
    const tpl = fresh ? templatePath(MIGRATIONS) : null;
    const saved = readTemplate(tpl);
    if (fresh && !saved) o.progress?.('creating a new database (once; later ones start from a saved copy)…');
    const make = (loadDataDir?: Blob) => {
      const opts = loadDataDir ? { loadDataDir } : {};
      return dir === 'memory://' ? new PGlite(opts) : new PGlite(dir, opts);
    };
    let client = make(saved ?? undefined);
    try {
      await client.waitReady;
    } catch (e) {
      if (!saved) throw e;
      dropTemplate(tpl); // a damaged template: start the ordinary way
      client = make();
      await client.waitReady;
    }
    const db = drizzle(client, { schema });
    await migrate(db, { migrationsFolder: MIGRATIONS });
    if (fresh && !saved && tpl)
      saveTemplate(tpl, new Uint8Array(await (await client.dumpDataDir('gzip')).arrayBuffer()));
    if (dir !== 'memory://') restrictTree(dir);
    o.progress?.(`database ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return pgliteHandle(dir, client, db, lock);
  } catch (e) {
    lock?.release();
    throw e;
  }
}

/** Whether the database answers a trivial query. */
async function answers(db: { execute(q: ReturnType<typeof sql>): Promise<unknown> }): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

function pgliteHandle(
  dir: string,
  client: { close(): Promise<void> },
  db: { execute(q: ReturnType<typeof sql>): Promise<unknown> },
  lock: FolderLock | null,
): Database {
  return {
    db: db as unknown as Db,
    backend: 'pglite',
    location: dir,
    lock,
    ping: () => answers(db),
    async close() {
      try {
        await client.close();
        if (dir !== 'memory://') restrictTree(dir);
      } finally {
        lock?.release();
      }
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  const client = postgres(url, { max: 10, onnotice: () => {}, connect_timeout: 10 });
  const db = drizzle(client, { schema });
  try {
    await migrate(db, { migrationsFolder: MIGRATIONS });
  } catch (e) {
    await client.end({ timeout: 1 });
    throw new PrerequisiteError(
      `cannot open PostgreSQL database ${redactUrl(url)}: ${(e as Error).message}`,
      {
        hint: 'check DATABASE_URL (postgres://user:password@host:port/db) and that the server is running',
        cause: e,
      },
    );
  }
  return {
    db: db as unknown as Db,
    backend: 'postgres',
    location: redactUrl(url),
    lock: null,
    ping: () => answers(db),
    close: () => client.end({ timeout: 5 }),
  };
}

/**
 * Opens `target`: a `postgres://` / `postgresql://` URL, `memory://` (throwaway PGlite), or a folder for
 * PGlite. Default: $DATABASE_URL, else `.faun/api-db`.
 */
export function openDatabase(target?: string, o: OpenOptions = {}): Promise<Database> {
  const t = databaseTarget(target);
  if (isPostgresUrl(t)) return openPostgres(t);
  return openPglite(t, o);
}

/** The database a command uses: the given target, else $DATABASE_URL, else `.faun/api-db`. */
export function databaseTarget(target?: string): string {
  return target ?? process.env.DATABASE_URL ?? join('.faun', 'api-db');
}

export function isPostgresUrl(t: string): boolean {
  return /^postgres(ql)?:\/\//.test(t);
}
