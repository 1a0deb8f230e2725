/**
 * The default work handlers: text scoring through `@faun/metrics`' `scoreTask` (the same function
 * `faun score` uses) and container verification through `@faun/harness`. Both packages load lazily so a
 * worker that only scores never loads the container stack.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RepoDirs } from '@faun/kit';
import type { scoreTask } from '@faun/metrics';
import type { ExecutionResult, ItemScore, SampleOutcome } from '@faun/schema';
import type { ItemOutcome, ItemResultInput, ScoreJobData, VerifyJobData } from './kinds.ts';
import type { WorkDeps } from './worker.ts';

/** @faun/metrics' `scoreTask` (a type-only import: the module itself loads lazily). */
export type ScoreTaskFn = typeof scoreTask;

/** Loads `scoreTask` from @faun/metrics (lazily, so a verify-only worker never loads the metrics). */
export function loadScoreTask(): Promise<ScoreTaskFn> {
  loaded ??= import('@faun/metrics').then((m) => m.scoreTask);
  return loaded;
}
let loaded: Promise<ScoreTaskFn> | undefined;

/**
 * A text item's outcome: `error` when the model call failed, `skipped` when no prediction was submitted,
 * `fail` when nothing scorable was extracted from the output (missing or unparsed). Otherwise FL items `pass` on exact match
 * (em = 1) and `fail` without; QA and CE items are `scored` — BLEU, ROUGE or CodeBLEU have no pass mark.
 */
export function textOutcome(
  task: string,
  score: ItemScore | undefined,
  predictionError: string | null | undefined,
): ItemOutcome {
  if (predictionError) return 'error';
  if (!score) return 'skipped';
  if (score.missing || score.unparsed) return 'fail';
  if (task !== 'fl') return 'scored';
  const em = score.scores.em;
  return em !== undefined && em >= 1 ? 'pass' : 'fail';
}

/** Scores a chunk with scoreTask and maps each item to a result. */
export async function scoreChunk(job: ScoreJobData, scoreTask?: ScoreTaskFn): Promise<ItemResultInput[]> {
  const fn = scoreTask ?? (await loadScoreTask());
  const started = performance.now();
  const result = await fn(job.task, job.items, job.predictions, { bootstrap: 0 });
  const byId = new Map(result.items.map((s) => [s.id, s]));
  const predErr = new Map(job.predictions.map((p) => [String(p.id), (p.error as string | null) ?? null]));
  const each = (performance.now() - started) / Math.max(1, job.items.length);
  return job.items.map((it) => {
    const id = String(it.id);
    const s = byId.get(id);
    return {
      runId: job.runId,
      itemId: id,
      outcome: textOutcome(job.task, s, predErr.get(id)),
      scores: s?.scores ?? {},
      answer: s?.answer ?? null,
      data: { ...(s?.note ? { note: s.note } : {}), ...(s?.unparsed ? { unparsed: true } : {}) },
      error: predErr.get(id) ?? null,
      durationMs: each,
    };
  });
}

/** Where and how verification jobs run. */
export interface VerifyConfig {
  /** `docker` (containers, default) or `local` (host processes, no isolation; for tests). */
  backend?: 'docker' | 'local';
  /** `owner/repo` → local git directory (offline); other repositories are cloned into the cache. */
  repoDirs?: RepoDirs;
  /** Per-instance test timeout, seconds (default 1800). */
  timeoutS?: number;
  /** Scratch folder for run directories and caches (default $FAUN_STATE_DIR or /var/cache/faun). */
  stateDir?: string;
}

const OUTCOMES: Record<ExecutionResult['outcome'], SampleOutcome> = {
  resolved: 'pass',
  unresolved: 'fail',
  apply_failed: 'fail',
  empty_patch: 'fail',
  timeout: 'timeout',
  invalid_log: 'error',
  infra_error: 'error',
  bad_input: 'error',
  // a forged verdict is the model's failure, never a pass; a flaky one is graded by the run's flaky policy
  tampered: 'fail',
  flaky: 'fail',
};

/** An execution result's item outcome (resolved → pass; infrastructure failures → error, never fail). */
export function executionOutcome(r: ExecutionResult): SampleOutcome {
  return OUTCOMES[r.outcome];
}

/** The last characters of a log kept with a result (the start of a long log is rarely the news). */
const LOG_TAIL = 20_000;

/**
 * The item result of one verified instance from its instance directory (`<run>/instances/<id>/`): the
 * test log, and the log of every stage that wrote one (`apply_output.txt`, the stages' own artifacts) in
 * `data.logs`, so a patch that did not apply shows why.
 */
export async function executionItem(
  runId: string,
  r: ExecutionResult,
  instanceDir: string | null,
): Promise<ItemResultInput> {
  const read = async (name: string) =>
    instanceDir
      ? await readFile(join(instanceDir, name), 'utf8').then(
          (t) => t.slice(-LOG_TAIL),
          () => null,
        )
      : null;
  const names = new Set(['apply_output.txt', ...(r.stages ?? []).flatMap((st) => (st.log ? [st.log] : []))]);
  names.delete('test_output.txt');
  const logs: Record<string, string> = {};
  for (const name of [...names].sort()) {
    if (name.includes('/') || name.includes('..')) continue;
    const text = await read(name);
    if (text !== null) logs[name] = text;
  }
  return {
    runId,
    itemId: r.instance_id,
    outcome: executionOutcome(r),
    data: { execution: r, ...(Object.keys(logs).length ? { logs } : {}) },
    log: await read('test_output.txt'),
    error: r.error,
    durationMs: r.duration_s * 1000,
  };
}

/**
 * Verifies one instance with @faun/harness' `verifyRun` (apply chain, tests, grading) in a scratch run
 * directory. An infrastructure error throws, so the queue retries the job with backoff; a final failure
 * is recorded as `error`, never as a model failure.
 */
export async function verifyOne(job: VerifyJobData, cfg: VerifyConfig = {}): Promise<ItemResultInput> {
  const h = await import('@faun/harness');
  const state = cfg.stateDir ?? process.env.FAUN_STATE_DIR ?? '/var/cache/faun';
  const runId = `${job.runId}-${randomBytes(4).toString('hex')}`;
  const dir = await mkdtemp(join(tmpdir(), 'faun-verify-job-'));
  try {
    const backend =
      cfg.backend === 'local' ? new h.LocalBackend(join(state, 'local-envs')) : new h.DockerBackend(runId);
    const out = await h.verifyRun({
      instances: [job.instance],
      predictions: [{ instance_id: job.instance.instance_id, model: job.model, patch: job.patch }],
      runId,
      dir,
      backend,
      workers: 1,
      timeoutS: cfg.timeoutS ?? 1800,
      repoDirs: cfg.repoDirs ?? {},
      cacheDir: join(state, 'repos'),
    });
    const r = out.results[0];
    if (!r) throw new Error(`verification produced no result for ${job.instance.instance_id}`);
    if (r.outcome === 'infra_error') throw new Error(`infrastructure failure: ${r.error ?? 'unknown'}`);
    // the run holds exactly one instance directory
    const [only] = await readdir(join(dir, 'instances')).catch(() => [] as string[]);
    return await executionItem(job.runId, r, only ? join(dir, 'instances', only) : null);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The default dependencies of a work handler. */
export function defaultWorkDeps(log?: (line: string) => void, verify: VerifyConfig = {}): WorkDeps {
  const slow = Number(process.env.FAUN_WORKER_SLOW_MS ?? 0);
  return {
    score: (job) => scoreChunk(job),
    verify: (job) => verifyOne(job, verify),
    ...(slow > 0 ? { slowMs: slow } : {}),
    ...(log ? { log } : {}),
  };
}
