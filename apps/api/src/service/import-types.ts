/** What `faun serve --import` reports per file or run directory, and what importing needs. */
import type { ScoreTaskFn } from '@faun/jobs';
import type { Db } from '../db/open.ts';
import type { DatasetRegistry } from './datasets.ts';
import type { RunService } from './runs.ts';

export interface ImportResult {
  file: string;
  status: 'imported' | 'unchanged' | 'skipped';
  run_id?: string;
  dataset?: string;
  model?: string;
  reason?: string;
}

export interface ImportDeps {
  db: Db;
  datasets: DatasetRegistry;
  runs: RunService;
  loadScoreTask: () => Promise<ScoreTaskFn>;
}
