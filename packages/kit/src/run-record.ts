/**
 * Writes a run directory: `header.json` at start, `samples.jsonl` appended as items finish (a crash
 * leaves a usable partial record), `summary.json` at the end. See docs/run-record.md.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunHeader, RunSample, RunSummary, SampleOutcome } from '@faun/schema';
import { appendJsonl, RUN_RECORD_VERSION, stableStringify, writeFileAtomic } from '@faun/schema/io';
import { CancelledError, FaunError } from './errors.ts';
import { sha256File } from './hash.ts';
import { REPO_ROOT } from './paths.ts';
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

/** {@link gitInfo} without blocking: both git commands run at once, beside whatever else is going on. */
export async function gitInfoAsync(cwd: string = import.meta.dir): Promise<GitInfo> {
  const { execFile } = await import('node:child_process');
  const git = (args: string[]) =>
    new Promise<string>((done, fail) =>
      execFile('git', args, { cwd }, (err, stdout) => (err ? fail(err) : done(String(stdout).trim()))),
    );
  try {
    const [sha, status] = await Promise.all([git(['rev-parse', 'HEAD']), git(['status', '--porcelain'])]);
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
  /**
   * Continue a run whose directory exists (a resumed run): the header is rewritten and samples are
   * appended. Without it, an existing run directory is an error, so two runs never mix their records.
   */
  resume?: boolean;
}

/** Samples waiting at most this long before they are appended to `samples.jsonl`. */
export const SAMPLE_FLUSH_MS = 200;
/** Samples appended at once when this many are waiting. */
export const SAMPLE_BATCH = 512;

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
    const rec = RunRecord.open(init);
    await rec.flushing;
    return rec;
  }

  /**
   * {@link start} without waiting for the header (input hashes, git state) to be written: the run can begin
   * at once. Samples are appended after the header; {@link finish} (and {@link flush}) report a failure to
   * write it. Throws at once when the directory already holds a run record.
   */
  static open(init: RunRecordInit): RunRecord {
    if (!init.resume && existsSync(join(init.dir, 'header.json')))
      throw new FaunError(`run directory ${init.dir} already holds a run record`, {
        hint: 'use another run id (or --log-dir), or resume that run',
      });
    mkdirSync(init.dir, { recursive: true });
    const rec = new RunRecord(init.dir, init.runId);
    rec.flushing = rec.writeHeader(init);
    rec.flushing.catch(() => {}); // reported by finish/flush
    return rec;
  }

  private async writeHeader(init: RunRecordInit): Promise<void> {
    const git = gitInfoAsync();
    const inputs: Record<string, string> = {};
    for (const p of init.inputs ?? []) if (existsSync(p)) inputs[p] = await sha256File(p);
    const header: RunHeader = {
      v: RUN_RECORD_VERSION,
      run_id: init.runId,
      command: init.command,
      argv: init.argv,
      options: redactOptions(init.options),
      faun_version: FAUN_VERSION,
      dependencies: { ...keyDependencies(), ...init.dependencies },
      runtime: {
        bun: typeof Bun === 'undefined' ? null : Bun.version,
        node: process.versions.node ?? '',
        platform: `${process.platform}-${process.arch}`,
      },
      git: await git,
      inputs,
      seed: init.seed ?? null,
      started_at: this.startedAt.toISOString(),
    };
    await writeFileAtomic(join(init.dir, 'header.json'), `${stableStringify(header, 2)}\n`);
  }

  get samplesPath(): string {
    return join(this.dir, 'samples.jsonl');
  }

  /**
   * Records one finished item; lines are appended in order, in batches: at most {@link SAMPLE_FLUSH_MS}
   * after the item (or at once when {@link SAMPLE_BATCH} are waiting), so a crash loses at most that much
   * and a run of many quick items does not pay one file append per item. Resolves once the line is written.
   */
  sample(
    s: Omit<RunSample, 'v' | 'data' | 'error'> & Partial<Pick<RunSample, 'data' | 'error'>>,
  ): Promise<void> {
    this.counts[s.outcome]++;
    this.pending.push({ v: RUN_RECORD_VERSION, data: {}, error: null, ...s });
    if (this.pending.length >= SAMPLE_BATCH) return this.writePending();
    if (!this.scheduled) {
      this.scheduled = new Promise<void>((resolve, reject) => {
        this.release = (written) => written.then(resolve, reject);
        this.timer = setTimeout(() => void this.writePending(), SAMPLE_FLUSH_MS);
      });
    }
    return this.scheduled;
  }

  private scheduled: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private release: ((written: Promise<void>) => void) | null = null;

  /** Appends the waiting samples (after the writes already under way). */
  private writePending(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    const release = this.release;
    this.timer = null;
    this.release = null;
    this.scheduled = null;
    this.flushing = this.flushing.then(() => {
      const batch = this.pending;
      this.pending = [];
      return appendJsonl(this.samplesPath, batch);
    });
    release?.(this.flushing); // the samples waiting for the timer are written by this append
    return this.flushing;
  }

  async flush(): Promise<void> {
    await this.writePending();
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

/**
 * A run id that sorts by start time and does not collide: `YYYYMMDD-HHMMSS-mmm-<label>-<4 random>`.
 */
export function newRunId(label: string, now = new Date(), random: () => number = Math.random): string {
  const iso = now.toISOString();
  const t = `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${iso.slice(20, 23)}`;
  const tag = Math.floor(random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0');
  return `${t}-${label.replace(/[^A-Za-z0-9_.-]+/g, '_')}-${tag}`;
}

const KEY_PACKAGES = [
  '@duckdb/node-api',
  'web-tree-sitter',
  'zod',
  'hono',
  'drizzle-orm',
  'bullmq',
  'testcontainers',
  '@octokit/core',
];

let keyDeps: Record<string, string> | null = null;

/** Versions of faun's key dependencies as installed (read once from their package.json files). */
export function keyDependencies(): Record<string, string> {
  if (keyDeps) return keyDeps;
  const out: Record<string, string> = {};
  for (const name of KEY_PACKAGES) {
    for (const base of [
      REPO_ROOT,
      ...[
        'packages/store',
        'packages/syntax',
        'apps/api',
        'packages/jobs',
        'packages/github',
        'packages/services',
      ].map((p) => join(REPO_ROOT, p)),
    ]) {
      const file = join(base, 'node_modules', name, 'package.json');
      if (!existsSync(file)) continue;
      try {
        out[name] = (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
        break;
      } catch {}
    }
  }
  keyDeps = out;
  return out;
}

/**
 * Runs `fn` inside a run record in `<logDir>/<run id>`: the header is written first, `summary.json` at
 * the end with status `success`, `cancelled` (exit code 130) or `error` (the error is rethrown).
 */
export async function withRunRecord(
  init: Omit<RunRecordInit, 'dir' | 'runId'> & { logDir: string; label: string },
  fn: (
    rec: RunRecord,
  ) => Promise<{ code: number; outputs?: Record<string, string>; metrics?: Record<string, unknown> }>,
): Promise<number> {
  const runId = newRunId(init.label);
  const rec = await RunRecord.start({ ...init, dir: join(init.logDir, runId), runId });
  try {
    const r = await fn(rec);
    await rec.finish(r.code === 130 ? 'cancelled' : r.code === 0 ? 'success' : 'error', {
      outputs: r.outputs,
      metrics: r.metrics,
    });
    return r.code;
  } catch (e) {
    if (e instanceof CancelledError) await rec.finish('cancelled', { resumeCommand: e.resumeCommand });
    else await rec.finish('error', { metrics: { error: (e as Error).message } });
    throw e;
  }
}
