/**
 * Versioned schema migrations. A store records each applied migration in `faun_migrations`; that
 * table is also how a file is recognised as a faun store. Add a migration by appending to
 * `MIGRATIONS` (never edit an applied one).
 * @module
 */
import { InputError } from '@faun/kit';
import type { Db } from './db.ts';
import { ALL_TABLES, createTableSql } from './tables.ts';

export interface Migration {
  version: number;
  name: string;
  statements: string[];
}

export const MIGRATIONS_TABLE = 'faun_migrations';

/** The stage views curation and `faun stats` use. */
export const VIEWS: string[] = [
  `CREATE OR REPLACE VIEW checkpoints AS
     SELECT * EXCLUDE (seq) FROM checkpoint_log
     QUALIFY row_number() OVER (PARTITION BY repo, stream ORDER BY seq DESC) = 1`,
  `CREATE OR REPLACE VIEW v_issues AS
     SELECT * FROM entries WHERE kind = 'issue' AND transferred_to IS NULL`,
  `CREATE OR REPLACE VIEW v_closed_issues AS SELECT * FROM v_issues WHERE state = 'closed'`,
  `CREATE OR REPLACE VIEW v_prs AS SELECT * FROM entries WHERE kind = 'pr'`,
  `CREATE OR REPLACE VIEW v_merged_prs AS SELECT * FROM v_prs WHERE pr_merged`,
  `CREATE OR REPLACE VIEW v_merged_default_prs AS
     SELECT p.* FROM v_merged_prs p LEFT JOIN repos r ON r.repo = p.repo
     WHERE p.pr_base_ref = coalesce(p.default_branch, r.default_branch)`,
  // Every (issue, PR) link GitHub knows of: a same-repo cross-reference from a PR, or the PR's
  // closingIssuesReferences. Text references (closing keywords in bodies) are found by curation.
  `CREATE OR REPLACE VIEW v_links AS
     SELECT target_repo AS repo, target_number AS issue, source_number AS pr, 'crossref' AS via,
            will_close_target
       FROM crossrefs WHERE source_kind = 'pr' AND source_repo = target_repo
     UNION ALL
     SELECT repo, unnest(pr_closing_issues) AS issue, number AS pr, 'closing_issues' AS via,
            true AS will_close_target
       FROM entries WHERE kind = 'pr' AND pr_closing_issues IS NOT NULL`,
  // Candidate fix pairs: a link from a merged, default-branch PR to a closed issue of the same repo.
  `CREATE OR REPLACE VIEW v_candidate_pairs AS
     SELECT l.repo, l.issue, l.pr,
            bool_or(l.via = 'crossref') AS cross_ref_event,
            bool_or(l.via = 'closing_issues') AS github_closing_reference,
            bool_or(coalesce(l.will_close_target, false)) AS will_close_target
       FROM v_links l
       JOIN v_closed_issues i ON i.repo = l.repo AND i.number = l.issue
       JOIN v_merged_default_prs p ON p.repo = l.repo AND p.number = l.pr
      GROUP BY l.repo, l.issue, l.pr`,
];

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'initial tables and stage views',
    statements: [...ALL_TABLES.map(createTableSql), ...VIEWS],
  },
  {
    version: 2,
    name: 'funnel: undecided items per reason',
    // Tables created by migration 1 already have the column (it builds them from today's definitions).
    statements: [`ALTER TABLE funnel ADD COLUMN IF NOT EXISTS undecided VARCHAR DEFAULT '{}'`],
  },
];

/** The newest schema version this code knows. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/** Applies pending migrations (or refuses: not a store, newer schema, read-only). */
export async function migrate(db: Db, path: string, readOnly: boolean): Promise<void> {
  const tables = await db.all<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'main'",
  );
  const isStore = tables.some((t) => t.name === MIGRATIONS_TABLE);
  if (!isStore && tables.length > 0) {
    throw new InputError(`${path} is a DuckDB database but not a faun store (no ${MIGRATIONS_TABLE} table)`, {
      hint: 'pass the file written by faun crawl, or a new path to create a store',
    });
  }
  const applied = isStore
    ? (await db.all<{ version: number }>(`SELECT version FROM ${MIGRATIONS_TABLE}`)).map((r) => r.version)
    : [];
  const newest = Math.max(0, ...applied);
  if (newest > SCHEMA_VERSION) {
    throw new InputError(
      `store ${path} has schema version ${newest}, newer than this faun (${SCHEMA_VERSION})`,
      {
        hint: 'update faun',
      },
    );
  }
  const pending = MIGRATIONS.filter((m) => !applied.includes(m.version));
  if (pending.length === 0) return;
  if (readOnly) {
    throw new InputError(
      isStore
        ? `store ${path} needs a schema migration`
        : `${path} is an empty DuckDB file, not a faun store`,
      { hint: 'open it once read-write (e.g. with faun crawl) to migrate' },
    );
  }
  await db.transaction(async () => {
    if (!isStore) {
      await db.run(
        `CREATE TABLE ${MIGRATIONS_TABLE} (version INTEGER PRIMARY KEY, name VARCHAR, applied_at VARCHAR)`,
      );
    }
    for (const m of pending) {
      for (const sql of m.statements) await db.run(sql);
      await db.run(`INSERT INTO ${MIGRATIONS_TABLE} VALUES ($1, $2, $3)`, [
        m.version,
        m.name,
        new Date().toISOString(),
      ]);
    }
  });
}
