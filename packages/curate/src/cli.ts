/** `faun` subcommands owned by this package: `curate` and `build`. */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import {
  type CommandContext,
  defineCommand,
  InputError,
  onInterrupt,
  type RunRecord,
  requireReadableFile,
  resumeCommand,
  UsageError,
  withRunRecord,
} from '@faun/kit';
import { readJsonl, stableStringify, type TaskItem, type TaskName, writeFileAtomic } from '@faun/schema';
import { buildFromStore } from './build.ts';
import { filterOptions, filtersFrom, formatAgreement, sourceOptions } from './cli-options.ts';
import { curateStore } from './curate.ts';
import { writeDataset } from './dataset.ts';
import { buildExecTask } from './exec-cli.ts';
import type { FunnelRow } from './funnel.ts';
import { formatFunnel } from './funnel-table.ts';
import { KEEP_RULES, parseKeepRule, readReview, reviewRows, toCsv } from './review.ts';
import { collect, openStore } from './store.ts';
import { importRow, normalizeRow } from './swebench.ts';
import { makeSource, providerGenerate, syntaxCommentOnly } from './wiring.ts';

/** The store path, checked to exist (opening a missing path would create an empty store). */
function needStore(path: string, open: unknown): string {
  if (open === openStore && !existsSync(path))
    throw new InputError(`no store at ${path}`, {
      hint: `crawl first: faun crawl --repos OWNER/REPO --db ${path}`,
    });
  return path;
}

/** `faun curate`; `open` is replaceable for tests. */
export async function runCurate(ctx: CommandContext, open = openStore): Promise<number> {
  const o = ctx.opts;
  if (o.reviewIn && o.reviewOut) throw new UsageError('use --review-out or --review-in, not both');
  const filters = filtersFrom(o);
  const irq = onInterrupt(() => null);
  const store = await open(needStore(String(o.db), open));
  const recorded = (fn: (rec: RunRecord) => Promise<number>) =>
    withRunRecord(
      { logDir: ctx.logDir, label: 'curate', command: 'curate', argv: ctx.argv, options: ctx.opts },
      async (rec) => ({ code: await fn(rec), outputs: { store: String(o.db) } }),
    );
  try {
    return await recorded(async (rec) => {
      const source = makeSource((o.repoDir as string[] | undefined) ?? [], o.apiUrl as string | undefined);
      const model = typeof o.semanticCheck === 'string' ? o.semanticCheck : null;
      const review = o.reviewIn
        ? {
            rows: readReview(await readFile(String(o.reviewIn), 'utf8'), String(o.reviewIn)),
            rule: parseKeepRule(String(o.keepRule)),
            file: String(o.reviewIn),
          }
        : null;
      const progress = ctx.progress({ label: 'curate' });
      const result = await curateStore(store, {
        filters,
        commentOnly: await syntaxCommentOnly(source),
        generate: model ? await providerGenerate(model, irq.signal) : null,
        model,
        review,
        repos: (o.repos as string[] | undefined) ?? [],
        concurrency: Number(o.concurrency ?? 4),
        onRepo: (r) => progress.tick(1, r),
        onPair: () => progress.status('semantic check'),
      });
      progress.done();
      ctx.result(formatFunnel(result.rows));
      ctx.log('');
      ctx.log(formatAgreement(result.agreement.total));
      if (result.review) {
        const k = result.review.kappa;
        const f = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));
        ctx.log(
          `review: ${result.review.reviewed} reviewed, rule ${result.review.rule}; Cohen's kappa reviewers ${f(k.reviewers)}, LLM vs reviewer 1 ${f(k.llmVsReviewer1)}, LLM vs reviewer 2 ${f(k.llmVsReviewer2)}`,
        );
      }
      if (o.reviewOut) {
        const titles = new Map(result.pairs.map((p) => [`${p.pair.repo}#${p.pair.issue}`, p.issue.title]));
        const rows = reviewRows(result.labels, titles);
        const base = String(o.reviewOut).replace(/\.(csv|jsonl)$/, '');
        await writeFileAtomic(`${base}.csv`, toCsv(rows));
        await writeFileAtomic(`${base}.jsonl`, rows.map((r) => `${stableStringify(r)}\n`).join(''));
        ctx.log(
          `review sheet: ${base}.csv and ${base}.jsonl (${rows.length} pairs; fill reviewer_1 / reviewer_2 with yes/no)`,
        );
      }
      ctx.log(`${result.pairs.length} fix pairs stored in ${o.db}`);
      for (const p of result.pairs)
        await rec.sample({
          id: `${p.pair.repo}#${p.pair.issue}`,
          outcome: 'pass',
          duration_ms: 0,
          data: { pr: p.pair.pr },
        });
      ctx.emitJson({
        pairs: result.pairs.map((p) => p.pair),
        funnel: result.rows,
        agreement: result.agreement,
        removed: result.removed,
        undecided: result.undecided,
        kappa: result.review?.kappa ?? null,
      });
      return 0;
    });
  } finally {
    irq.dispose();
    await store.close?.();
  }
}

/** `faun build`; `open` is replaceable for tests. */
export async function runBuild(ctx: CommandContext, open = openStore): Promise<number> {
  const o = ctx.opts;
  if (typeof o.fromSwebench === 'string') await requireReadableFile(o.fromSwebench, 'from-swebench');
  const inputs = [o.fromSwebench, o.db].filter((x): x is string => typeof x === 'string');
  return withRunRecord(
    { logDir: ctx.logDir, label: 'build', command: 'build', argv: ctx.argv, options: ctx.opts, inputs },
    async (rec) => {
      const code = await buildDatasets(ctx, open, rec);
      return { code, outputs: { datasets: String(o.out) } };
    },
  );
}

type Skipped = Array<{ task: string; reason: string; id: string }>;

/** What the build read: the items per task, the skips, the store's funnel, the exec instances written. */
interface Gathered {
  name: string;
  items: Partial<Record<TaskName, TaskItem[]>>;
  skipped: Skipped;
  funnel: FunnelRow[];
  execBuilt: number;
}

interface BuildPlan {
  tasks: TaskName[];
  wantsExec: boolean;
  source: ReturnType<typeof makeSource>;
  limit: number;
  signal: AbortSignal;
}

/** FL and CE items from SWE-bench-style rows (`--from-swebench`). */
async function gatherFromRows(ctx: CommandContext, file: string, plan: BuildPlan): Promise<Gathered> {
  const { tasks, limit, signal } = plan;
  const want = tasks.filter((t) => t !== 'qa');
  let skipped: Skipped = [];
  if (tasks.includes('qa'))
    skipped.push({ id: '*', task: 'qa', reason: 'benchmark rows carry no conversation' });
  const progress = ctx.progress({ label: 'import' });
  const fl: TaskItem[] = [];
  const ce: TaskItem[] = [];
  let rows = 0;
  for await (const { line, value } of readJsonl<Record<string, unknown>>(file)) {
    if (signal.aborted || rows++ >= limit) break;
    const r = await importRow(normalizeRow(value, `${file}:${line}`), plan.source);
    fl.push(...r.fl);
    ce.push(...r.ce);
    skipped.push(...r.skipped);
    progress.tick(1, String(value.instance_id ?? line));
  }
  progress.done();
  const items: Gathered['items'] = {};
  if (want.includes('fl')) items.fl = fl;
  if (want.includes('ce')) items.ce = ce;
  skipped = skipped.filter((x) => tasks.includes(x.task as TaskName));
  return { name: basename(file, extname(file)), items, skipped, funnel: [], execBuilt: 0 };
}

/** The task items of a curated store (`--db`), and the exec rows when asked for. */
async function gatherFromStore(
  ctx: CommandContext,
  open: typeof openStore,
  plan: BuildPlan,
): Promise<Gathered> {
  const o = ctx.opts;
  const { tasks } = plan;
  const name = basename(String(o.db), extname(String(o.db)));
  const g: Gathered = { name, items: {}, skipped: [], funnel: [], execBuilt: 0 };
  const store = await open(needStore(String(o.db), open));
  try {
    if (plan.wantsExec) {
      const r = await buildExecTask(ctx, typeof o.commits === 'string' ? null : store, plan.signal);
      g.execBuilt = r.instances;
      g.skipped.push(...r.skipped);
    }
    const progress = ctx.progress({ label: 'build' });
    const built = await buildFromStore(store, {
      tasks,
      source: plan.source,
      onPair: (id) => progress.tick(1, id),
      signal: plan.signal,
      limit: plan.limit,
    });
    progress.done();
    for (const t of tasks) g.items[t] = built[t];
    g.skipped.push(...built.skipped);
    g.funnel = await collect(store.funnel());
    for (const t of tasks) await store.putTaskItems?.(`${name}/${t}`, built[t]);
  } finally {
    await store.close?.();
  }
  return g;
}

/** Reads the build's input: exec rows from commits, benchmark rows, or a curated store. */
async function gather(ctx: CommandContext, open: typeof openStore, plan: BuildPlan): Promise<Gathered> {
  const o = ctx.opts;
  if (plan.wantsExec && !plan.tasks.length && typeof o.commits === 'string') {
    const name =
      typeof o.name === 'string' ? o.name : basename(String(o.commits), extname(String(o.commits)));
    const r = await buildExecTask(ctx, null, plan.signal);
    return { name, items: {}, skipped: r.skipped, funnel: [], execBuilt: r.instances };
  }
  if (o.fromSwebench) return gatherFromRows(ctx, String(o.fromSwebench), plan);
  if (!o.db)
    throw new UsageError(
      'give --db FILE (a curated store), --from-swebench rows.jsonl, or --tasks exec --commits FILE',
    );
  return gatherFromStore(ctx, open, plan);
}

/** The error for a build that produced nothing: the input, the commonest skip reasons, what to do. */
function nothingBuilt(o: CommandContext['opts'], skipped: Skipped): InputError {
  const reasons = new Map<string, number>();
  for (const sk of skipped) reasons.set(sk.reason, (reasons.get(sk.reason) ?? 0) + 1);
  const top = [...reasons]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([r, n]) => `${n}× ${r}`)
    .join('; ');
  const from = o.fromSwebench
    ? `--from-swebench ${String(o.fromSwebench)}`
    : o.db
      ? `--db ${String(o.db)}`
      : `--commits ${String(o.commits)}`;
  return new InputError(
    `${from}: no items were built${top ? ` (skipped: ${top})` : ' (the input has no rows)'}`,
    {
      hint: o.fromSwebench
        ? 'benchmark rows carry no file contents: pass --repo-dir OWNER/REPO=PATH (or --api-url) so the files can be read; --allow-empty writes empty datasets'
        : 'run faun curate first, or pass --allow-empty to write empty datasets',
    },
  );
}

/** The tasks asked for (`exec` apart); benchmark rows have no conversation, so no QA unless asked. */
function plannedTasks(ctx: CommandContext): { tasks: TaskName[]; wantsExec: boolean } {
  const o = ctx.opts;
  const requested = (o.tasks as string[] | undefined) ?? ['qa', 'fl', 'ce'];
  const wantsExec = requested.includes('exec');
  let tasks = requested.filter((t) => t !== 'exec') as TaskName[];
  if (wantsExec && o.fromSwebench)
    throw new UsageError('--tasks exec builds from --commits or --db, not from --from-swebench rows');
  // Benchmark rows have no conversation: without an explicit --tasks, import builds FL and CE only.
  if (o.fromSwebench && ctx.sources.tasks !== 'flag' && ctx.sources.tasks !== 'env')
    tasks = tasks.filter((t) => t !== 'qa');
  return { tasks, wantsExec };
}

async function buildDatasets(ctx: CommandContext, open: typeof openStore, rec: RunRecord): Promise<number> {
  const o = ctx.opts;
  const out = String(o.out);
  const planned = plannedTasks(ctx);
  const source = makeSource((o.repoDir as string[] | undefined) ?? [], o.apiUrl as string | undefined);
  const irq = onInterrupt(() => (ctx.argv.length ? resumeCommand(ctx.argv) : null));
  const limit = typeof o.limit === 'number' ? o.limit : Number.POSITIVE_INFINITY;
  if (Number.isFinite(limit)) ctx.log(`--limit ${limit}: the dataset is partial (for testing only)`);
  let g: Gathered;
  try {
    g = await gather(ctx, open, { ...planned, source, limit, signal: irq.signal });
    if (irq.signal.aborted) {
      ctx.log('interrupted: nothing written; run the same command again');
      return 130;
    }
  } finally {
    irq.dispose();
  }
  const { items, skipped, funnel } = g;
  const built = Object.values(items).reduce((n, list) => n + (list?.length ?? 0), g.execBuilt);
  if (built === 0 && !o.allowEmpty) throw nothingBuilt(o, skipped);
  const card = await writeDataset(out, items, {
    name: typeof o.name === 'string' ? o.name : g.name,
    source: o.fromSwebench
      ? `SWE-bench rows ${basename(String(o.fromSwebench))}`
      : o.db
        ? `store ${basename(String(o.db))}`
        : `commits ${basename(String(o.commits))}`,
    funnel,
    skipped,
  });
  for (const [file, f] of Object.entries(card.files)) {
    ctx.log(`${join(out, file)}: ${f.items} items`);
    await rec.sample({ id: file, outcome: 'pass', duration_ms: 0, data: { items: f.items } });
  }
  const nSkipped = skipped.length;
  if (nSkipped) ctx.log(`${nSkipped} items skipped (reasons in ${join(out, 'README.md')})`);
  ctx.result(`content hash ${card.content_hash}`);
  ctx.emitJson(card);
  return 0;
}

export const commands = [
  defineCommand({
    name: 'curate',
    summary: 'pair issues with fixing PRs and apply the filters',
    description:
      'Runs the FAUN-Eval funnel over every crawled repository in the store (bot, length, size, duplicate,\n' +
      'event, link and participant filters; pairing; merged / default-branch / one-to-one / one-file /\n' +
      'docs-or-test / comment-only filters; optional LLM semantic check and human review) and stores the\n' +
      'surviving pairs and the funnel table (see `faun stats`).',
    examples: [
      'faun curate --db faun.duckdb',
      'faun curate --db faun.duckdb --semantic-check openai:gpt-4o-mini --review-out review',
      'faun curate --db faun.duckdb --review-in review.csv --keep-rule llm+one',
    ],
    options: [
      {
        name: 'db',
        type: 'string',
        arg: 'FILE',
        description: 'DuckDB store written by faun crawl',
        required: true,
      },
      {
        name: 'semantic-check',
        type: 'string',
        arg: 'MODEL',
        description: 'label pairs with this model (provider:name)',
      },
      {
        name: 'review-out',
        type: 'string',
        arg: 'FILE',
        description: 'write the review sheet (FILE.csv + FILE.jsonl)',
      },
      {
        name: 'review-in',
        type: 'string',
        arg: 'FILE',
        input: true,
        description: 'import reviewer decisions (.csv or .jsonl)',
      },
      {
        name: 'keep-rule',
        type: 'string',
        description: 'which pairs a review keeps',
        choices: [...KEEP_RULES],
        default: 'both',
      },
      { name: 'repos', type: 'list', arg: 'OWNER/REPO', description: 'only these repositories' },
      ...filterOptions,
      ...sourceOptions,
    ],
    run: (ctx) => runCurate(ctx),
  }),
  defineCommand({
    name: 'build',
    summary: 'build the QA / FL / CE task datasets and execution instances (exec)',
    description:
      'Writes <task>.jsonl (sorted, stable keys), card.json and README.md into --out. --tasks exec writes\n' +
      'exec.swebench.jsonl and exec.msb.jsonl (execution instances: base = first parent, the diff split into\n' +
      'patch and test_patch) and exec.funnel.json (every skipped commit with its reason).',
    examples: [
      'faun build --db faun.duckdb --out datasets/faun --repo-dir pallets/flask=../flask',
      'faun build --from-swebench with-files.jsonl --out datasets/swebench-lite --tasks fl,ce',
      'faun build --tasks exec --repo-dir google/uuid=../uuid --commits fixes.txt --out datasets/uuid-exec',
    ],
    options: [
      { name: 'db', type: 'string', arg: 'FILE', description: 'curated DuckDB store' },
      { name: 'out', type: 'string', arg: 'DIR', description: 'output folder', required: true },
      {
        name: 'allow-empty',
        type: 'boolean',
        default: false,
        description: 'write the datasets even when no item could be built (otherwise an error)',
      },
      {
        name: 'tasks',
        type: 'list',
        arg: 'TASKS',
        description: 'tasks to build',
        choices: ['qa', 'fl', 'ce', 'exec'],
        default: ['qa', 'fl', 'ce'],
      },
      {
        name: 'commits',
        type: 'string',
        arg: 'FILE',
        description:
          'exec: fix/merge commits to turn into instances (JSONL {commit, pr?, repo?, problem_statement?, language?} or lines "<commit> [pr_number]"); read in the --repo-dir clones',
      },
      {
        name: 'test-split',
        type: 'string',
        choices: ['dirs', 'substring'],
        default: 'dirs',
        description:
          "exec: a file is a test file when a directory is named test/tests/e2e/testing (dirs), or when the path contains 'test' anywhere (substring, as SWE-bench's extract_patches); per-language rules apply on top",
      },
      {
        name: 'from-swebench',
        type: 'string',
        arg: 'FILE',
        description: 'import SWE-bench / Multi-SWE-bench rows',
      },
      { name: 'name', type: 'string', arg: 'NAME', description: 'dataset name on the card' },
      ...sourceOptions,
    ],
    run: (ctx) => runBuild(ctx),
  }),
];
