/**
 * Runs: submission (validation, quotas, idempotency, job fan-out), result ingestion (idempotent per
 * (run, item)) and finalization (report + leaderboard entry) once every item has a result.
 */
import { randomBytes } from 'node:crypto';
import { type ItemResult, type Queue, ResultMessage, type ScoreTaskFn } from '@faun/jobs';
import { sha256 } from '@faun/kit';
import type { TaskScore } from '@faun/metrics';
import { TaskName } from '@faun/schema';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/open.ts';
import { keyUsage, leaderboard, models, results, runDeletions, runs, submissions } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import { MODEL_NAME, MODEL_NAME_RULE } from '../routes/schemas.ts';
import type { DatasetRegistry } from './datasets.ts';
import { type JobPlan, parsePredictions, planJobs } from './plan.ts';
import { emptyCounts, metricsOf, type OutcomeCounts, proportion } from './report.ts';

export interface Caller {
  keyId: string;
  /** Admin keys may publish under any model name. */
  admin?: boolean;
  runsPerDay: number;
  itemsPerDay: number;
}

export interface SubmitInput {
  dataset: string;
  model?: string | undefined;
  predictions: unknown[];
  idempotencyKey?: string | undefined;
  bytes: number;
}

export interface RunServiceDeps {
  db: Db;
  datasets: DatasetRegistry;
  work: Queue;
  loadScoreTask: () => Promise<ScoreTaskFn>;
  log: (fields: Record<string, unknown>) => void;
  /** Items per text scoring job (default 25). */
  chunkSize?: number;
}

/**
 * Model names belong to the key that first published them (the server's own imports: to nobody but
 * admins). Another key publishing under a taken name is refused, so nobody can post as someone else.
 */
export async function claimModel(tx: Db, model: string, caller: Caller | null): Promise<void> {
  await tx
    .insert(models)
    .values({ name: model, ownerKeyId: caller?.keyId ?? null })
    .onConflictDoNothing();
  if (!caller || caller.admin) return;
  const [m] = await tx.select().from(models).where(eq(models.name, model));
  if (m && m.ownerKeyId !== caller.keyId)
    throw new ApiError(
      403,
      'model_owned',
      `the model name '${model}' belongs to ${m.ownerKeyId ? 'another key' : 'this server'}; publish under a name of your own`,
      { model },
    );
}

/** Today in UTC, `YYYY-MM-DD` (the quota period). */
export const utcDay = (at = new Date()) => at.toISOString().slice(0, 10);

export class RunService {
  constructor(private readonly d: RunServiceDeps) {}

  /**
   * Counts one submission of `items` items against the caller's quotas for today (UTC), inside `tx` —
   * the transaction that inserts the run, so concurrent submissions cannot overshoot. Throws a 429 (and
   * the transaction rolls back) when a quota is reached.
   */
  async takeQuota(tx: Db, caller: Caller, items: number): Promise<void> {
    const day = utcDay();
    const fits = caller.runsPerDay >= 1 && items <= caller.itemsPerDay;
    const [taken] = fits
      ? await tx
          .insert(keyUsage)
          .values({ keyId: caller.keyId, day, runs: 1, runItems: items })
          .onConflictDoUpdate({
            target: [keyUsage.keyId, keyUsage.day],
            set: { runs: sql`${keyUsage.runs} + 1`, runItems: sql`${keyUsage.runItems} + ${items}` },
            setWhere: sql`${keyUsage.runs} < ${caller.runsPerDay} and ${keyUsage.runItems} + ${items} <= ${caller.itemsPerDay}`,
          })
          .returning({ runs: keyUsage.runs })
      : [];
    if (taken) return;
    const [u] = await tx
      .select()
      .from(keyUsage)
      .where(and(eq(keyUsage.keyId, caller.keyId), eq(keyUsage.day, day)));
    const n = u?.runs ?? 0;
    const used = u?.runItems ?? 0;
    if (n >= caller.runsPerDay)
      throw new ApiError(
        429,
        'quota_exceeded',
        `run quota reached: ${n} of ${caller.runsPerDay} runs per day (UTC)`,
        { quota: 'runs_per_day', limit: caller.runsPerDay, used: n },
      );
    throw new ApiError(
      429,
      'quota_exceeded',
      `item quota reached: ${used} + ${items} exceeds ${caller.itemsPerDay} items per day (UTC)`,
      { quota: 'items_per_day', limit: caller.itemsPerDay, used },
    );
  }

  /**
   * Deletes a run: its queued jobs are cancelled (running ones in this process are aborted), its rows go,
   * and the deletion is recorded. Quota already used stays used.
   */
  async remove(runId: string, keyId: string | null): Promise<{ jobsCancelled: number }> {
    const { db } = this.d;
    const [run] = await db.select({ status: runs.status }).from(runs).where(eq(runs.id, runId));
    if (!run) return { jobsCancelled: 0 };
    const jobsCancelled = await this.d.work.cancelGroup(runId);
    await db.transaction(async (tx) => {
      await tx.delete(runs).where(eq(runs.id, runId));
      await tx
        .insert(runDeletions)
        .values({ runId, keyId, status: run.status, jobsCancelled })
        .onConflictDoNothing();
    });
    this.d.log({
      event: 'run_deleted',
      run_id: runId,
      key_id: keyId,
      status: run.status,
      jobs_cancelled: jobsCancelled,
    });
    return { jobsCancelled };
  }

  /** Creates a run and enqueues its jobs; a repeated idempotency key returns the first run. */
  async submit(caller: Caller, input: SubmitInput): Promise<{ id: string; created: boolean }> {
    const { db } = this.d;
    if (input.idempotencyKey) {
      const [prev] = await db
        .select({ id: runs.id })
        .from(runs)
        .where(and(eq(runs.keyId, caller.keyId), eq(runs.idempotencyKey, input.idempotencyKey)));
      if (prev) return { id: prev.id, created: false };
    }
    const info = this.d.datasets.get(input.dataset);
    if (!info)
      throw new ApiError(404, 'dataset_not_found', `no dataset named '${input.dataset}'`, {
        available: this.d.datasets.list().map((x) => x.name),
      });
    const ds = await this.d.datasets.items(input.dataset);
    const ids = new Set(ds.items.map((it) => ('instance_id' in it ? it.instance_id : it.id)));
    if (input.predictions.length > ids.size)
      throw new ApiError(
        400,
        'invalid_request',
        `body.predictions: ${input.predictions.length} predictions, but dataset '${info.name}' has ${ids.size} items`,
        [{ path: 'body.predictions', message: `at most ${ids.size} (one per item)` }],
      );
    const preds = parsePredictions(ds.task, input.predictions, ids);
    const model = input.model ?? preds.model;
    if (!MODEL_NAME.test(model))
      throw new ApiError(
        400,
        'invalid_request',
        `body.model: '${model.slice(0, 140)}' is not a valid model name: ${MODEL_NAME_RULE}`,
        [{ path: input.model ? 'body.model' : 'body.predictions.0.model', message: MODEL_NAME_RULE }],
      );
    const id = `run-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    const json = JSON.stringify(input.predictions);
    try {
      await db.transaction(async (tx) => {
        await this.takeQuota(tx as unknown as Db, caller, ids.size);
        await claimModel(tx as unknown as Db, model, caller);
        await tx.insert(runs).values({
          id,
          keyId: caller.keyId,
          dataset: info.name,
          task: ds.task,
          kind: ds.task === 'exec' ? 'exec' : 'text',
          model,
          status: 'queued',
          total: ids.size,
          idempotencyKey: input.idempotencyKey ?? null,
        });
        await tx
          .insert(submissions)
          .values({ runId: id, sha256: sha256(json), bytes: input.bytes, predictions: preds.records });
      });
    } catch (e) {
      if (input.idempotencyKey && !(e instanceof ApiError)) {
        const [prev] = await db
          .select({ id: runs.id })
          .from(runs)
          .where(and(eq(runs.keyId, caller.keyId), eq(runs.idempotencyKey, input.idempotencyKey)));
        if (prev) return { id: prev.id, created: false };
      }
      throw e;
    }
    await this.enqueue(
      id,
      planJobs({ runId: id, ds, byId: preds.byId, model, chunkSize: this.d.chunkSize ?? 25 }),
    );
    this.d.log({
      event: 'run_submitted',
      run_id: id,
      dataset: info.name,
      items: ids.size,
      key_id: caller.keyId,
    });
    return { id, created: true };
  }

  private async enqueue(runId: string, plan: JobPlan): Promise<void> {
    if (plan.skipped.length) await this.ingest(ResultMessage.parse({ runId, results: plan.skipped }));
    if (plan.jobs.length) await this.d.work.enqueueMany(plan.jobs);
  }

  /**
   * Resumes unfinished runs after a restart: items without a result are planned again (an in-process
   * queue loses its jobs when the server stops); a run whose items all have results is finalized.
   */
  async resume(): Promise<number> {
    const { db } = this.d;
    const open = await db
      .select()
      .from(runs)
      .where(inArray(runs.status, ['queued', 'running']));
    for (const run of open) {
      const have = await db.select({ id: results.itemId }).from(results).where(eq(results.runId, run.id));
      if (have.length !== run.done)
        await db.update(runs).set({ done: have.length }).where(eq(runs.id, run.id));
      if (have.length >= run.total) {
        await this.finalize(run.id);
        continue;
      }
      const [sub] = await db.select().from(submissions).where(eq(submissions.runId, run.id));
      if (!this.d.datasets.get(run.dataset) || !sub) {
        await db
          .update(runs)
          .set({
            status: 'error',
            error: `cannot resume: dataset '${run.dataset}' is no longer registered`,
            finishedAt: new Date(),
          })
          .where(eq(runs.id, run.id));
        continue;
      }
      const ds = await this.d.datasets.items(run.dataset);
      const records = sub.predictions as Record<string, unknown>[];
      const byId = new Map(records.map((p) => [String(p.instance_id ?? p.id), p]));
      const plan = planJobs({
        runId: run.id,
        ds,
        byId,
        model: run.model,
        chunkSize: this.d.chunkSize ?? 25,
        done: new Set(have.map((h) => h.id)),
        tag: `resume-${Date.now().toString(36)}`,
      });
      await this.enqueue(run.id, plan);
      this.d.log({ event: 'run_resumed', run_id: run.id, jobs: plan.jobs.length });
    }
    return open.length;
  }

  /** Writes a job's results (idempotently), advances progress, finalizes the run when complete. */
  async ingest(msg: ResultMessage): Promise<number> {
    const { db } = this.d;
    const rows = msg.results.map((r: ItemResult) => ({
      runId: msg.runId,
      itemId: r.itemId,
      outcome: r.outcome,
      scores: r.scores,
      answer: r.answer,
      data: r.data,
      log: r.log,
      error: r.error,
      durationMs: r.durationMs,
    }));
    if (rows.length === 0) return 0;
    // results and progress in one transaction, progress counted from the results themselves: a crash
    // between the two can neither lose progress nor count an item twice
    const step = await db.transaction(async (tx) => {
      const [exists] = await tx.select({ id: runs.id }).from(runs).where(eq(runs.id, msg.runId));
      if (!exists) return { inserted: 0, complete: false }; // the run was deleted: drop late results
      const inserted = await tx
        .insert(results)
        .values(rows)
        .onConflictDoNothing()
        .returning({ itemId: results.itemId });
      if (inserted.length === 0) return { inserted: 0, complete: false };
      const [r] = await tx
        .update(runs)
        .set({
          done: sql`(select count(*)::int from ${results} where ${results.runId} = ${msg.runId})`,
          status: sql`case when ${runs.status} = 'queued' then 'running' else ${runs.status} end`,
        })
        .where(eq(runs.id, msg.runId))
        .returning({ done: runs.done, total: runs.total });
      return { inserted: inserted.length, complete: !!r && r.done >= r.total };
    });
    if (step.complete) await this.finalize(msg.runId);
    return step.inserted;
  }

  /** Outcome counts of a run from its results. */
  async counts(runId: string): Promise<OutcomeCounts> {
    const rows = await this.d.db
      .select({ outcome: results.outcome, n: sql<number>`count(*)::int` })
      .from(results)
      .where(eq(results.runId, runId))
      .groupBy(results.outcome);
    const c = emptyCounts();
    for (const r of rows) if (r.outcome in c) c[r.outcome as keyof OutcomeCounts] = r.n;
    return c;
  }

  /** Computes the report and the leaderboard entry of a complete run. */
  async finalize(runId: string): Promise<void> {
    const { db } = this.d;
    const [run] = await db.select().from(runs).where(eq(runs.id, runId));
    if (!run || run.status === 'done') return;
    try {
      const counts = await this.counts(runId);
      let metrics: Record<string, unknown>;
      let aggregates: Omit<TaskScore, 'items'> | null = null;
      if (run.kind === 'exec') {
        metrics = { resolved: proportion(counts.pass, run.total) };
      } else {
        const ds = await this.d.datasets.items(run.dataset);
        const [sub] = await db.select().from(submissions).where(eq(submissions.runId, runId));
        const preds = (sub?.predictions ?? []) as Record<string, unknown>[];
        const scoreTask = await this.d.loadScoreTask();
        const { items: _items, ...scored } = await scoreTask(TaskName.parse(run.task), ds.items, preds, {});
        metrics = metricsOf(scored);
        aggregates = scored;
      }
      const report = {
        run_id: runId,
        dataset: run.dataset,
        task: run.task,
        kind: run.kind,
        model: run.model,
        total: run.total,
        counts,
        metrics,
        aggregates,
      };
      // finished once: a second finalize (a restart racing a late result) changes nothing
      const first = await db.transaction(async (tx) => {
        const updated = await tx
          .update(runs)
          .set({ status: 'done', report, finishedAt: new Date(), done: run.total })
          .where(and(eq(runs.id, runId), sql`${runs.status} <> 'done'`))
          .returning({ id: runs.id });
        if (updated.length === 0) return false;
        await tx
          .insert(leaderboard)
          .values({ runId, dataset: run.dataset, task: run.task, model: run.model, metrics, n: run.total })
          .onConflictDoNothing();
        return true;
      });
      if (first) this.d.log({ event: 'run_done', run_id: runId, counts });
    } catch (e) {
      const message = (e as Error).message ?? String(e);
      await db
        .update(runs)
        .set({ status: 'error', error: message, finishedAt: new Date() })
        .where(eq(runs.id, runId));
      this.d.log({ event: 'run_error', run_id: runId, error: message });
    }
  }
}
