/**
 * Starts the API: opens the database, registers datasets, wires the queues (in-process by default,
 * Redis when a URL is given) and serves HTTP with Bun. Returns a handle that stops everything.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import {
  createWorkHandler,
  defaultWorkDeps,
  forwardFinalFailures,
  loadScoreTask,
  openQueue,
  probeRedis,
  RESULTS_QUEUE,
  ResultMessage,
  redactRedisUrl,
  type ScoreTaskFn,
  scoreChunk,
  type VerifyConfig,
  WORK_QUEUE,
} from '@faun/jobs';
import { PrerequisiteError } from '@faun/kit';
import { createApp } from './app.ts';
import { type ApiConfig, DEFAULT_CONFIG, type Services } from './context.ts';
import { type Database, openDatabase } from './db/open.ts';
import { DatasetRegistry } from './service/datasets.ts';
import { importPredictions } from './service/importer.ts';
import { RunService } from './service/runs.ts';
import { ScorePool } from './service/score-pool.ts';
import { createStats } from './service/stats.ts';

export interface ServeOptions {
  port?: number;
  hostname?: string;
  /** Database: folder for PGlite, `memory://`, or a postgres:// URL (default $DATABASE_URL or .faun/api-db). */
  db?: string;
  /** Folder of dataset JSONL files (default `datasets`). */
  datasetsDir?: string | null;
  /** DuckDB store for dataset statistics (opened read-only per read, never held). */
  store?: string | null;
  /**
   * Prediction files or folders of them to load at start: each becomes a finished text-metric run (same
   * file → same run on restart).
   */
  imports?: string[];
  /** How long store figures are reused, ms (default 2000). */
  storeCacheMs?: number;
  /** Redis URL for the queue (default $REDIS_URL; absent → in-process). */
  redisUrl?: string | null;
  /** Work jobs this process runs itself (default 2 in-process, 0 with Redis). */
  inlineWorkers?: number;
  config?: Partial<ApiConfig>;
  log?: (fields: Record<string, unknown>) => void;
  /** How verification jobs run in this process (backend, repository folders, timeout). */
  verify?: VerifyConfig;
  /** Items per text scoring job (default 25). */
  chunkSize?: number;
  /** Human progress lines while starting (the embedded database can take seconds). */
  progress?: (line: string) => void;
  /** Override the scoring function (tests of the server without the metrics package). */
  scoreTask?: ScoreTaskFn;
}

export interface ServerHandle {
  url: string;
  port: number;
  services: Services;
  stop(): Promise<void>;
}

let pending = '';
let flushScheduled = false;

/** Writes the buffered log lines now. */
export function flushLog(): void {
  flushScheduled = false;
  if (!pending) return;
  const text = pending;
  pending = '';
  process.stderr.write(text);
}
process.on('exit', flushLog);

/**
 * Structured JSON log lines on stderr. Lines of one turn of the event loop go out in one write (under
 * load that is one system call for many requests instead of one each); errors, and anything once 64 KiB
 * are pending, are written at once, and whatever is left when the process exits.
 */
export function jsonLog(fields: Record<string, unknown>): void {
  pending += `${JSON.stringify({ ts: new Date().toISOString(), level: 'info', ...fields })}\n`;
  if (fields.level === 'error' || pending.length >= 64 << 10) flushLog();
  else if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(flushLog);
  }
}

export async function startServer(o: ServeOptions = {}): Promise<ServerHandle> {
  const log = o.log ?? jsonLog;
  const redisUrl = o.redisUrl === undefined ? (process.env.REDIS_URL ?? null) : o.redisUrl;
  if (redisUrl) {
    const unreachable = await probeRedis(redisUrl);
    if (unreachable)
      throw new PrerequisiteError(`cannot reach Redis at ${redactRedisUrl(redisUrl)}: ${unreachable}`, {
        hint: 'start Redis, fix --redis-url / REDIS_URL, or leave both unset to run jobs in this process',
      });
  }
  const db = await openDatabase(o.db, { role: 'serve', ...(o.progress ? { progress: o.progress } : {}) });
  try {
    return await serveWith(db, o, log, redisUrl);
  } catch (e) {
    await db.close().catch(() => {});
    throw e;
  }
}

/** `--import`: scores prediction files into runs before the server listens. */
async function importAtStart(
  services: Services,
  o: ServeOptions,
  loadScoreTask: Services['loadScoreTask'],
): Promise<void> {
  const { db, datasets, runs, log } = services;
  const got = await importPredictions({ db: db.db, datasets, runs, loadScoreTask }, o.imports ?? []);
  for (const r of got) {
    log({ event: 'import', ...r });
    o.progress?.(
      r.status === 'skipped'
        ? `import ${r.file}: skipped — ${r.reason}`
        : `import ${r.file}: ${r.status === 'imported' ? 'scored as' : 'already imported as'} run ${r.run_id} on ${r.dataset}`,
    );
  }
}

async function serveWith(
  db: Database,
  o: ServeOptions,
  log: (fields: Record<string, unknown>) => void,
  redisUrl: string | null,
): Promise<ServerHandle> {
  const datasets = new DatasetRegistry();
  const dir = o.datasetsDir === undefined ? 'datasets' : o.datasetsDir;
  if (dir) await datasets.scan(resolve(dir));
  if (dir) o.progress?.(`datasets: ${datasets.list().length} registered from ${dir}`);
  const work = openQueue(WORK_QUEUE, { redisUrl });
  const results = openQueue(RESULTS_QUEUE, { redisUrl });
  const config = { ...DEFAULT_CONFIG, ...o.config };
  const scorePool =
    o.scoreTask || config.scoreThreads <= 0 ? null : new ScorePool({ threads: config.scoreThreads });
  const scoreTaskLoader = o.scoreTask ? async () => o.scoreTask! : loadScoreTask;
  const runs = new RunService({
    db: db.db,
    datasets,
    work,
    // a finished run's report (bootstrap over the whole dataset) is computed on a scoring thread
    loadScoreTask: scorePool ? async () => scorePool.scoreTask : scoreTaskLoader,
    log,
    ...(o.chunkSize ? { chunkSize: o.chunkSize } : {}),
  });
  const services: Services = {
    db,
    datasets,
    runs,
    work,
    results,
    stats: createStats(
      datasets,
      o.store ?? null,
      o.storeCacheMs === undefined ? {} : { cacheMs: o.storeCacheMs },
    ),
    loadScoreTask: scoreTaskLoader,
    scorePool,
    config,
    log,
  };
  await results.process(async (job) => runs.ingest(ResultMessage.parse(job.data)), { concurrency: 1 });
  const inline = o.inlineWorkers ?? (redisUrl ? 0 : 2);
  if (inline > 0) {
    const deps = defaultWorkDeps(undefined, o.verify);
    if (o.scoreTask) deps.score = (job) => scoreChunk(job, o.scoreTask);
    await work.process(createWorkHandler(results, deps), { concurrency: inline });
    forwardFinalFailures(work, results);
  }
  const resumed = await runs.resume();
  if (resumed) log({ event: 'runs_resumed', runs: resumed });
  if (o.imports?.length) await importAtStart(services, o, scoreTaskLoader);
  const app = createApp(services);
  const server = Bun.serve({
    port: o.port ?? 8787,
    hostname: o.hostname ?? '127.0.0.1',
    // every route bounds its own body and answers with the JSON envelope; Bun's own cap (a bare 413)
    // only stops bodies no route would read
    maxRequestBodySize: 2 ** 40,
    // explicit: slow clients are dropped after this much silence (event streams send heartbeats)
    idleTimeout: Math.min(255, Math.max(1, services.config.idleTimeoutS)),
    fetch: (req, srv) => app.fetch(req, { server: srv }),
  });
  const url = `http://${server.hostname}:${server.port}`;
  if (db.lock) {
    const token = randomBytes(24).toString('hex');
    services.control = { token };
    const local = /^(0\.0\.0\.0|::|\[::\])$/.test(server.hostname ?? '') ? '127.0.0.1' : server.hostname;
    const host = local?.includes(':') && !local.startsWith('[') ? `[${local}]` : local;
    db.lock.update({ control: { url: `http://${host}:${server.port}`, token } });
  }
  log({
    event: 'listening',
    url,
    database: db.backend,
    queue: work.backend,
    datasets: datasets.list().length,
  });
  return {
    url,
    port: server.port ?? 0,
    services,
    async stop() {
      await server.stop(true);
      await work.close();
      await results.close();
      await services.stats.close();
      await scorePool?.close();
      await db.close();
    },
  };
}
