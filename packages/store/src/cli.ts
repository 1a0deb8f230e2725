/** `faun` subcommands owned by this package: `stats`. */
import { defineCommand, UsageError } from '@faun/kit';
import { formatStats, gatherStats } from './stats.ts';
import { Store } from './store.ts';

export const commands = [
  defineCommand({
    name: 'stats',
    summary: 'show store counts and the curation funnel',
    description:
      'Per-repository counts of a faun store (issues and PRs by state, comments, events, cross-references, ' +
      'PR files, pairs), the sizes of the curation stages, crawl checkpoints, and the funnel table once ' +
      'curation has stored one. Opens the store read-only, so it works while no crawl holds it.',
    examples: ['faun stats --db faun.duckdb', 'faun stats --db faun.duckdb --json'],
    options: [
      { name: 'db', type: 'string', arg: 'FILE', description: 'the store (.duckdb file)', required: true },
    ],
    async run(ctx) {
      const db = ctx.opts.db;
      if (typeof db !== 'string' || db === '') throw new UsageError('--db FILE is required');
      const store = await Store.open(db, { readOnly: true });
      try {
        const report = await gatherStats(store);
        if (ctx.json) ctx.emitJson(report);
        else ctx.log(formatStats(report));
      } finally {
        await store.close();
      }
      return 0;
    },
  }),
];
