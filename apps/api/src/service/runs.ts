/**
 * Runs: submission (validation, quotas, idempotency, job fan-out), result ingestion (idempotent per
 * (run, item)) and finalization (report + leaderboard entry) once every item has a result.
 */
import { randomBytes } from 'node:crypto';
import { type ItemResult, type Queue, ResultMessage, type ScoreTaskFn } from '@faun/jobs';
import { sha256 } from '@faun/kit';
import type { TaskScore } from '@faun/metrics';
import { TaskName } from '@faun/schema';
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/open.ts';
import { leaderboard, results, runs, submissions } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import type { DatasetRegistry } from './datasets.ts';
import { type JobPlan, parsePredictions, planJobs } from './plan.ts';
import { emptyCounts, metricsOf, type OutcomeCounts, proportion } from './report.ts';

export interface Caller {
  keyId: string;
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

const DAY_MS = 86_400_000;

export class RunService {
  constructor(private readonly d: RunServiceDeps) {}

  /** Checks the caller's daily quotas for a run of `items` items. */
  async checkQuota(caller: Caller, items: number): Promise<void> {
    const since = new Date(Date.now() - DAY_MS);
    const [row] = await this.d.db
      .select({ n: sql<number>`count(*)::int`, items: sql<number>`coalesce(sum(${runs.total}), 0)::int` })
      .from(runs)
      .where(and(eq(runs.keyId, caller.keyId), gte(runs.createdAt, since)));
    const n = row?.n ?? 0;
    const used = row?.items ?? 0;
    if (n >= caller.runsPerDay)
      throw new ApiError(
        429,
        'quota_exceeded',
        `run quota reached: ${n} of ${caller.runsPerDay} runs per day`,
        {
          quota: 'runs_per_day',
          limit: caller.runsPerDay,
          used: n,
        },
      );
    if (used + items > caller.itemsPerDay)
      throw new ApiError(
        429,
        'quota_exceeded',
        `item quota reached: ${used} + ${items} exceeds ${caller.itemsPerDay} items per day`,
        { quota: 'items_per_day', limit: caller.itemsPerDay, used },
      );
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
    const preds = parsePredictions(ds.task, input.predictions, ids);
    const model = input.model ?? preds.model;
    await this.checkQuota(caller, ids.size);
    const id = `run-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
    const json = JSON.stringify(input.predictions);
    try {
      await db.transaction(async (tx) => {
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
      if (input.idempotencyKey) {
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
    const [exists] = await db.select({ id: runs.id }).from(runs).where(eq(runs.id, msg.runId));
    if (!exists) return 0; // the run was deleted: drop late results
    const inserted = await db
      .insert(results)
      .values(rows)
      .onConflictDoNothing()
      .returning({ itemId: results.itemId });
    if (inserted.length === 0) return 0;
    const [r] = await db
      .update(runs)
      .set({
        done: sql`${runs.done} + ${inserted.length}`,
        status: sql`case when ${runs.status} = 'queued' then 'running' else ${runs.status} end`,
      })
      .where(eq(runs.id, msg.runId))
      .returning({ done: runs.done, total: runs.total });
    if (r && r.done >= r.total) await this.finalize(msg.runId);
    return inserted.length;
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
    if (!run) return;
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
      await db.transaction(async (tx) => {
        await tx
          .update(runs)
          .set({ status: 'done', report, finishedAt: new Date() })
          .where(eq(runs.id, runId));
        await tx
          .insert(leaderboard)
          .values({ runId, dataset: run.dataset, task: run.task, model: run.model, metrics, n: run.total })
          .onConflictDoNothing();
      });
      this.d.log({ event: 'run_done', run_id: runId, counts });
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
