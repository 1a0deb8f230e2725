/** `faun serve` (the API and pages) and `faun serve keys create|list|revoke`. */

import { statSync } from 'node:fs';
import {
  type CommandContext,
  defineCommand,
  type OptionSpec,
  parseRepoDirs,
  repoDirOption,
  UsageError,
} from '@faun/kit';
import { startServer } from './server.ts';
import { type KeyOps, openKeyOps } from './service/keyops.ts';

const DATABASE_OPTION: OptionSpec = {
  name: 'database',
  type: 'string',
  arg: 'DIR|URL',
  description:
    'API database: a PGlite folder or a postgres:// URL (default $DATABASE_URL, else .faun/api-db)',
};
/** The former name of --database; kept so old command lines work, with a pointer when it names a store. */
const OLD_DB_OPTION: OptionSpec = {
  name: 'db',
  type: 'string',
  arg: 'DIR|URL',
  description: 'deprecated: use --database (the DuckDB store is --store)',
};
const DB_OPTIONS = [DATABASE_OPTION, OLD_DB_OPTION];

/** The --database value (or the deprecated --db, which must not name a DuckDB file). */
export function databaseOption(ctx: CommandContext): string | undefined {
  const database = ctx.opts.database as string | undefined;
  const old = ctx.opts.db as string | undefined;
  if (old !== undefined) {
    if (/\.duckdb$/i.test(old) || isFile(old))
      throw new UsageError(
        `--db ${old}: in \`faun serve\` the DuckDB store is --store FILE (--db was the API database, now --database DIR|URL)`,
        { hint: `faun serve --store ${old}` },
      );
    if (database !== undefined) throw new UsageError('give --database only (--db is its deprecated name)');
    ctx.log('note: --db is deprecated in `faun serve`; use --database DIR|URL');
    return old;
  }
  return database;
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

const INT_MAX = 2_147_483_647;

/** A limit option's value: a positive number; integers for counts (they are stored as 32-bit integers). */
function num(v: unknown, name: string, integer = true): number | undefined {
  if (v === undefined || v === null) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0 || n > INT_MAX || (integer && !Number.isInteger(n)))
    throw new UsageError(
      `--${name}: expected a positive ${integer ? 'integer' : 'number'} up to ${INT_MAX}, got '${v}'`,
    );
  return n;
}

function emit(ctx: CommandContext, value: unknown): void {
  if (ctx.json) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

async function withKeys<T>(ctx: CommandContext, fn: (k: KeyOps) => Promise<T>): Promise<T> {
  // progress on stderr: stdout carries the token (scripts capture it)
  const k = await openKeyOps(databaseOption(ctx), (l) => process.stderr.write(`${l}\n`));
  try {
    return await fn(k);
  } finally {
    await k.close();
  }
}

const keys = defineCommand({
  name: 'keys',
  summary: 'manage API keys (create, list, revoke)',
  description:
    'With the embedded PGlite database, run these while the server is stopped (one process at a time may open ' +
    'the folder); with PostgreSQL they work at any time.',
  run() {
    throw new UsageError('faun serve keys: name a subcommand: create, list or revoke');
  },
  subcommands: [
    defineCommand({
      name: 'create',
      summary: 'create an API key and print it once',
      examples: [
        'faun serve keys create --name ci --runs-per-day 20',
        'faun serve keys create --name me --admin',
        'faun serve keys create --name ci --database postgres://faun@db/faun',
      ],
      options: [
        ...DB_OPTIONS,
        { name: 'name', type: 'string', description: 'who or what the key is for', required: true },
        { name: 'admin', type: 'boolean', description: 'may delete any run', default: false },
        {
          name: 'runs-per-day',
          type: 'number',
          arg: 'N',
          description: 'run submissions per 24 h',
          default: 50,
        },
        {
          name: 'items-per-day',
          type: 'number',
          arg: 'N',
          description: 'items scored per 24 h',
          default: 200000,
        },
        {
          name: 'rate',
          type: 'number',
          arg: 'R',
          description: 'requests per second (token bucket)',
          default: 20,
        },
        { name: 'burst', type: 'number', arg: 'N', description: 'bucket size', default: 40 },
      ],
      async run(ctx) {
        const name = String(ctx.opts.name ?? '').trim();
        if (!name) throw new UsageError('--name is required');
        const made = await withKeys(ctx, (k) =>
          k.create({
            name,
            admin: Boolean(ctx.opts.admin),
            runsPerDay: num(ctx.opts.runsPerDay, 'runs-per-day'),
            itemsPerDay: num(ctx.opts.itemsPerDay, 'items-per-day'),
            ratePerSec: num(ctx.opts.rate, 'rate', false),
            burst: num(ctx.opts.burst, 'burst'),
          }),
        );
        emit(ctx, made);
        if (!ctx.json) {
          process.stdout.write(`${made.token}\n`);
          // stdout carries the token alone (TOKEN=$(faun serve keys create …)); the note goes to stderr
          process.stderr.write(`key ${made.id} created for '${name}'; the token above is shown only once\n`);
        }
        return 0;
      },
    }),
    defineCommand({
      name: 'list',
      summary: 'list API keys (never their secrets)',
      options: DB_OPTIONS,
      async run(ctx) {
        const list = await withKeys(ctx, (k) => k.list());
        emit(ctx, list);
        if (!ctx.json)
          for (const k of list)
            ctx.log(
              `${k.id}  ${k.name.padEnd(20)} ${k.revokedAt ? 'revoked' : 'active '}  ${k.admin ? 'admin ' : ''}runs/day ${k.runsPerDay}  items/day ${k.itemsPerDay}  ${k.ratePerSec}/s`,
            );
        return 0;
      },
    }),
    defineCommand({
      name: 'revoke',
      summary: 'revoke an API key by id',
      args: '<id>',
      options: DB_OPTIONS,
      async run(ctx) {
        const id = ctx.args[0];
        if (!id) throw new UsageError('faun serve keys revoke <id>: the key id is missing (see keys list)');
        const ok = await withKeys(ctx, (k) => k.revoke(id));
        if (!ok) throw new UsageError(`no key with id '${id}'`, { hint: 'faun serve keys list' });
        ctx.log(`key ${id} revoked`);
        emit(ctx, { id, revoked: true });
        return 0;
      },
    }),
  ],
});

export const commands = [
  defineCommand({
    name: 'serve',
    summary: 'serve the scoring API and result pages',
    description:
      'Serves /v1 (OpenAPI at /openapi.json, reference at /docs) and the leaderboard, run and dataset pages. ' +
      'Jobs run in this process unless --redis-url / REDIS_URL is set, in which case `faun worker` processes pull them.',
    examples: [
      'faun serve --port 8787 --datasets datasets',
      'faun serve --store faun.duckdb --database .faun/api-db',
      'faun serve --store demo-out/faun.duckdb --datasets demo-out/datasets --import demo-out/predictions --import demo-out/execution',
      'DATABASE_URL=postgres://faun@db/faun REDIS_URL=redis://localhost:6379 faun serve --host 0.0.0.0',
    ],
    options: [
      { name: 'port', type: 'number', arg: 'N', description: 'TCP port', default: 8787 },
      { name: 'host', type: 'string', arg: 'ADDR', description: 'listen address', default: '127.0.0.1' },
      ...DB_OPTIONS,
      { name: 'store', type: 'string', arg: 'FILE', description: 'DuckDB store for dataset funnels' },
      {
        name: 'datasets',
        type: 'string',
        arg: 'DIR',
        description: 'folder of dataset JSONL files',
        default: 'datasets',
      },
      {
        name: 'import',
        type: 'list',
        arg: 'DIR|FILE',
        repeatable: true,
        description:
          'prediction files (or folders of *.jsonl) and faun verify run folders (or folders of them) to load as finished runs at start; the same input is the same run',
      },
      {
        name: 'redis-url',
        type: 'string',
        arg: 'URL',
        description: 'Redis for the job queue (default $REDIS_URL)',
      },
      {
        name: 'inline-workers',
        type: 'number',
        arg: 'N',
        description: 'jobs run inside the server (default 2 without Redis, 0 with)',
      },
      { name: 'public-reads', type: 'boolean', description: 'allow reads without an API key', default: true },
      {
        name: 'verify-backend',
        type: 'string',
        choices: ['docker', 'local'],
        default: 'docker',
        description: 'where in-process verification jobs run (docker, or local processes for tests)',
      },
      repoDirOption('local git directory of a repository (offline verification)'),
    ],
    subcommands: [keys],
    async run(ctx) {
      const database = databaseOption(ctx);
      const h = await startServer({
        port: Number(ctx.opts.port ?? 8787),
        hostname: String(ctx.opts.host ?? '127.0.0.1'),
        ...(database ? { db: database } : {}),
        progress: (line) => ctx.log(line),
        store: (ctx.opts.store as string | undefined) ?? null,
        datasetsDir: String(ctx.opts.datasets ?? 'datasets'),
        imports: (ctx.opts.import as string[] | undefined) ?? [],
        redisUrl: (ctx.opts.redisUrl as string | undefined) ?? process.env.REDIS_URL ?? null,
        ...(ctx.opts.inlineWorkers !== undefined ? { inlineWorkers: Number(ctx.opts.inlineWorkers) } : {}),
        config: { publicReads: ctx.opts.publicReads !== false },
        verify: {
          backend: ctx.opts.verifyBackend === 'local' ? 'local' : 'docker',
          repoDirs: parseRepoDirs((ctx.opts.repoDir as string[] | undefined) ?? []),
        },
      });
      ctx.log(`faun API on ${h.url}  (pages: ${h.url}/leaderboard, reference: ${h.url}/docs)`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', () => resolve());
        process.once('SIGTERM', () => resolve());
      });
      ctx.log('stopping');
      await h.stop();
      return 0;
    },
  }),
];
