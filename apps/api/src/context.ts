import { availableParallelism } from 'node:os';
/** What request handlers share: the services of one server and its settings. */
import type { Queue, ScoreTaskFn } from '@faun/jobs';
import type { Database } from './db/open.ts';
import type { apiKeys } from './db/schema.ts';
import type { DatasetRegistry } from './service/datasets.ts';
import type { RunService } from './service/runs.ts';
import type { ScorePool } from './service/score-pool.ts';
import type { StatsSource } from './service/stats.ts';

export type KeyRow = typeof apiKeys.$inferSelect;

export interface ApiConfig {
  /** Allow GET endpoints and pages without a key (default true). */
  publicReads: boolean;
  /** Max body bytes of POST /v1/score/* (default 1 MiB). */
  scoreBodyLimit: number;
  /** Max body bytes of POST /v1/runs (default 16 MiB). */
  runBodyLimit: number;
  /** Max predictions per run, whatever the dataset (default 50,000; a run never holds more than its dataset). */
  maxRunPredictions: number;
  /** Max items per POST /v1/score/* request (default 500). */
  maxScoreItems: number;
  /** How long a verified key stays cached, ms (default 5000). */
  keyCacheMs: number;
  /** Anonymous read rate per client address, requests/s (burst 2×). */
  anonRatePerSec: number;
  /** Failed authentications allowed per client address per minute (the burst; default 30). */
  authFailuresPerMin: number;
  /** Log one JSON line per request (default true). */
  logRequests: boolean;
  /**
   * Threads that score heavy requests and finished runs off the event loop (default: the cores but one,
   * 1 to 4; 0 = inline).
   */
  scoreThreads: number;
  /** Seconds a connection may stay silent before the server closes it (default 30; at most 255). */
  idleTimeoutS: number;
  /** Interval of the comment lines that keep an idle event stream open, ms (default 10000). */
  sseHeartbeatMs: number;
  /** Event streams one API key (or anonymous client address) may hold open at once (default 20). */
  ssePerKey: number;
  /** Event streams the server holds open at once (default 1000). */
  sseTotal: number;
}

export const DEFAULT_CONFIG: ApiConfig = {
  publicReads: true,
  scoreBodyLimit: 1 << 20,
  runBodyLimit: 16 << 20,
  maxRunPredictions: 50_000,
  maxScoreItems: 500,
  keyCacheMs: 5000,
  anonRatePerSec: 50,
  authFailuresPerMin: 30,
  logRequests: true,
  scoreThreads: Math.max(1, Math.min(4, availableParallelism() - 1)),
  idleTimeoutS: 30,
  sseHeartbeatMs: 10_000,
  ssePerKey: 20,
  sseTotal: 1000,
};

export interface Services {
  db: Database;
  datasets: DatasetRegistry;
  runs: RunService;
  work: Queue;
  results: Queue;
  stats: StatsSource;
  loadScoreTask: () => Promise<ScoreTaskFn>;
  config: ApiConfig;
  log: (fields: Record<string, unknown>) => void;
  /** Scoring threads for heavy text scoring (null: everything inline, e.g. with an injected scorer). */
  scorePool?: ScorePool | null;
  /** Set while this server holds a PGlite folder: the token of its control endpoints. */
  control?: { token: string } | null;
  /** Called when a key is revoked through the control endpoints (drops it from caches). */
  onKeyRevoked?: (id: string) => void;
}

export interface AppEnv {
  Variables: { key: KeyRow | null; requestId: string };
}
