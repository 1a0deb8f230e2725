/**
 * `faun score-pairs`: scores `{hyp, ref, lang?}` JSONL lines with one metric family (or all) and writes
 * each line back with the metric fields added. Bad lines get an `error` field (`file:line: field:
 * problem`) and never stop the run; at the end the count and the first few messages go to stderr and
 * the exit code is 1.
 */
import { join } from 'node:path';
import {
  type CommandContext,
  defineCommand,
  InputError,
  newRunId,
  onInterrupt,
  type Progress,
  RunRecord,
  resumeCommand,
  UsageError,
} from '@faun/kit';
import { formatIssue, parseJsonlLine, readLines, toJsonlLine } from '@faun/schema/io';
import { nativeExpected } from '@faun/syntax';
import { CODE_LANGS, type CodeLang, initCodeBleu } from '../codebleu/index.ts';
import { PAIR_METRICS, PAIR_VARIANTS, type PairMetric } from '../pairs.ts';
import { createScorer, inOrder, Later } from '../pool/pool.ts';
import { requireReadableFile } from './input.ts';
import { checkOutPath, checkResumedLine, countLines, finishedLines, LineAppender } from './pairs-output.ts';
import { THREADS_OPTION, threadsOption } from './threads.ts';

/** Families whose per-pair cost is worth a worker pool (the others run in this process). */
const POOLED_METRICS = new Set<PairMetric>(['codebleu', 'all', 'editsim', 'lev', 'rougeL']);

/**
 * Pairs each scoring thread beyond the first needs to pay for starting it: a worker loads its own runtime
 * and grammars and warms up its own compiled code. With the WASM parser that costs CodeBLEU about 2.5
 * CPU-seconds (the WASM code itself warms up: its first 500 real-code pairs take ~6 ms each, later ones
 * ~1.2 ms), the time of ~2,000 warm pairs; with the native parser (@faun/syntax `nativeExpected`) a worker
 * costs ~0.3 CPU-seconds of its own warm-up, and on a 2-core machine a single lane already keeps the second
 * core busy with the JIT compiler and the collector while it warms up: measured on real-code hunks, a second
 * lane gains nothing on 500 pairs and ~10% on 1,000. A smaller input runs on fewer threads than asked.
 * Results do not depend on the thread count, so this changes only the time.
 */
export const PAIRS_PER_THREAD = 2000;
/** {@link PAIRS_PER_THREAD} when the grammars parse natively. */
export const PAIRS_PER_THREAD_NATIVE = 500;

/**
 * The threads worth starting for `pairs` pairs when `threads` are allowed; FAUN_PAIRS_PER_THREAD overrides
 * {@link PAIRS_PER_THREAD} (e.g. 1 to run every asked-for thread on a small file when checking identity).
 */
export function usefulThreads(
  threads: number,
  pairs: number,
  perThread = Number(process.env.FAUN_PAIRS_PER_THREAD ?? defaultPerThread()),
): number {
  const per = Number.isFinite(perThread) && perThread >= 1 ? perThread : defaultPerThread();
  return Math.max(1, Math.min(threads, Math.floor(pairs / per)));
}

function defaultPerThread(): number {
  return nativeExpected() ? PAIRS_PER_THREAD_NATIVE : PAIRS_PER_THREAD;
}

/** How many failed lines are quoted on stderr at the end. */
const SHOWN_ERRORS = 5;

/** Lines longer than this are reported instead of scored. */
export const MAX_LINE_BYTES = 5 * 1024 * 1024;

type Row = Record<string, unknown>;

/** Validates one parsed line; returns the problem as [field, message] or null. */
function checkRow(v: unknown, langOpt: string | undefined, metric: PairMetric): [string, string] | null {
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    return ['', 'expected a JSON object {hyp, ref}'];
  const r = v as Row;
  if (r.ref === undefined) return ['ref', 'missing (each line needs "hyp" and "ref" strings)'];
  if (typeof r.ref !== 'string') return ['ref', `expected a string, got ${typeof r.ref}`];
  if (r.hyp === undefined) return ['hyp', 'missing (each line needs "hyp" and "ref" strings)'];
  if (typeof r.hyp !== 'string') return ['hyp', `expected a string, got ${typeof r.hyp}`];
  const lang = r.lang ?? langOpt;
  if (lang !== undefined && (typeof lang !== 'string' || !CODE_LANGS.includes(lang as CodeLang)))
    return [
      r.lang !== undefined ? 'lang' : '--lang',
      `unknown language ${JSON.stringify(lang)} (supported: ${CODE_LANGS.join(', ')})`,
    ];
  if (metric === 'codebleu' && lang === undefined)
    return ['lang', 'missing: codebleu needs "lang" on the line or --lang'];
  return null;
}

interface PairOptions {
  metric: PairMetric;
  variant: string | undefined;
  langOpt: string | undefined;
  input: string;
  out: string | undefined;
  limit: number | undefined;
}

/** The options, checked (a bad flag is a usage error before anything is read). */
function pairOptions(ctx: CommandContext): PairOptions {
  const metric = String(ctx.opts.metric) as PairMetric;
  const variant = ctx.opts.variant === undefined ? undefined : String(ctx.opts.variant);
  const langOpt = ctx.opts.lang === undefined ? undefined : String(ctx.opts.lang);
  if (variant !== undefined) {
    const allowed = PAIR_VARIANTS[metric];
    if (!allowed?.includes(variant))
      throw new UsageError(
        allowed
          ? `--variant ${variant} is not a variant of ${metric} (choose one of ${allowed.join(', ')})`
          : `--metric ${metric} has no variants; drop --variant`,
      );
  }
  if (langOpt !== undefined && !CODE_LANGS.includes(langOpt as CodeLang))
    throw new UsageError(`--lang ${langOpt} is not supported (choose one of ${CODE_LANGS.join(', ')})`);
  return {
    metric,
    variant,
    langOpt,
    input: String(ctx.opts.input),
    out: ctx.opts.out === undefined ? undefined : String(ctx.opts.out),
    limit: ctx.opts.limit === undefined ? undefined : Number(ctx.opts.limit),
  };
}

/** Counts the input and reads what an earlier run with the same --out finished (resume). */
async function inputPlan(ctx: CommandContext, o: PairOptions): Promise<{ total: number; done: string[] }> {
  const { input, out, metric, langOpt } = o;
  await requireReadableFile(input, 'input');
  // the --lang parser loads while the input is counted and hashed (a failure shows on the first pair)
  if (langOpt && (metric === 'codebleu' || metric === 'all'))
    initCodeBleu([langOpt as CodeLang], { wasm: 'lazy' }).catch(() => {});
  if (out) checkOutPath(out, input);
  const total = await countLines(input, o.limit);
  if (total === 0 && !ctx.opts.allowEmpty)
    throw new InputError(`--input ${input}: no pairs (the file has no non-empty lines)`, {
      hint: 'pass a JSONL file of {"hyp", "ref"} lines, or --allow-empty to accept an empty input',
    });
  // resume: the complete lines of an earlier run with the same --out are kept, the rest is appended
  const done = out ? finishedLines(out) : [];
  if (done.length > total)
    throw new InputError(
      `--out ${out} has ${done.length} lines but --input ${input} only ${total}; it holds the scores of another input`,
      { hint: 'delete it or pass another --out to start over' },
    );
  return { total, done };
}

/** What the run counts as lines finish: per-field sums (for the means), errors, lines, resumed lines. */
class Tally {
  readonly sums: Record<string, { sum: number; n: number }> = {};
  readonly firstErrors: string[] = [];
  errors = 0;
  lines = 0;
  resumed = 0;

  add(fields: Record<string, unknown>): void {
    for (const [k, v] of Object.entries(fields)) {
      if (typeof v !== 'number') continue;
      const s = (this.sums[k] ??= { sum: 0, n: 0 });
      s.sum += v;
      s.n++;
    }
  }

  error(msg: string): void {
    if (this.firstErrors.length < SHOWN_ERRORS) this.firstErrors.push(msg);
    this.errors++;
  }

  means(): Record<string, number> {
    return Object.fromEntries(Object.entries(this.sums).map(([k, s]) => [k, s.sum / s.n]));
  }
}

interface Lane {
  o: PairOptions;
  done: string[];
  tally: Tally;
  rec: RunRecord;
  progress: Progress;
  scorer: ReturnType<typeof createScorer>;
  signal: AbortSignal;
}

/** Counts a line an earlier run finished, after checking it belongs to this input. */
function resumedLine(l: Lane, line: number, text: string): void {
  const { input, out } = l.o;
  const parsed = text.length <= MAX_LINE_BYTES ? parseJsonlLine<unknown>(input, line, text) : null;
  const row =
    parsed?.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value)
      ? (parsed.value as Row)
      : null;
  const o = checkResumedLine(out ?? '', l.tally.lines, l.done[l.tally.lines - 1] ?? '', input, line, row);
  if (typeof o.error === 'string') l.tally.error(o.error);
  else l.tally.add(Object.fromEntries(Object.entries(o).filter(([k]) => !row || !(k in row))));
  l.tally.resumed++;
  if (l.tally.resumed === l.done.length) l.progress.tick(l.tally.resumed, `resumed ${l.tally.resumed}`);
}

/**
 * The output rows in input order: resumed lines are counted, bad lines come back with an `error` field,
 * good ones are scored (on the pool) with the metric fields added. Every outcome is taken in input order
 * (a chain of promises), so sums, samples, messages and the output do not depend on --threads or timing.
 */
async function* scoredRows(l: Lane): AsyncGenerator<Row | Later<Row>> {
  const { input, limit, metric, variant, langOpt } = l.o;
  let chain: Promise<unknown> = Promise.resolve();
  const later = (f: () => Row | Promise<Row>): Later<Row> => {
    const next: Promise<Row> = chain.then(f);
    chain = next;
    return new Later(next);
  };
  for await (const { line, text } of readLines(input)) {
    if (l.signal.aborted) break;
    if (text.trim() === '') continue;
    if (limit !== undefined && l.tally.lines >= limit) break;
    l.tally.lines++;
    const started = performance.now();
    if (l.tally.lines <= l.done.length) {
      resumedLine(l, line, text);
      continue;
    }
    const fail = (field: string, problem: string, base: Row = {}): Row => {
      const msg = formatIssue({ file: input, line, field, problem });
      l.tally.error(msg);
      void l.rec.sample({
        id: `line-${line}`,
        outcome: 'error',
        duration_ms: performance.now() - started,
        error: msg,
      });
      l.progress.tick();
      return { ...base, error: msg };
    };
    if (text.length > MAX_LINE_BYTES || Buffer.byteLength(text) > MAX_LINE_BYTES) {
      const size = Buffer.byteLength(text);
      yield later(() =>
        fail(
          '',
          `line is ${size} bytes, over the ${MAX_LINE_BYTES / 1024 / 1024} MB limit; split or shorten it`,
        ),
      );
      continue;
    }
    const parsed = parseJsonlLine<unknown>(input, line, text);
    if (!parsed.ok) {
      const { field, problem } = parsed.issue;
      yield later(() => fail(field, problem));
      continue;
    }
    const problem = checkRow(parsed.value, langOpt, metric);
    const row = (
      typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value)
        ? parsed.value
        : {}
    ) as Row;
    if (problem) {
      yield later(() => fail(problem[0], problem[1], row));
      continue;
    }
    const lang = (row.lang ?? langOpt) as CodeLang | undefined;
    const job = l.scorer.pair({ metric, hyp: row.hyp as string, ref: row.ref as string, variant, lang });
    yield later(() =>
      job.then(
        (fields) => {
          l.tally.add(fields);
          void l.rec.sample({
            id: `line-${line}`,
            outcome: 'pass',
            duration_ms: performance.now() - started,
            data: fields,
          });
          l.progress.tick();
          return { ...row, ...fields };
        },
        (e: Error) => fail(lang ? 'hyp/ref' : '', `could not be scored: ${e.message}`, row),
      ),
    );
  }
}

/**
 * The closing report: the result line and the mean of every field — to stdout with --out, to stderr
 * without (stdout then holds the scored lines) — and the failed lines; returns the exit code.
 */
function closingReport(
  ctx: CommandContext,
  o: PairOptions,
  t: Tally,
  m: { total: number; again: string | null; cancelled: boolean; recDir: string },
): number {
  const means = t.means();
  if (m.cancelled) {
    ctx.result(
      `interrupted after ${t.lines}/${m.total} lines; ${o.out ? `the finished ones are in ${o.out}; resume with: ${m.again}` : 'output is partial'}`,
    );
    return 130;
  }
  const meanLines = Object.entries(means).map(([k, v]) => `  ${k.padEnd(28)} mean ${v.toFixed(6)}`);
  if (o.out) {
    ctx.result(
      `scored ${t.lines - t.errors}/${t.lines} lines${t.resumed ? ` (${t.resumed} resumed)` : ''} → ${o.out} (run record ${m.recDir})`,
    );
    for (const l of meanLines) ctx.result(l);
  } else if (!ctx.json)
    process.stderr.write(
      `scored ${t.lines - t.errors}/${t.lines} lines\n${meanLines.map((l) => `${l}\n`).join('')}`,
    );
  if (t.errors) {
    const more = t.errors > t.firstErrors.length ? `\n  … and ${t.errors - t.firstErrors.length} more` : '';
    process.stderr.write(
      `faun: ${t.errors} of ${t.lines} lines failed:\n  ${t.firstErrors.join('\n  ')}${more}\n` +
        `  (every failed line has an "error" field in the output${o.out ? ` ${o.out}` : ''})\n`,
    );
    return 1;
  }
  return 0;
}

async function run(ctx: CommandContext): Promise<number> {
  const o = pairOptions(ctx);
  const { total, done } = await inputPlan(ctx, o);
  const threads = threadsOption(ctx.opts.threads);
  const runId = newRunId('score-pairs');
  // the header (input hash, git state) is written while scoring starts
  const rec = RunRecord.open({
    dir: join(ctx.logDir, runId),
    runId,
    command: 'score-pairs',
    argv: ctx.argv,
    options: ctx.opts,
    inputs: [o.input],
  });
  const again = o.out ? resumeCommand(ctx.argv) : null;
  // SIGTERM keeps its default (stop at once, even inside one long item): finished lines are on disk up
  // to the last flush and a re-run resumes; the first Ctrl+C stops after the current line.
  const intr = onInterrupt(() => again, process.stderr, ['SIGINT']);
  const progress = ctx.progress({ label: 'score-pairs', total });
  const tally = new Tally();
  const sink = o.out ? new LineAppender(o.out) : null;
  const scorer = createScorer(POOLED_METRICS.has(o.metric) ? usefulThreads(threads, total - done.length) : 1);
  const lane: Lane = { o, done, tally, rec, progress, scorer, signal: intr.signal };
  try {
    // on Ctrl+C reading stops; the lines already in flight finish and are written, in order
    for await (const r of inOrder(scoredRows(lane), 64 * scorer.threads)) {
      const text = toJsonlLine(r);
      if (sink) sink.add(text);
      else process.stdout.write(text);
    }
  } finally {
    sink?.close();
    intr.dispose();
    await scorer.close();
  }
  const means = tally.means();
  const cancelled = intr.signal.aborted;
  const { lines, errors, resumed } = tally;
  await rec.finish(cancelled ? 'cancelled' : 'success', {
    outputs: o.out ? { scores: o.out } : {},
    metrics: { ...means, lines, errors, resumed },
  });
  progress.done(`${lines} lines, ${errors} errors${resumed ? `, ${resumed} resumed` : ''}`);
  ctx.emitJson({ run_id: runId, lines, errors, resumed, means, out: o.out ?? null, cancelled });
  return closingReport(ctx, o, tally, { total, again, cancelled, recDir: rec.dir });
}

export const scorePairs = defineCommand({
  name: 'score-pairs',
  summary: 'score {hyp, ref} pairs with one metric or all',
  description:
    'Reads {hyp, ref, lang?} JSONL and writes each line with the metric fields added, named as in the ' +
    'reference vector files (nltk_m1, nltk_m4, sacre_sent, cxg_smooth, rouge1_f, rougeL_f, rouge1_f_stem, ' +
    'rougeL_f_stem, indel_ratio, fuzz_ratio_lev, fuzz_ratio_difflib, lev_sim, em, em_strip, em_split; ' +
    'codebleu adds codebleu and its four components). indel_ratio and fuzz_* are 0–100, the rest 0–1. ' +
    '--metric all writes every field that applies (CodeBLEU only for lines with a language). Bad lines ' +
    'do not stop the run: every line is written, a bad one with an "error" field (file:line: field: ' +
    'problem); at the end the number of failed lines and the first few messages go to stderr and the ' +
    'exit code is 1 (0 only when every line was scored). Without --out, lines go to stdout. With --out, ' +
    'lines are appended as they finish: Ctrl+C keeps them and prints the command that resumes, and ' +
    'running the same command again continues after the last finished line (the result is byte-identical ' +
    'to an uninterrupted run). SIGTERM stops at once, even inside a long line; re-running resumes too.',
  examples: [
    'faun score-pairs --metric all --input pairs.jsonl --out scored.jsonl',
    'faun score-pairs --metric bleu --variant m4 --input pairs.jsonl',
    'faun score-pairs --metric codebleu --lang python --input code.jsonl --out code-scored.jsonl',
  ],
  options: [
    {
      name: 'metric',
      type: 'string',
      choices: [...PAIR_METRICS],
      required: true,
      description: 'metric family',
    },
    {
      name: 'input',
      short: 'i',
      type: 'string',
      arg: 'FILE',
      required: true,
      input: true,
      description: 'pairs (JSONL)',
    },
    {
      name: 'out',
      short: 'o',
      type: 'string',
      arg: 'FILE',
      description:
        'output JSONL, appended as lines finish; running the same command again resumes it (never the input)',
    },
    {
      name: 'allow-empty',
      type: 'boolean',
      description: 'accept an input without pairs (otherwise an error)',
      default: false,
    },
    {
      name: 'lang',
      type: 'string',
      choices: [...CODE_LANGS],
      description: 'language for codebleu when a line has none',
    },
    {
      name: 'variant',
      type: 'string',
      description: `metric variant: ${Object.entries(PAIR_VARIANTS)
        .map(([m, v]) => `${m}: ${v.join('|')}`)
        .join('; ')}`,
    },
    THREADS_OPTION,
  ],
  run,
});
