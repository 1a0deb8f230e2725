/**
 * Writes a run directory: `header.json` at start, `samples.jsonl` appended as items finish (a crash
 * leaves a usable partial record), `summary.json` at the end. See docs/run-record.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  appendJsonl,
  RUN_RECORD_VERSION,
  type RunHeader,
  type RunSample,
  type RunSummary,
  type SampleOutcome,
  stableStringify,
  writeFileAtomic,
} from '@faun/schema';
import { sha256File } from './hash.ts';
import { FAUN_VERSION } from './version.ts';

export interface GitInfo {
  sha: string | null;
  dirty: boolean | null;
}

/** The git sha and dirty flag of the faun checkout (null outside a git checkout). */
export function gitInfo(cwd: string = import.meta.dir): GitInfo {
  try {
    const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    const status = execFileSync('git', ['status', '--porcelain'], {
      cwd,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
    return { sha, dirty: status.length > 0 };
  } catch {
    return { sha: null, dirty: null };
  }
}

const SECRET_KEY = /(token|key|secret|password|authorization)/i;

/** Replaces values of secret-looking option names with "***". */
export function redactOptions(options: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(options)) out[k] = SECRET_KEY.test(k) && v ? '***' : v;
  return out;
}

export interface RunRecordInit {
  dir: string;
  runId: string;
  command: string;
  argv: string[];
  options: Record<string, unknown>;
  /** Input files to hash into the header. */
  inputs?: string[];
  seed?: number | null;
  dependencies?: Record<string, string>;
}

export class RunRecord {
  readonly counts: Record<SampleOutcome, number> = { pass: 0, fail: 0, error: 0, timeout: 0, skipped: 0 };
  private readonly startedAt = new Date();
  private pending: RunSample[] = [];
  private flushing: Promise<void> = Promise.resolve();

  private constructor(
    readonly dir: string,
    readonly runId: string,
  ) {}

  static async start(init: RunRecordInit): Promise<RunRecord> {
    await mkdir(init.dir, { recursive: true });
    const rec = new RunRecord(init.dir, init.runId);
    const inputs: Record<string, string> = {};
    for (const p of init.inputs ?? []) if (existsSync(p)) inputs[p] = await sha256File(p);
    const header: RunHeader = {
      v: RUN_RECORD_VERSION,
      run_id: init.runId,
      command: init.command,
      argv: init.argv,
      options: redactOptions(init.options),
      faun_version: FAUN_VERSION,
      dependencies: init.dependencies ?? {},
      runtime: {
        bun: typeof Bun === 'undefined' ? null : Bun.version,
        node: process.versions.node ?? '',
        platform: `${process.platform}-${process.arch}`,
      },
      git: gitInfo(),
      inputs,
      seed: init.seed ?? null,
      started_at: rec.startedAt.toISOString(),
    };
    await writeFileAtomic(join(init.dir, 'header.json'), `${stableStringify(header, 2)}\n`);
    return rec;
  }

  get samplesPath(): string {
    return join(this.dir, 'samples.jsonl');
  }

  /** Records one finished item; lines are appended in order. */
  sample(
    s: Omit<RunSample, 'v' | 'data' | 'error'> & Partial<Pick<RunSample, 'data' | 'error'>>,
  ): Promise<void> {
    this.counts[s.outcome]++;
    this.pending.push({ v: RUN_RECORD_VERSION, data: {}, error: null, ...s });
    this.flushing = this.flushing.then(() => {
      const batch = this.pending;
      this.pending = [];
      return appendJsonl(this.samplesPath, batch);
    });
    return this.flushing;
  }

  async flush(): Promise<void> {
    await this.flushing;
  }

  async finish(
    status: RunSummary['status'],
    extra: {
      outputs?: Record<string, string>;
      metrics?: Record<string, unknown>;
      resumeCommand?: string | null;
    } = {},
  ): Promise<RunSummary> {
    await this.flush();
    const finished = new Date();
    const summary: RunSummary = {
      v: RUN_RECORD_VERSION,
      run_id: this.runId,
      status,
      counts: { ...this.counts },
      started_at: this.startedAt.toISOString(),
      finished_at: finished.toISOString(),
      duration_s: (finished.getTime() - this.startedAt.getTime()) / 1000,
      outputs: extra.outputs ?? {},
      metrics: extra.metrics ?? {},
      resume_command: extra.resumeCommand ?? null,
    };
    await writeFileAtomic(join(this.dir, 'summary.json'), `${stableStringify(summary, 2)}\n`);
    return summary;
  }
}

/** A sortable run id: `YYYYMMDD-HHMMSS-<label>`. */
export function newRunId(label: string, now = new Date()): string {
  const t = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${t}-${label.replace(/[^A-Za-z0-9_.-]+/g, '_')}`;
}
