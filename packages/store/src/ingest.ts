/**
 * Writing one validated batch inside the caller's transaction.
 *
 * Entries take the fast path: a per-repository index of (number → updated_at, fingerprint) kept in
 * memory decides in JS which rows are new (appended), newer (deleted and appended), equal (skipped) or
 * tied with different content (merged); DuckDB's ON CONFLICT costs several times more per page. The
 * other tables go through a temp staging table and one upsert statement each.
 * @module
 */

import type { ValidBatch } from './batch.ts';
import type { Db } from './db.ts';
import type { EntryIndex, Known, RepoIndex } from './entry-index.ts';
import {
  columnIndex,
  commentToRow,
  crossrefToRow,
  dedupeRows,
  entryToRow,
  eventToRow,
  fingerprint,
  mergeRows,
  prFileToRow,
  type Row,
} from './rows.ts';
import {
  CHECKPOINT_LOG,
  COMMENTS,
  CROSSREFS,
  ENTRIES,
  EVENTS,
  FUNNEL,
  PAIRS,
  PR_FILES,
  REPOS,
  TASK_ITEMS,
  type TableDef,
} from './tables.ts';

const E_VERSION = columnIndex(ENTRIES, 'updated_at');
const E_COLS = ENTRIES.columns.filter((c) => c.name !== 'fp').map((c) => c.name);

/**
 * Writes the entries of a batch. The index learns the new rows at once (later batches of the same
 * transaction depend on it); whoever rolls the transaction back must `clear()` the index.
 */
async function writeEntries(db: Db, index: EntryIndex, b: ValidBatch): Promise<void> {
  if (b.entries.length === 0) return;
  const rows = dedupeRows(b.entries.map(entryToRow), [0, 1], E_VERSION, true);
  const put: Row[] = [];
  const del = new Map<string, number[]>();
  const ties: Row[] = [];
  const learned: [RepoIndex, number, Known][] = [];
  const replace = (m: RepoIndex, row: Row, fp: bigint, existed: boolean) => {
    const repo = row[0] as string;
    const num = row[1] as number;
    if (existed) del.set(repo, [...(del.get(repo) ?? []), num]);
    put.push([...row, fp]);
    learned.push([m, num, { ms: Date.parse(row[E_VERSION] as string), fp }]);
  };
  for (const row of rows) {
    const m = await index.forRepo(db, row[0] as string);
    const known = m.get(row[1] as number);
    const fp = fingerprint(row);
    if (!known) replace(m, row, fp, false);
    else {
      const ms = Date.parse(row[E_VERSION] as string);
      // Unparseable times go the slow way: the stored row decides (string comparison in mergeRows).
      if (Number.isNaN(ms) || Number.isNaN(known.ms)) ties.push(row);
      else if (ms > known.ms) replace(m, row, fp, true);
      else if (ms === known.ms && fp !== known.fp) ties.push(row);
    }
  }
  for (const [repo, tied] of groupByRepo(ties)) {
    const m = await index.forRepo(db, repo);
    const stored = await db.all(
      `SELECT ${E_COLS.join(', ')} FROM entries WHERE repo = $1 AND number IN (${tied.map((r) => Number(r[1])).join(', ')})`,
      [repo],
    );
    const byNum = new Map(stored.map((o) => [Number(o.number), E_COLS.map((c) => o[c])]));
    for (const row of tied) {
      const old = byNum.get(row[1] as number);
      const merged = old ? mergeRows(old, row, E_VERSION) : row;
      const fp = fingerprint(merged);
      if (!old || fp !== fingerprint(old)) replace(m, merged, fp, old !== undefined);
    }
  }
  for (const [repo, nums] of del) {
    await db.run(`DELETE FROM entries WHERE repo = $1 AND number IN (${nums.join(', ')})`, [repo]);
  }
  await db.append(ENTRIES, put);
  for (const [m, num, k] of learned) m.set(num, k);
}

function groupByRepo(rows: Row[]): Map<string, Row[]> {
  const g = new Map<string, Row[]>();
  for (const r of rows) g.set(r[0] as string, [...(g.get(r[0] as string) ?? []), r]);
  return g;
}

/** The SQL version expression of a merge table for a row alias. */
function versionOf(t: TableDef, alias: string): string | null {
  if (!t.version) return null;
  const hasCreated = t.columns.some((c) => c.name === 'created_at');
  return t.version !== 'created_at' && hasCreated
    ? `coalesce(${alias}.${t.version}, ${alias}.created_at)`
    : `${alias}.${t.version}`;
}

/** `INSERT … ON CONFLICT DO UPDATE` implementing the table's upsert rule, from its staging table. */
export function upsertSql(t: TableDef): string {
  const cols = t.columns.map((c) => c.name);
  const src = `INSERT INTO ${t.name} SELECT ${cols.join(', ')} FROM temp.stage_${t.name}`;
  if (t.upsert === 'replace')
    return `INSERT OR REPLACE INTO ${t.name} SELECT ${cols.join(', ')} FROM temp.stage_${t.name}`;
  const rest = cols.filter((c) => !t.key.includes(c));
  const vNew = versionOf(t, 'excluded');
  const vOld = versionOf(t, t.name);
  const newer = vNew ? `${vNew} > ${vOld}` : 'false';
  const tie = vNew ? `${vNew} = ${vOld}` : 'true';
  const g = (c: string) => `greatest(${t.name}.${c}, excluded.${c})`;
  const set = rest.map((c) => `${c} = CASE WHEN ${newer} THEN excluded.${c} ELSE ${g(c)} END`);
  const changed = `row(${rest.map(g).join(', ')}) IS DISTINCT FROM row(${rest.map((c) => `${t.name}.${c}`).join(', ')})`;
  return `${src} ON CONFLICT (${t.key.join(', ')}) DO UPDATE SET ${set.join(', ')} WHERE (${newer}) OR ((${tie}) AND ${changed})`;
}

/**
 * Creates the temp staging tables upserts go through. Call once per connection, outside any
 * transaction (DDL is transactional: a rollback would drop tables created inside it).
 */
export async function createStages(db: Db): Promise<void> {
  for (const t of [COMMENTS, EVENTS, CROSSREFS, PR_FILES, REPOS, PAIRS, FUNNEL, TASK_ITEMS]) {
    await db.run(`CREATE TEMP TABLE IF NOT EXISTS stage_${t.name} AS SELECT * FROM main.${t.name} LIMIT 0`);
  }
}

/** Stages rows (deduped by key) and upserts them into the table. */
async function upsert(db: Db, t: TableDef, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const keyAt = t.key.map((k) => columnIndex(t, k));
  const verAt = t.version ? columnIndex(t, t.version) : null;
  const unique = dedupeRows(rows, keyAt, verAt, t.upsert === 'merge');
  await db.append(t, unique, 'temp', `stage_${t.name}`);
  await db.run(upsertSql(t));
  await db.run(`DELETE FROM temp.stage_${t.name}`);
}

/** Writes every part of a validated batch; call inside a transaction (see `writeEntries` on rollback). */
export async function writeBatch(db: Db, index: EntryIndex, b: ValidBatch): Promise<void> {
  await writeEntries(db, index, b);
  await upsert(db, COMMENTS, b.comments.map(commentToRow));
  await upsert(db, EVENTS, b.events.map(eventToRow));
  await upsert(db, CROSSREFS, b.crossrefs.map(crossrefToRow));
  if (b.prFiles.length) {
    const last = new Map(b.prFiles.map((p) => [`${p.repo}#${p.number}`, p]));
    for (const p of last.values()) {
      await db.run('DELETE FROM pr_files WHERE repo = $1 AND number = $2', [p.repo, p.number]);
    }
    const rows = [...last.values()].flatMap((p) => p.files.map((f) => prFileToRow(p.repo, p.number, f)));
    await upsert(db, PR_FILES, rows);
  }
  await upsert(
    db,
    REPOS,
    b.repos.map((r) => [
      r.repo,
      r.default_branch,
      r.language ?? null,
      r.stars ?? null,
      r.github_id ?? null,
      r.renamed_from ?? null,
      r.fetched_at ?? null,
    ]),
  );
  await db.append(
    CHECKPOINT_LOG,
    b.checkpoints.map((c) => [
      index.nextSeq(),
      c.repo,
      c.stream,
      c.cursor,
      c.done,
      c.updated_at,
      c.requests ?? null,
      c.items ?? null,
    ]),
  );
}
