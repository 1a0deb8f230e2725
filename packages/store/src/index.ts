/**
 * @faun/store — the DuckDB store: crawled issues/PRs with their comments, events, cross-references and
 * PR files, crawl checkpoints, repository metadata, and curation's pairs, funnel and task items.
 *
 * ```ts
 * const store = await Store.open('crawl.duckdb');
 * await store.ingest({ entries, checkpoint: { repo, stream: 'issues', cursor, done: false, updated_at } });
 * const cp = await store.checkpoint(repo, 'issues');
 * for await (const e of store.entries({ repo, kind: 'issue' })) …
 * await store.close();
 * ```
 * Stage views for SQL (`store.all`): `v_issues`, `v_closed_issues`, `v_prs`, `v_merged_prs`,
 * `v_merged_default_prs`, `v_links`, `v_candidate_pairs`.
 * @module
 */
export { Checkpoint, type CrawlBatch, PrFileList, RepoMeta } from './batch.ts';
export { type CachedAnswer, EtagStore } from './etag-store.ts';
export { MIGRATIONS, SCHEMA_VERSION, VIEWS } from './migrations.ts';
export type { RepoCounts, StageCounts } from './queries.ts';
export { type OpenOptions, Store } from './store.ts';
export { ALL_TABLES, CONTENT_TABLES } from './tables.ts';
