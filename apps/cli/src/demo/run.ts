/**
 * `faun demo`: the whole pipeline offline — fake GitHub on loopback → crawl into DuckDB → curate (funnel)
 * → build QA / FL / CE datasets → offline baselines → scores → container verification of generated
 * instances when a Docker engine is available → paper tables → where everything is.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { type CommandContext, UsageError } from '@faun/kit';
import { faun, type StepEnv, stage } from './steps.ts';
import { verifyStep } from './verify.ts';

export interface DemoOptions {
  out: string;
  repos: number;
  entries: number;
  seed: number;
  verify: 'auto' | 'never';
  fresh: boolean;
}

/** The offline baselines, labelled as such. */
export const BASELINES = [
  { task: 'fl', model: 'bm25', note: 'BM25 over path tokens (no model)' },
  { task: 'qa', model: 'baseline:title', note: 'issue title as the answer (trivial baseline)' },
  { task: 'ce', model: 'baseline:no-edit', note: 'empty edit (trivial baseline)' },
] as const;

/** Marks a folder as written by `faun demo`, so a later `--fresh` run may clear it. */
const MARKER = '.faun-demo';

/**
 * Makes the output folder ready. `--fresh` clears only a folder `faun demo` wrote before (it holds the
 * marker) — never a folder of the user's with other content.
 */
function prepareOutput(out: string, fresh: boolean): void {
  if (existsSync(out) && readdirSync(out).length > 0) {
    if (!existsSync(join(out, MARKER)))
      throw new UsageError(`${out} exists and was not written by faun demo; refusing to write into it`, {
        hint: 'pass --out with a new or empty folder',
      });
    if (fresh) rmSync(out, { recursive: true, force: true });
  }
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, MARKER), 'written by faun demo; `faun demo --fresh` may delete this folder\n');
}

export async function runDemo(o: DemoOptions, ctx: CommandContext): Promise<number> {
  const log = ctx.log;
  const out = resolve(o.out);
  prepareOutput(out, o.fresh);
  const db = join(out, 'faun.duckdb');
  const datasets = join(out, 'datasets');
  const preds = join(out, 'predictions');
  const scores = join(out, 'scores');
  const tables = join(out, 'tables');
  const logs = join(out, 'logs');
  for (const d of [preds, scores]) mkdirSync(d, { recursive: true });
  const TOTAL = 8;
  const started = Date.now();
  log(`faun demo → ${out}`);
  log('pipeline: fake GitHub → crawl → curate → build → predict (baselines) → score → verify → tables');

  stage(
    1,
    TOTAL,
    `fake GitHub: ${o.repos} generated repositories, ${o.entries} issues and PRs (seed ${o.seed})`,
    log,
  );
  const { FakeGitHub } = await import('@faun/github/testing');
  const fake = FakeGitHub.start({ corpus: { seed: o.seed, repos: o.repos, entries: o.entries } });
  try {
    const repoNames = fake.corpus.repos().map((r) => r.full);
    log(`serving ${repoNames.join(', ')} at ${fake.url}`);
    const s: StepEnv = {
      env: { GITHUB_TOKEN: fake.tokens[0] ?? '', FAUN_LOG_DIR: logs, FAUN_CACHE_DIR: join(out, 'cache') },
      log,
    };

    stage(2, TOTAL, 'crawl issues, PRs, comments, events and cross-references into DuckDB', log);
    await faun(['crawl', '--repos', repoNames.join(','), '--db', db, '--api-url', fake.url], s);
    await faun(['stats', '--db', db], s);

    stage(3, TOTAL, 'curate: pair issues with fixing PRs and apply the filters', log);
    await faun(['curate', '--db', db, '--api-url', fake.url], s);

    stage(4, TOTAL, 'build the QA, FL and CE datasets', log);
    await faun(['build', '--db', db, '--out', datasets, '--api-url', fake.url, '--name', 'faun-demo'], s);
  } finally {
    await fake.stop();
  }
  const s: StepEnv = { env: { FAUN_LOG_DIR: logs, FAUN_CACHE_DIR: join(out, 'cache') }, log };

  stage(5, TOTAL, 'predict with the offline baselines (no model is called)', log);
  await predictBaselines(datasets, preds, s);
  stage(6, TOTAL, 'score the predictions', log);
  await scoreBaselines(datasets, preds, scores, s);

  stage(7, TOTAL, 'verify gold and empty patches in containers', log);
  const execDir = o.verify === 'never' ? null : await verifyStep(out, s);
  if (o.verify === 'never') log('skipped (--verify never)');

  stage(8, TOTAL, 'paper tables and figures for the baselines', log);
  const { buildPaper } = await import('@faun/paper');
  await buildPaper({
    datasets,
    predictions: preds,
    execution: execDir ?? undefined,
    out: tables,
    seed: o.seed,
    log: (l) => log(`  ${l}`),
  });

  printWhere(log, { out, db, datasets, preds, scores, execDir, tables, logs }, started);
  return 0;
}

const predFile = (preds: string, b: (typeof BASELINES)[number]) =>
  join(preds, `${b.task}-${b.model.replace(/[:/]/g, '_')}.jsonl`);

/** Stage 5: each offline baseline on its task's dataset. */
async function predictBaselines(datasets: string, preds: string, s: StepEnv): Promise<void> {
  for (const b of BASELINES) {
    const dataset = join(datasets, `${b.task}.jsonl`);
    if (!existsSync(dataset)) {
      s.log(`no ${b.task}.jsonl was built; skipping ${b.model}`);
      continue;
    }
    s.log(`${b.task.toUpperCase()}: ${b.model} — ${b.note}`);
    await faun(
      ['predict', '--task', b.task, '--dataset', dataset, '--model', b.model, '--out', predFile(preds, b)],
      s,
    );
  }
}

/** Stage 6: `faun score` of each baseline's predictions. */
async function scoreBaselines(datasets: string, preds: string, scores: string, s: StepEnv): Promise<void> {
  for (const b of BASELINES) {
    const dataset = join(datasets, `${b.task}.jsonl`);
    const file = predFile(preds, b);
    if (!existsSync(dataset) || !existsSync(file)) continue;
    const out = join(scores, `${b.task}.jsonl`);
    await faun(['score', '--task', b.task, '--dataset', dataset, '--predictions', file, '--out', out], s);
  }
}

/** Where everything is, and the command that serves it as pages (the verification runs included). */
function printWhere(
  log: (line: string) => void,
  p: Record<'out' | 'db' | 'datasets' | 'preds' | 'scores' | 'tables' | 'logs', string> & {
    execDir: string | null;
  },
  started: number,
): void {
  const rel = (x: string) => relative(process.cwd(), x) || '.';
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  log(`\nfaun demo finished in ${secs} s. Everything is under ${rel(p.out)}/:`);
  log(`  store        ${rel(p.db)}          (bun run faun stats --db ${rel(p.db)})`);
  log(`  datasets     ${rel(p.datasets)}/   (qa.jsonl, fl.jsonl, ce.jsonl, card.json, README.md)`);
  log(`  predictions  ${rel(p.preds)}/`);
  log(`  scores       ${rel(p.scores)}/`);
  if (p.execDir) log(`  execution    ${rel(p.execDir)}/`);
  log(`  tables       ${rel(p.tables)}/tables.md  (also .tex, .csv, .json, length-*.svg/png)`);
  log(`  run records  ${rel(p.logs)}/`);
  log(`\nSee the results in a browser (leaderboard, runs, datasets):`);
  const imports = [p.preds, ...(p.execDir ? [p.execDir] : [])].map((x) => ` --import ${rel(x)}`).join('');
  log(
    `  bun run faun serve --store ${rel(p.db)} --datasets ${rel(p.datasets)}${imports} --database ${rel(join(p.out, 'api-db'))}`,
  );
  log('  then open http://127.0.0.1:8787');
}
