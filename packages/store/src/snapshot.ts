/**
 * Whole-store views of the data: the canonical content hash and table export (Parquet/JSONL).
 * Call inside `Db.exclusive`.
 * @module
 */
import { rename, rm } from 'node:fs/promises';
import { FaunError, sha256, UsageError } from '@faun/kit';
import type { Db } from './db.ts';
import { CONTENT_TABLES, tableByName } from './tables.ts';

/**
 * sha256 over every content table in key order (checkpoints and fetch times excluded): two stores
 * with the same data have the same hash, whatever order it was ingested in.
 */
export async function contentHashOf(db: Db): Promise<string> {
  const parts: string[] = [];
  for (const t of CONTENT_TABLES) {
    const cols = t.columns.filter((c) => !t.unhashed?.includes(c.name)).map((c) => c.name);
    const obj = `to_json({${cols.map((c) => `'${c}': ${c}`).join(', ')}})::VARCHAR`;
    const [r] = await db.all<{ n: number; h: string | null }>(
      `SELECT count(*) AS n, sha256(string_agg(md5(${obj}), ',' ORDER BY ${t.key.join(', ')})) AS h FROM ${t.name}`,
    );
    parts.push(`${t.name}:${r?.n ?? 0}:${r?.h ?? ''}`);
  }
  return sha256(parts.join('\n'));
}

/** Writes a table (or view) to Parquet or JSONL in key order, via a temp file and rename. */
export async function exportTableTo(
  db: Db,
  store: string,
  table: string,
  path: string,
  format: 'parquet' | 'jsonl',
): Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new UsageError(`not a table name: '${table}'`);
  const known = await db.all<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'main'",
  );
  if (!known.some((k) => k.name === table)) {
    const names = known.map((k) => k.name).sort();
    throw new UsageError(`no table or view '${table}' in ${store}`, { hint: `one of: ${names.join(', ')}` });
  }
  const def = tableByName(table);
  const order = def?.key.length ? ` ORDER BY ${def.key.join(', ')}` : '';
  const tmp = `${path}.tmp-${process.pid}`;
  const opts = format === 'parquet' ? '(FORMAT parquet, COMPRESSION zstd)' : '(FORMAT json)';
  try {
    await db.run(`COPY (SELECT * FROM ${table}${order}) TO '${tmp.replaceAll("'", "''")}' ${opts}`);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true, recursive: true });
    throw new FaunError(`export of ${table} to ${path} failed`, { cause: err, hint: String(err) });
  }
}
