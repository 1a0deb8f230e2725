/**
 * The sandbox a test run happens in, behind a small interface: containers in production (docker.ts),
 * a local process in a temporary directory for fast unit tests (this file).
 */
import { mkdtempSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ExecutionInstance } from '@faun/schema';
import type { PublishedPlan } from './published.ts';
import type { EnvSpec } from './specs.ts';

export interface ExecResult {
  /** Exit code; null when the command was killed by the host-side deadline. */
  exitCode: number | null;
  output: string;
  /** The host-side deadline fired. */
  timedOut: boolean;
}

export interface Sandbox {
  /** Where the repository is checked out. */
  readonly workdir: string;
  /** A writable directory for scripts and logs. */
  readonly scratch: string;
  /** Runs a bash command in `workdir`; `timeoutMs` is a hard deadline that kills everything started. */
  exec(cmd: string, opts?: { timeoutMs?: number }): Promise<ExecResult>;
  writeFile(path: string, content: string): Promise<void>;
  readFile(path: string): Promise<string>;
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
}

export interface Limits {
  cpus: number;
  memoryMb: number;
  pids: number;
  /**
   * Disk quota of the writable places of a sandbox, MB: the work tree (the image's tree is copied in at
   * start and counts against it), the scratch folder and /tmp (each a quarter of it, 16 to 1,024 MB) are
   * size-limited memory-backed file systems, so a test that writes without end gets "No space left on
   * device" instead of filling the host. Their bytes count against `memoryMb` too. 0 = no quota (the
   * image's own writable layer, on the host's disk).
   */
  diskMb?: number;
}

/** The default disk quota, MB: half the default memory limit, so a full work tree leaves the tests 1 GB. */
export const DEFAULT_DISK_MB = 1024;

/** The disk quota from FAUN_SANDBOX_DISK_MB (MB; unset = DEFAULT_DISK_MB, 0 = off). */
export function defaultDiskMb(env = process.env): number {
  const raw = env.FAUN_SANDBOX_DISK_MB;
  if (raw === undefined || raw.trim() === '') return DEFAULT_DISK_MB;
  const v = Number(raw);
  return Number.isFinite(v) && v >= 0 ? Math.floor(v) : DEFAULT_DISK_MB;
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
}

/** How environments are built and sandboxes started. */
export interface Backend {
  readonly name: string;
  /** The environment hash without building anything (for resume checks). */
  envHash(inst: ExecutionInstance, spec: EnvSpec, tree: string): string;
  prepare(
    inst: ExecutionInstance,
    spec: EnvSpec,
    source: string,
    log: (l: string) => void,
  ): Promise<PreparedEnv>;
  start(env: PreparedEnv, opts: StartOptions): Promise<Sandbox>;
  /** A published image (pulled when missing and `pull`); absent when the backend cannot run images. */
  preparePublished?(plan: PublishedPlan, pull: boolean, log: (l: string) => void): Promise<PreparedEnv>;
  /** Removes sandboxes left behind by runs that are no longer alive; returns how many. */
  reapOrphans?(): Promise<number>;
  /** Drops an instance environment that is no longer needed (`--cache-level env`); shared ones stay. */
  release?(env: PreparedEnv): Promise<void>;
}

/** Runs a bash command as its own process group; the deadline kills the whole group. */
export async function localExec(cmd: string, cwd: string, timeoutMs?: number, env?: Record<string, string>) {
  const p = Bun.spawn(['setsid', 'bash', '-c', `${cmd} 2>&1`], {
    cwd,
    env: { ...process.env, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
    stdin: 'ignore',
  });
  let timedOut = false;
  const timer = timeoutMs
    ? setTimeout(() => {
        timedOut = true;
        try {
          process.kill(-p.pid, 'SIGKILL');
        } catch {
          p.kill('SIGKILL');
        }
      }, timeoutMs)
    : null;
  const [output, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
  if (timer) clearTimeout(timer);
  return { exitCode: timedOut ? null : code, output, timedOut } satisfies ExecResult;
}

/**
 * A sandbox that is a temporary directory on this machine: no isolation, no limits — for unit tests
 * of the run logic only. The environment "image" is a snapshot directory copied per run.
 */
export class LocalSandbox implements Sandbox {
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

  exec(cmd: string, opts: { timeoutMs?: number } = {}): Promise<ExecResult> {
    return localExec(cmd, this.workdir, opts.timeoutMs, this.env);
  }

  async writeFile(path: string, content: string): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  }

  readFile(path: string): Promise<string> {
    return readFile(path, 'utf8');
  }

  async infraProblem(): Promise<string | null> {
    return null;
  }

  async dispose(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}
