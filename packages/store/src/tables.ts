/**
 * Table definitions of the store: one place lists every column, its SQL type and its appender type, so
 * the DDL, the appenders, the upserts and the content hash all agree.
 * @module
 */
import { BIGINT, BOOLEAN, type DuckDBType, INTEGER, LIST, VARCHAR } from '@duckdb/node-api';

export interface Column {
  name: string;
  sql: string;
  type: DuckDBType;
}

export interface TableDef {
  name: string;
  columns: Column[];
  /** Primary key columns. */
  key: string[];
  /**
   * How a row meets a stored row with the same key. `replace`: the latest write wins. `merge`: the row
   * with the newer `version` column wins; on a tie (or without a version column) the two are merged
   * column by column (a null is filled in, otherwise the greater value wins), so the result does not
   * depend on ingest order and re-ingesting the same row changes nothing.
   */
  upsert: 'replace' | 'merge';
  version?: string;
  /** Columns left out of the content hash (crawl bookkeeping such as fetch times). */
  unhashed?: string[];
  /**
   * The key is enforced by the writer, not by a PRIMARY KEY index (whose upkeep would double the cost
   * of a bulk crawl); see `EntryIndex`.
   */
  keyByWriter?: boolean;
}

const v = (name: string): Column => ({ name, sql: 'VARCHAR', type: VARCHAR });
const i = (name: string): Column => ({ name, sql: 'INTEGER', type: INTEGER });
const b = (name: string): Column => ({ name, sql: 'BIGINT', type: BIGINT });
const bool = (name: string): Column => ({ name, sql: 'BOOLEAN', type: BOOLEAN });
const vlist = (name: string): Column => ({ name, sql: 'VARCHAR[]', type: LIST(VARCHAR) });
const ilist = (name: string): Column => ({ name, sql: 'INTEGER[]', type: LIST(INTEGER) });

/** Issues and PRs (RawEntry), PR fields flattened to `pr_*` columns; `fp` fingerprints the row. */
export const ENTRIES: TableDef = {
  name: 'entries',
  columns: [
    v('repo'),
    i('number'),
    v('kind'),
    v('node_id'),
    v('title'),
    v('body'),
    v('state'),
    v('state_reason'),
    v('author_login'),
    v('author_type'),
    v('author_association'),
    vlist('labels'),
    bool('locked'),
    i('comments_count'),
    v('created_at'),
    v('updated_at'),
    v('closed_at'),
    v('transferred_to'),
    v('default_branch'),
    bool('pr_merged'),
    v('pr_merged_at'),
    v('pr_base_ref'),
    v('pr_base_sha'),
    v('pr_head_sha'),
    v('pr_merge_commit_sha'),
    i('pr_changed_files'),
    i('pr_additions'),
    i('pr_deletions'),
    ilist('pr_closing_issues'),
    /** PullInfo.files as JSON text (the separately crawled file lists live in `pr_files`). */
    v('pr_files'),
    b('fp'),
  ],
  key: ['repo', 'number'],
  upsert: 'merge',
  version: 'updated_at',
  unhashed: ['fp'],
  keyByWriter: true,
};

export const COMMENTS: TableDef = {
  name: 'comments',
  columns: [
    v('repo'),
    i('number'),
    b('id'),
    v('author_login'),
    v('author_type'),
    v('author_association'),
    v('body'),
    v('created_at'),
    v('updated_at'),
  ],
  key: ['repo', 'id'],
  upsert: 'merge',
  version: 'updated_at',
};

export const EVENTS: TableDef = {
  name: 'events',
  columns: [
    v('repo'),
    i('number'),
    v('id'),
    v('event'),
    v('actor_login'),
    v('actor_type'),
    v('created_at'),
    v('commit_id'),
    v('closer'),
  ],
  key: ['repo', 'number', 'id'],
  upsert: 'merge',
  version: 'created_at',
};

export const CROSSREFS: TableDef = {
  name: 'crossrefs',
  columns: [
    v('target_repo'),
    i('target_number'),
    v('source_repo'),
    i('source_number'),
    v('via'),
    v('source_kind'),
    bool('will_close_target'),
    v('created_at'),
  ],
  key: ['target_repo', 'target_number', 'source_repo', 'source_number', 'via'],
  // No version column: REST (will_close_target null) and GraphQL versions of a reference merge.
  upsert: 'merge',
};

export const PR_FILES: TableDef = {
  name: 'pr_files',
  columns: [
    v('repo'),
    i('number'),
    v('filename'),
    v('status'),
    i('additions'),
    i('deletions'),
    v('patch'),
    v('previous_filename'),
  ],
  key: ['repo', 'number', 'filename'],
  upsert: 'replace',
};

/**
 * Crawl checkpoints as an append-only log (one appended row per batch is far cheaper than an upsert);
 * the `checkpoints` view keeps the latest row per (repo, stream), and opening the store compacts it.
 */
export const CHECKPOINT_LOG: TableDef = {
  name: 'checkpoint_log',
  columns: [
    b('seq'),
    v('repo'),
    v('stream'),
    v('cursor'),
    bool('done'),
    v('updated_at'),
    b('requests'),
    b('items'),
  ],
  key: [],
  upsert: 'replace',
};

export const REPOS: TableDef = {
  name: 'repos',
  columns: [
    v('repo'),
    v('default_branch'),
    v('language'),
    b('stars'),
    b('github_id'),
    v('renamed_from'),
    v('fetched_at'),
  ],
  key: ['repo'],
  upsert: 'replace',
  unhashed: ['fetched_at'],
};

export const PAIRS: TableDef = {
  name: 'pairs',
  columns: [
    v('repo'),
    i('issue'),
    i('pr'),
    bool('text_reference'),
    bool('closing_keyword'),
    bool('cross_ref_event'),
    bool('github_closing'),
    v('run_id'),
  ],
  key: ['repo', 'issue', 'pr'],
  upsert: 'replace',
};

export const FUNNEL: TableDef = {
  name: 'funnel',
  columns: [
    v('run_id'),
    v('repo'),
    i('step_order'),
    v('step'),
    v('unit'),
    b('input'),
    b('removed'),
    b('output'),
    bool('skipped'),
    // JSON object: reason → count of the items the step could not decide about (added in migration 2).
    v('undecided'),
  ],
  key: ['run_id', 'repo', 'step_order'],
  upsert: 'replace',
};

export const TASK_ITEMS: TableDef = {
  name: 'task_items',
  columns: [v('dataset'), v('task'), v('id'), v('repo'), v('json')],
  key: ['dataset', 'task', 'id'],
  upsert: 'replace',
};

/** Every data table, in content-hash order. Checkpoints are crawl progress, not content. */
export const CONTENT_TABLES = [
  ENTRIES,
  COMMENTS,
  EVENTS,
  CROSSREFS,
  PR_FILES,
  REPOS,
  PAIRS,
  FUNNEL,
  TASK_ITEMS,
];
export const ALL_TABLES = [...CONTENT_TABLES, CHECKPOINT_LOG];

/** `CREATE TABLE` for a definition. */
export function createTableSql(t: TableDef): string {
  const cols = t.columns.map((c) => `${c.name} ${c.sql}${t.key.includes(c.name) ? ' NOT NULL' : ''}`);
  if (t.key.length && !t.keyByWriter) cols.push(`PRIMARY KEY (${t.key.join(', ')})`);
  return `CREATE TABLE ${t.name} (${cols.join(', ')})`;
}

export function tableByName(name: string): TableDef | undefined {
  return ALL_TABLES.find((t) => t.name === name);
}
