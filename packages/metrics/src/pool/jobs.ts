/**
 * The unit of work a scoring pool runs: one `{hyp, ref}` pair with a metric family (`faun score-pairs`) or
 * one task item against one model output (`faun score`), or a whole `scoreTask` call (the API, so text
 * metrics and bootstrap resampling never hold its event loop). The same function runs in-process and in
 * the workers, so results do not depend on where or how many ways a file is scored.
 * @module
 */
import type { CeItem, FlItem, QaItem } from '@faun/schema';
import { GrammarNotLoadedError, initSyntax } from '@faun/syntax';
import { CODE_LANGS, type CodeLang, initCodeBleu } from '../codebleu/index.ts';
import { needsCodeBleu, type PairMetric, scorePair } from '../pairs.ts';
import { type ItemResult, scoreCe, scoreFl, scoreQa } from '../score/items.ts';
import type { ScoreTaskOptions, TaskScore } from '../score/task.ts';

/** One pair for {@link scorePair}. */
export interface PairJob {
  kind: 'pair';
  metric: PairMetric;
  hyp: string;
  ref: string;
  variant?: string;
  lang?: CodeLang;
}

/** One task item with one model output (scoreQa / scoreFl / scoreCe). */
export interface ItemJob {
  kind: 'item';
  item: QaItem | FlItem | CeItem;
  output: string;
}

/** One whole `scoreTask` call (items and predictions as they would be passed to it). */
export interface TaskJob {
  kind: 'task';
  task: string;
  items: readonly unknown[];
  predictions: readonly unknown[];
  opts: Omit<ScoreTaskOptions, 'scorer'>;
}

export type Job = PairJob | ItemJob | TaskJob;

const loaded = new Set<CodeLang>();

/** Loads a language's native parser, or its WebAssembly grammar where there is none. */
async function ensureCodeBleu(lang: CodeLang): Promise<void> {
  if (loaded.has(lang)) return;
  await initCodeBleu([lang], { wasm: 'lazy' });
  loaded.add(lang);
}

/** The CodeBLEU language a job needs loaded, if any. */
function codeLangOf(job: Job): CodeLang | null {
  if (job.kind === 'task') return null;
  if (job.kind === 'pair') return job.lang && needsCodeBleu(job.metric, job.lang) ? job.lang : null;
  if (job.item.task !== 'ce') return null;
  const l = job.item.language as CodeLang;
  return CODE_LANGS.includes(l) ? l : null;
}

/** Runs one job (loading the grammar it needs first). Throws what the metric throws. */
export async function runJob(job: Job): Promise<Record<string, number> | ItemResult | TaskScore> {
  if (job.kind === 'task') {
    // loaded on first use: pair scoring (score-pairs) does not load the task-record schemas
    const { scoreTask } = await import('../score/task.ts');
    const run = scoreTask as (...a: unknown[]) => Promise<TaskScore>;
    return run(job.task, job.items, job.predictions, job.opts);
  }
  const lang = codeLangOf(job);
  if (lang && !loaded.has(lang)) await ensureCodeBleu(lang);
  try {
    return scoreJob(job as PairJob | ItemJob);
  } catch (e) {
    // a text the native parser cannot take (or TSX) needs the WebAssembly grammar: load it, score again
    if (!(e instanceof GrammarNotLoadedError)) throw e;
    await initSyntax([e.lang]);
    return scoreJob(job as PairJob | ItemJob);
  }
}

function scoreJob(job: PairJob | ItemJob): Record<string, number> | ItemResult {
  if (job.kind === 'pair')
    return scorePair(job.metric, job.hyp, job.ref, { variant: job.variant, lang: job.lang });
  const { item, output } = job;
  return item.task === 'qa'
    ? scoreQa(item, output)
    : item.task === 'fl'
      ? scoreFl(item, output)
      : scoreCe(item, output);
}

/** Messages between a pool and its workers. */
export interface JobBatch {
  jobs: { id: number; job: Job }[];
}
export type JobReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string; name: string };

/** The error a failed job's reply stands for (its name kept, so callers can tell kinds apart). */
export function replyError(r: { error: string; name: string }): Error {
  const e = new Error(r.error);
  e.name = r.name;
  return e;
}
