/** `faun crawl` and `faun fake-github`. */
import {
  CancelledError,
  type CommandContext,
  defineCommand,
  onInterrupt,
  resumeCommand,
  UsageError,
  withRunRecord,
} from '@faun/kit';
import { Store } from '@faun/store';
import { appFromEnv } from './app-auth.ts';
import { createClient } from './client.ts';
import { parseClock, SimClock } from './clock.ts';
import { CrawlTally } from './crawl-progress.ts';
import { crawl, type StreamProgress } from './crawler.ts';
import type { EtagCache } from './etag.ts';
import { identitySummary } from './identity.ts';
import { parseRepos, resolveRepos } from './repos.ts';
import { tokensFromEnv } from './tokens.ts';

function fmtDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${s % 60}s`
      : `${s}s`;
}

/**
 * The crawl's progress display: issue pages and detail calls counted by a {@link CrawlTally}, with the
 * active streams, the rate-limit budgets and the last wait as status.
 */
function crawlReporter(
  ctx: CommandContext,
  client: ReturnType<typeof createClient>,
  clock: ReturnType<typeof parseClock>,
  waits: string[],
): { update: (p: StreamProgress) => void; done: () => void } {
  const progress = ctx.progress({ label: 'crawl', total: 0 });
  const perRepo = new Map<string, StreamProgress>();
  const tally = new CrawlTally();
  const started = Date.now();
  const status = () => {
    const active = [...perRepo.values()]
      .filter((p) => !p.done)
      .map((p) => `${p.repo} ${p.stream} ${p.items} items ${p.requests} req`);
    const budgets = client.pool
      .view()
      .filter((b) => b.remaining !== null && b.resetAt > clock.now())
      .map(
        (b) =>
          `${b.label}/${b.resource} ${b.remaining}/${b.limit} reset ${fmtDuration(b.resetAt - clock.now())}`,
      );
    return [...active.slice(0, 3), ...budgets.slice(0, 2), waits.at(-1) ?? ''].filter(Boolean).join(' | ');
  };
  return {
    update(p) {
      if (p.issuesDisabled) ctx.log(`${p.repo}: issues are disabled (410); recorded, PRs still paired`);
      perRepo.set(p.repo, p);
      const added = tally.update(p);
      progress.setTotal(tally.total);
      if (added > 0) progress.tick(added, status());
      else progress.status(status());
    },
    done() {
      progress.done(`done in ${fmtDuration(Date.now() - started)}`);
    },
  };
}

/** `faun crawl`'s options, checked (a bad one is a usage error). */
function crawlOptions(o: CommandContext['opts']) {
  const repos = parseRepos(String(o.repos ?? ''));
  const db = String(o.db ?? '');
  if (!db) throw new UsageError('--db is required', { hint: 'e.g. --db crawl.duckdb' });
  let clock: ReturnType<typeof parseClock>;
  try {
    clock = parseClock(o.clock as string | undefined);
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const since = o.since ? String(o.since) : null;
  if (since && Number.isNaN(Date.parse(since)))
    throw new UsageError(`--since "${since}" is not an ISO time`, {
      hint: 'e.g. --since 2024-01-01T00:00:00Z',
    });
  return {
    repos,
    db,
    clock,
    since,
    tokens: tokensFromEnv((o.token as string[] | undefined) ?? []),
    survivors: (o.survivors as 'strict' | 'linked' | undefined) ?? 'strict',
    apiUrl: o.apiUrl ? String(o.apiUrl) : undefined,
  };
}

async function runCrawl(ctx: CommandContext): Promise<number> {
  const o = ctx.opts;
  const { repos, db, clock, since, tokens, survivors, apiUrl } = crawlOptions(o);
  const interrupt = onInterrupt(() => resumeCommand(ctx.argv));
  const waits: string[] = [];
  const app = await appFromEnv(process.env, apiUrl);
  const sources = app ? await app.sources() : [];
  // The ETag cache lives in the store file (keyed by identity and URL, one row per GET answer). The
  // store is opened only once the repositories resolve, so a bad name or token writes no file.
  let store: Store | null = null;
  const etags: EtagCache = {
    get: (i, u) => store?.etags().get(i, u),
    set: (i, u, v) => store?.etags().set(i, u, v),
    flush: async () => {
      await store?.etags().flush();
    },
    stats: { hits: 0, stores: 0 },
  };
  const saver = setInterval(() => void etags.flush().catch(() => {}), 60_000);
  saver.unref();
  const client = createClient({
    baseUrl: apiUrl,
    tokens,
    sources,
    clock,
    etags,
    signal: interrupt.signal,
    onWait: (why, ms) => waits.push(`${why}: waiting ${fmtDuration(ms)}`),
    log: () => {},
  });
  try {
    return await withRunRecord(
      { logDir: ctx.logDir, label: 'crawl', command: 'crawl', argv: ctx.argv, options: ctx.opts },
      async (rec) => {
        try {
          if (!tokens.length && !sources.length)
            ctx.log('no token (GITHUB_TOKEN, GITHUB_TOKENS or --token): unauthenticated, 60 requests/hour');
          else {
            await client.identify();
            ctx.log(identitySummary(client.pool.size, client.pool.identities()));
          }
          const metas = await resolveRepos(client, repos);
          for (const m of metas) if (m.renamed) ctx.log(`${m.requested} was renamed to ${m.full}`);
          store = await Store.open(db);
          const report = crawlReporter(ctx, client, clock, waits);
          let gaps = 0;
          try {
            await crawl({
              repos: metas,
              client,
              sink: store,
              since,
              concurrency: o.concurrency === undefined ? undefined : Number(o.concurrency),
              survivors,
              signal: interrupt.signal,
              onGap: (g) => {
                gaps++;
                ctx.log(
                  `${g.repo} ${g.stream}: GitHub answered a node as null (${g.message}); recorded as a gap`,
                );
              },
              onProgress: report.update,
            });
            report.done();
          } finally {
            await etags.flush();
          }
          const summary = {
            db,
            repos: metas.map((m) => m.full),
            requests: client.sent(),
            identities: client.pool.identities().length,
            gaps,
            not_modified: client.counters.notModified,
            primary_limited: client.counters.primaryLimited,
            secondary_limited: client.counters.secondaryLimited,
            waited_ms: client.pool.waitedMs,
          };
          ctx.result(
            `crawled ${metas.length} repositories into ${db}: ${summary.requests.core} REST + ${summary.requests.graphql} GraphQL requests, ${summary.not_modified} answered 304`,
          );
          ctx.emitJson(summary);
          for (const m of metas) await rec.sample({ id: m.full, outcome: 'pass', duration_ms: 0 });
          return { code: 0, outputs: { store: db }, metrics: summary };
        } catch (e) {
          // an interrupted crawl is cancelled (and resumable), not failed
          if (interrupt.signal.aborted) throw new CancelledError(resumeCommand(ctx.argv));
          throw e;
        }
      },
    );
  } catch (e) {
    if (interrupt.signal.aborted) throw new CancelledError(resumeCommand(ctx.argv));
    throw e;
  } finally {
    clearInterval(saver);
    interrupt.dispose();
    await (store as Store | null)?.close();
  }
}

async function runFake(ctx: CommandContext): Promise<number> {
  const o = ctx.opts;
  const { FakeGitHub, ALL_FAULTS } = await import('../testing/index.ts');
  const scale = Number(o.clockScale ?? 1);
  if (!(scale > 0)) throw new UsageError('--clock-scale must be > 0');
  const clock = new SimClock(scale);
  const fake = FakeGitHub.start({
    corpus: { seed: String(o.seed ?? 1), repos: Number(o.repos ?? 3), entries: Number(o.entries ?? 3000) },
    clock,
    faults: o.faults ? ALL_FAULTS : {},
    budget: o.budget === undefined ? undefined : Number(o.budget),
    port: o.port === undefined ? undefined : Number(o.port),
  });
  const repos = fake.corpus.repos().map((r) => r.full);
  ctx.log(`fake GitHub listening on ${fake.url}`);
  ctx.log(`tokens: ${fake.tokens.join(', ')}`);
  ctx.log(
    `repositories: ${repos.length > 5 ? `${repos.slice(0, 5).join(', ')} … (${repos.length})` : repos.join(', ')}`,
  );
  ctx.log(
    `try: GITHUB_TOKEN=${fake.tokens[0]} faun crawl --api-url ${fake.url} --repos ${repos.slice(0, 2).join(',')} --db crawl.duckdb${scale !== 1 ? ` --clock ${clock.spec()}` : ''}`,
  );
  ctx.emitJson({ url: fake.url, tokens: fake.tokens, repos, clock: clock.spec() });
  const interrupt = onInterrupt(() => null);
  await new Promise<void>((resolve) =>
    interrupt.signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  interrupt.dispose();
  await fake.stop();
  ctx.log(`served ${fake.log.length} requests`);
  return 0;
}

export const commands = [
  defineCommand({
    name: 'crawl',
    summary: 'crawl GitHub issues and PRs into a DuckDB store (resumable)',
    description:
      'Lists issues+PRs (REST), pairs them through GraphQL (merged PRs, cross-references), then fetches comments, events and PR files only for pairs that survive the cheap filters. Checkpoints after every page: re-run the same command to resume.',
    examples: [
      'faun crawl --repos pallets/flask,psf/requests --db crawl.duckdb',
      'GITHUB_TOKENS=t1,t2 faun crawl --repos repos.txt --db crawl.duckdb --since 2025-01-01T00:00:00Z',
    ],
    options: [
      {
        name: 'repos',
        type: 'string',
        arg: 'FILE|LIST',
        required: true,
        description: 'a file with one owner/repo per line, or owner/repo,owner/repo',
      },
      {
        name: 'db',
        type: 'string',
        arg: 'FILE',
        required: true,
        description: 'DuckDB store to write (created if missing)',
      },
      {
        name: 'token',
        type: 'list',
        repeatable: true,
        arg: 'TOKEN',
        description: 'GitHub token (repeatable; also GITHUB_TOKEN, GITHUB_TOKENS=a,b)',
      },
      {
        name: 'api-url',
        type: 'string',
        arg: 'URL',
        description: 'API base URL (GitHub Enterprise or the fake)',
      },
      {
        name: 'since',
        type: 'string',
        arg: 'ISO',
        description: 'incremental: only entries updated since this time',
      },
      {
        name: 'survivors',
        type: 'string',
        choices: ['strict', 'linked'],
        default: 'strict',
        description: 'which pairs get per-entity calls',
      },
      {
        name: 'concurrency',
        type: 'number',
        arg: 'N',
        description:
          'repositories crawled in parallel (default: 2, or one per distinct identity when there are more)',
      },
      {
        name: 'clock',
        type: 'string',
        arg: 'SPEC',
        description: "time source: real (default) or the fake server's simulated clock spec",
      },
    ],
    run: runCrawl,
  }),
  defineCommand({
    name: 'fake-github',
    summary: 'start the fake GitHub server on loopback (until Ctrl+C)',
    examples: [
      'faun fake-github --repos 3 --entries 3000 --seed 1',
      'faun fake-github --repos 30 --entries 800000 --faults --port 8787',
    ],
    options: [
      { name: 'repos', type: 'number', arg: 'N', default: 3, description: 'repositories to generate' },
      {
        name: 'entries',
        type: 'number',
        arg: 'M',
        default: 3000,
        description: 'issues + PRs over all repositories',
      },
      { name: 'seed', type: 'string', arg: 'S', default: '1', description: 'corpus seed' },
      {
        name: 'faults',
        type: 'boolean',
        default: false,
        description: 'secondary limits, 5xx bursts and GraphQL errors',
      },
      { name: 'port', type: 'number', arg: 'P', description: 'port (default: any free port)' },
      {
        name: 'budget',
        type: 'number',
        arg: 'N',
        description: 'primary requests per token per hour (default 5000)',
      },
      {
        name: 'clock-scale',
        type: 'number',
        arg: 'X',
        default: 1,
        description: 'simulated time runs X times faster (pass the printed --clock to crawl)',
      },
    ],
    run: runFake,
  }),
];
