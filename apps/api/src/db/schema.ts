/**
 * The API's tables (drizzle, PostgreSQL dialect — the same schema serves embedded PGlite and a PostgreSQL
 * server). Migrations under apps/api/drizzle/ are generated from this file with drizzle-kit.
 */
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** API keys: only a salted sha256 of the secret is stored. */
export const apiKeys = pgTable('api_keys', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  salt: text('salt').notNull(),
  hash: text('hash').notNull(),
  admin: boolean('admin').notNull().default(false),
  runsPerDay: integer('runs_per_day').notNull().default(50),
  itemsPerDay: integer('items_per_day').notNull().default(200_000),
  ratePerSec: real('rate_per_sec').notNull().default(20),
  burst: integer('burst').notNull().default(40),
  createdAt: ts('created_at').notNull().defaultNow(),
  revokedAt: ts('revoked_at'),
});

/** Datasets the server scores against (JSONL task files registered at start). */
export const datasets = pgTable('datasets', {
  name: text('name').primaryKey(),
  /** `qa`, `fl`, `ce`, or `exec` for execution instances. */
  task: text('task').notNull(),
  path: text('path').notNull(),
  itemCount: integer('item_count').notNull(),
  sha256: text('sha256').notNull(),
  public: boolean('public').notNull().default(true),
  registeredAt: ts('registered_at').notNull().defaultNow(),
});

/** A submitted run: text scoring or execution verification of a predictions file. */
export const runs = pgTable(
  'runs',
  {
    id: text('id').primaryKey(),
    keyId: text('key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    dataset: text('dataset').notNull(),
    task: text('task').notNull(),
    kind: text('kind').notNull(),
    model: text('model').notNull(),
    status: text('status').notNull(),
    total: integer('total').notNull(),
    done: integer('done').notNull().default(0),
    idempotencyKey: text('idempotency_key'),
    createdAt: ts('created_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
    report: jsonb('report'),
    error: text('error'),
  },
  (t) => [
    uniqueIndex('runs_key_idempotency').on(t.keyId, t.idempotencyKey),
    index('runs_created').on(t.createdAt),
    index('runs_key_created').on(t.keyId, t.createdAt),
  ],
);

/** The predictions file of a run, as submitted. */
export const submissions = pgTable('submissions', {
  runId: text('run_id')
    .primaryKey()
    .references(() => runs.id, { onDelete: 'cascade' }),
  sha256: text('sha256').notNull(),
  bytes: integer('bytes').notNull(),
  predictions: jsonb('predictions').notNull(),
});

/** One row per (run, item): written idempotently, so a re-run job never duplicates a result. */
export const results = pgTable(
  'results',
  {
    runId: text('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    itemId: text('item_id').notNull(),
    outcome: text('outcome').notNull(),
    scores: jsonb('scores').notNull(),
    answer: text('answer'),
    data: jsonb('data').notNull(),
    log: text('log'),
    error: text('error'),
    durationMs: real('duration_ms').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.itemId] }), index('results_outcome').on(t.runId, t.outcome)],
);

/** A finished run's headline metrics with confidence intervals. */
export const leaderboard = pgTable(
  'leaderboard',
  {
    runId: text('run_id')
      .primaryKey()
      .references(() => runs.id, { onDelete: 'cascade' }),
    dataset: text('dataset').notNull(),
    task: text('task').notNull(),
    model: text('model').notNull(),
    /** Metric name → { value, lo, hi }. */
    metrics: jsonb('metrics').notNull(),
    n: integer('n').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('leaderboard_dataset_task').on(t.dataset, t.task)],
);

/**
 * Usage of a key per UTC day, counted when a submission or a scoring request is accepted (deleting a run
 * gives nothing back). Updated in the same transaction as the run it admits, so quotas hold under
 * concurrent requests.
 */
export const keyUsage = pgTable(
  'key_usage',
  {
    keyId: text('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    /** UTC day, `YYYY-MM-DD`. */
    day: text('day').notNull(),
    runs: integer('runs').notNull().default(0),
    runItems: integer('run_items').notNull().default(0),
    scoreItems: integer('score_items').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.day] })],
);

/** Model names and the key that first published each (null: the server itself, e.g. imported runs). */
export const models = pgTable('models', {
  name: text('name').primaryKey(),
  ownerKeyId: text('owner_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** Deleted runs: who deleted them, when, and how many of their queued jobs were cancelled. */
export const runDeletions = pgTable('run_deletions', {
  runId: text('run_id').primaryKey(),
  keyId: text('key_id'),
  status: text('status').notNull(),
  jobsCancelled: integer('jobs_cancelled').notNull().default(0),
  deletedAt: ts('deleted_at').notNull().defaultNow(),
});
