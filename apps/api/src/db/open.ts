/**
 * Opens the API database: embedded PGlite in a folder (default `.faun/api-db`), or a PostgreSQL server
 * when a `postgres://` URL is given (DATABASE_URL). Applies the committed migrations on open.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PrerequisiteError } from '@faun/kit';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  backend: 'pglite' | 'postgres';
  /** Where the data lives (folder, or URL without password). */
  location: string;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const MIGRATIONS = resolve(import.meta.dir, '../../drizzle');

/** Removes the password from a database URL for logs and messages. */
export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

async function openPglite(dir: string): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let client: InstanceType<typeof PGlite>;
  if (dir === 'memory://') client = new PGlite();
  else {
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir);
  }
  await client.waitReady;
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: MIGRATIONS });
  return {
    db: db as unknown as Db,
    backend: 'pglite',
    location: dir,
    async ping() {
      try {
        await db.execute(sql`select 1`);
        return true;
      } catch {
        return false;
      }
    },
    close: () => client.close(),
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
    async ping() {
      try {
        await db.execute(sql`select 1`);
        return true;
      } catch {
        return false;
      }
    },
    close: () => client.end({ timeout: 5 }),
  };
}

/**
 * Opens `target`: a `postgres://` / `postgresql://` URL, `memory://` (throwaway PGlite), or a folder for
 * PGlite. Default: $DATABASE_URL, else `.faun/api-db`.
 */
export function openDatabase(target?: string): Promise<Database> {
  const t = target ?? process.env.DATABASE_URL ?? join('.faun', 'api-db');
  if (/^postgres(ql)?:\/\//.test(t)) return openPostgres(t);
  return openPglite(t);
}
