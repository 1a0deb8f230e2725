/**
 * The sandbox a test run happens in, behind a small interface: containers in production (docker.ts),
 * a local process in a temporary directory for fast unit tests (this file).
 */
import { mkdtempSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ExecutionInstance } from '@faun/schema';
import type { LockEntry } from '../envs/image-trust.ts';
import type { PublishedPlan } from '../envs/published.ts';
import type { EnvSpec } from '../envs/specs.ts';
import { captureProcess, type OutputLimits } from './capture.ts';

export interface ExecResult {
  /** The command's exit status as the runtime reports it; null when the host-side deadline killed it. */
  exitCode: number | null;
  /** The kept output (stdout and stderr merged; head and tail when it was longer than the cap). */
  output: string;
  /** The host-side deadline fired. */
  timedOut: boolean;
  /** Bytes of output dropped between the kept head and tail. */
  omittedBytes: number;
}

export interface ExecOptions {
  /** A hard host-side deadline that kills everything the command started (the whole sandbox). */
  timeoutMs?: number;
  /** Data written to the command's standard input. */
  stdin?: string;
  /** Arguments of the command (`"$@"` in it): data, never part of the shell line. */
  args?: string[];
  /** Environment variables (values are passed as data, never through a shell line). */
  env?: Record<string, string>;
  /**
   * Runs the command under the sandbox's own time limit, seconds: its whole process group is killed after
   * it (exit 124, or 137 when it had to be killed), by a supervisor the command cannot trace.
   */
  limitS?: number;
  /** How much output to keep (default DEFAULT_OUTPUT_LIMITS). */
  maxOutput?: OutputLimits;
}

export interface Sandbox {
  /** Where the repository is checked out. */
  readonly workdir: string;
  /** The content id (`sha256:…`) of the environment image the sandbox runs; null without images. */
  readonly imageId: string | null;
  /** A directory the commands may write scratch files to. */
  readonly scratch: string;
  /**
   * Runs a bash command in `workdir` as the sandbox's unprivileged test user. Each call is its own
   * process: nothing it prints can reach another call's output.
   */
  exec(cmd: string, opts?: ExecOptions): Promise<ExecResult>;
  /** Writes a file as the test user (through the command's standard input). */
  writeFile(path: string, content: string): Promise<void>;
  /** Ends every process the test user still has running (between stages). */
  killTestProcesses(): Promise<void>;
  /** Why the sandbox died, when it was the infrastructure (OOM kill, engine error); null otherwise. */
  infraProblem(): Promise<string | null>;
  dispose(): Promise<void>;
}

/** A prepared environment: something `start` can turn into a sandbox, and the hash that identifies it. */
export interface PreparedEnv {
  ref: string;
  /** Content hash of everything that built it (toolchain, env layer, tree, install steps). */
  hash: string;
  /** Where commands run (default /testbed). */
  workdir?: string;
  /** The image's content digest (`sha256:…`), when the backend knows it. */
  digest?: string | null;
}

export interface Limits {
  cpus: number;
  memoryMb: number;
  pids: number;
  /**
   * Disk quota of the writable places of a sandbox, MB: the work tree and the test user's home (the image's
   * copies are put in at start and count against it), /tmp and /var/tmp (each a quarter of it, 16 to 1,024
   * MB) are size-limited memory-backed file systems, so a test that writes without end gets "No space left
   * on device" instead of filling the host; the rest of the file system is read-only. Their bytes count
   * against `memoryMb` too. Unset or 0: DEFAULT_DISK_MB (there is no unlimited sandbox).
   */
  diskMb?: number;
}

/** The default disk quota, MB: half the default memory limit, so a full work tree leaves the tests 1 GB. */
export const DEFAULT_DISK_MB = 1024;

/** The disk quota from FAUN_SANDBOX_DISK_MB (MB; unset, 0 or not a number = DEFAULT_DISK_MB). */
export function defaultDiskMb(env = process.env): number {
  const raw = env.FAUN_SANDBOX_DISK_MB;
  if (raw === undefined || raw.trim() === '') return DEFAULT_DISK_MB;
  const v = Number(raw);
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : DEFAULT_DISK_MB;
}

/** The quota a sandbox with these limits gets, MB. */
export function diskQuotaMb(limits: Limits): number {
  return limits.diskMb && limits.diskMb > 0 ? limits.diskMb : defaultDiskMb();
}

export const DEFAULT_LIMITS: Limits = { cpus: 1, memoryMb: 2048, pids: 512, diskMb: defaultDiskMb() };

/**
 * The sandbox's network: `none` (loopback only), or `tarpit` — an internal network (no route out, no
 * NAT) on 10.255.0.0/16, so a connect to an unanswering address such as 10.255.255.1 hangs until the
 * client's timeout instead of failing at once, as tests of connect timeouts expect.
 */
export type SandboxNetwork = 'none' | 'tarpit';

export interface StartOptions {
  labels: Record<string, string>;
  limits: Limits;
  network?: SandboxNetwork;
  /** Host names that resolve to 127.0.0.1 in the sandbox (test servers the spec starts on loopback). */
  localHosts?: string[];
  /** Further writable folders, filled from the image (the spec's `writable`; absolute paths). */
  writable?: string[];
}

/** Where a backend writes its progress, a line at a time. */
export type LogLine = (l: string) => void;

/** How environments are built and sandboxes started. */
export interface Backend {
  readonly name: string;
  /** The environment hash without building anything (for resume checks). */
  envHash(inst: ExecutionInstance, spec: EnvSpec, tree: string): string;
  prepare(inst: ExecutionInstance, spec: EnvSpec, source: string, log: LogLine): Promise<PreparedEnv>;
  start(env: PreparedEnv, opts: StartOptions): Promise<Sandbox>;
  /** A published image (pulled when missing and `pull`); absent when the backend cannot run images. */
  preparePublished?(plan: PublishedPlan, pull: boolean, log: (l: string) => void): Promise<PreparedEnv>;
  /** A local image's content id and registry digest (null when it is not present). */
  imageEntry?(ref: string): Promise<LockEntry | null>;
  /** Removes sandboxes left behind by runs that are no longer alive; returns how many. */
  reapOrphans?(): Promise<number>;
  /** Drops an instance environment that is no longer needed (`--cache-level env`); shared ones stay. */
  release?(env: PreparedEnv): Promise<void>;
}

/**
 * Runs a bash command as its own process group, output capped; `timeoutMs` kills the whole group; `limitS`
 * runs it under coreutils' `timeout` (the local backend has no supervisor the command cannot reach).
 */
export async function localExec(
  cmd: string,
  cwd: string,
  opts: ExecOptions & { baseEnv?: Record<string, string> } = {},
): Promise<ExecResult> {
  const limited = opts.limitS ? ['timeout', '-k', '5', String(Math.max(1, Math.round(opts.limitS)))] : [];
  const p = Bun.spawn(
    ['setsid', ...limited, 'bash', '-c', `exec 2>&1\n${cmd}`, 'bash', ...(opts.args ?? [])],
    {
      cwd,
      env: { ...process.env, ...opts.baseEnv, ...opts.env },
      stdout: 'pipe',
      stderr: 'pipe',
      stdin: opts.stdin === undefined ? 'ignore' : new TextEncoder().encode(opts.stdin),
    },
  );
  let timedOut = false;
  const timer = opts.timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        try {
          process.kill(-p.pid, 'SIGKILL');
        } catch {
          p.kill('SIGKILL');
        }
      }, opts.timeoutMs)
    : null;
  const [out, code] = await Promise.all([captureProcess(p, opts.maxOutput), p.exited]);
  if (timer) clearTimeout(timer);
  return { exitCode: timedOut ? null : code, output: out.text(), timedOut, omittedBytes: out.omittedBytes() };
}

/**
 * A sandbox that is a temporary directory on this machine: no isolation, no limits, no separate user — for
 * unit tests of the run logic only. The environment "image" is a snapshot directory copied per run.
 */
export class LocalSandbox implements Sandbox {
  readonly imageId = null;

  private constructor(
    private readonly root: string,
    readonly workdir: string,
    readonly scratch: string,
    private readonly env: Record<string, string>,
  ) {}

  static async create(snapshot: string, env: Record<string, string> = {}): Promise<LocalSandbox> {
    const root = mkdtempSync(join(tmpdir(), 'faun-sbx-'));
    const workdir = join(root, 'testbed');
    const scratch = join(root, 'faun');
    await mkdir(scratch, { recursive: true });
    await Bun.$`cp -a ${snapshot} ${workdir}`.quiet();
    return new LocalSandbox(root, workdir, scratch, env);
  }

  exec(cmd: string, opts: ExecOptions = {}): Promise<ExecResult> {
    return localExec(cmd, this.workdir, { ...opts, baseEnv: this.env });
  }

  async writeFile(path: string, content: string): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  }

  async killTestProcesses(): Promise<void> {}

  async infraProblem(): Promise<string | null> {
    return null;
  }

  async dispose(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}
