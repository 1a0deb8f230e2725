/**
 * Sandboxes as containers (the run-time half of the container edge; docker.ts builds the images): a
 * container per run with its limits, mounts and network, and the `Sandbox` commands run in it.
 */
import { basename, dirname } from 'node:path';
import { FaunError } from '@faun/kit';
import { run } from '@faun/services';
import { GenericContainer, type StartedTestContainer } from 'testcontainers';
import { docker, LABEL, SCRATCH, WORKDIR } from './docker-images.ts';
import type { ExecResult, Limits, PreparedEnv, Sandbox, StartOptions } from './sandbox.ts';

/**
 * The tarpit network: a small subnet holding 10.255.255.1 (never assigned: the gateway and the
 * containers take addresses from the top half), so that address is on-link and unanswered. It is kept
 * small because the host routes the whole subnet to the bridge: a wider one (10.255.0.0/16) would
 * capture host addresses such as a resolver at 10.255.255.53.
 */
export const TARPIT_NETWORK = 'faun-tarpit';
export const TARPIT_SUBNET = '10.255.255.0/27';
const TARPIT_GATEWAY = '10.255.255.30';
const TARPIT_RANGE = '10.255.255.16/28';

/** The internal `tarpit` network (created once; an existing one is reused). */
async function ensureTarpitNetwork(): Promise<string> {
  const r = await docker([
    'network',
    'inspect',
    TARPIT_NETWORK,
    '--format',
    '{{.Internal}} {{range .IPAM.Config}}{{.Subnet}}{{end}}',
  ]);
  if (r.code === 0) {
    if (r.out.trim() !== `true ${TARPIT_SUBNET}`)
      throw new FaunError(
        `docker network ${TARPIT_NETWORK} exists but is not internal on ${TARPIT_SUBNET}: remove it (docker network rm ${TARPIT_NETWORK})`,
      );
    return TARPIT_NETWORK;
  }
  const c = await docker([
    'network',
    'create',
    '--internal',
    '--subnet',
    TARPIT_SUBNET,
    '--gateway',
    TARPIT_GATEWAY,
    '--ip-range',
    TARPIT_RANGE,
    '--label',
    `${LABEL}=1`,
    TARPIT_NETWORK,
  ]);
  if (c.code !== 0 && !c.out.includes('already exists'))
    throw new FaunError(`docker network create ${TARPIT_NETWORK} failed: ${c.out.trim()}`);
  return TARPIT_NETWORK;
}

/**
 * Capabilities a test run may need (file ownership and modes, switching users, signalling its own
 * processes); everything else Docker grants by default (raw sockets, mknod, chroot, setfcap…) is dropped.
 */
export const SANDBOX_CAPS = ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'SETUID', 'SETGID', 'KILL'];

/**
 * The size-limited mounts of a sandbox: memory-backed volumes of the local driver (removed with the
 * container) at the work tree, the scratch folder and /tmp. Docker does not copy the image's content
 * into a tmpfs volume, so the work tree starts empty and `fillWorkTree` copies the image's tree into it.
 * Written bytes count against the quota and the container's memory, never the host's disk.
 */
export function quotaMounts(
  diskMb: number,
  workdir = WORKDIR,
): { Type: 'volume'; Target: string; VolumeOptions: unknown }[] {
  const tmpfs = (target: string, mb: number) => ({
    Type: 'volume' as const,
    Target: target,
    VolumeOptions: {
      NoCopy: true,
      DriverConfig: {
        Name: 'local',
        Options: { type: 'tmpfs', device: 'tmpfs', o: `size=${mb}m,nodev,nosuid` },
      },
    },
  });
  const small = Math.max(16, Math.min(1024, Math.floor(diskMb / 4)));
  return [tmpfs(workdir, diskMb), tmpfs(SCRATCH, small), tmpfs('/tmp', small)];
}

/**
 * Copies the image's tree at `workdir` (owners, modes, times and links kept) into the started
 * container's memory-backed work tree: read from a created, never started container of the image (its
 * file system is the image's) and unpacked by tar inside the sandbox, so the bytes count against the
 * quota as any write does. A tree larger than the quota is an error that says how to raise it.
 */
export async function fillWorkTree(
  image: string,
  container: string,
  workdir: string,
  diskMb: number,
  labels: Record<string, string>,
): Promise<void> {
  const labelArgs = Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]);
  const made = await docker(['create', '--network', 'none', '--entrypoint', 'true', ...labelArgs, image]);
  const helper = made.out.trim().split('\n').pop() ?? '';
  if (made.code !== 0 || !/^[0-9a-f]{12,64}$/.test(helper))
    throw new FaunError(`could not read the work tree of ${image}: ${made.out.trim()}`);
  try {
    const src = Bun.spawn(['docker', 'cp', `${helper}:${workdir}`, '-'], { stdout: 'pipe', stderr: 'pipe' });
    const dst = Bun.spawn(
      ['docker', 'exec', '-i', '-u', '0', container, 'tar', '-x', '-p', '-C', dirname(workdir)],
      { stdin: src.stdout, stdout: 'pipe', stderr: 'pipe' },
    );
    const [srcErr, dstOut, dstErr, srcCode, dstCode] = await Promise.all([
      new Response(src.stderr).text(),
      new Response(dst.stdout).text(),
      new Response(dst.stderr).text(),
      src.exited,
      dst.exited,
    ]);
    // an image without the folder: the work tree stays empty, as the folder would be without a quota
    if (srcCode !== 0 && /no such file|could not find/i.test(srcErr)) return;
    if (srcCode !== 0) throw new FaunError(`could not read ${workdir} of ${image}: ${srcErr.trim()}`);
    if (dstCode !== 0) {
      const why = `${dstOut}${dstErr}`.trim().split('\n').slice(-3).join('; ');
      // GNU tar says "No space left on device", or only "Wrote only N of M bytes" for a short write
      if (/no space left|wrote only \d+ of \d+ bytes/i.test(why))
        throw new FaunError(
          `the work tree of ${image} (${basename(workdir)}) does not fit the sandbox disk quota of ${diskMb} MB`,
          { hint: 'raise FAUN_SANDBOX_DISK_MB (the quota counts against the container memory limit too)' },
        );
      throw new FaunError(`could not copy the work tree into the sandbox: ${why}`);
    }
  } finally {
    await docker(['rm', '-f', '-v', helper]);
  }
}

/** A container with the limits testcontainers has no builder methods for (pids, capabilities, disk). */
class LimitedContainer extends GenericContainer {
  constructor(image: string, limits: Limits, workdir: string) {
    super(image);
    this.withResourcesQuota({ memory: limits.memoryMb / 1024, cpu: limits.cpus });
    this.hostConfig.PidsLimit = limits.pids;
    this.hostConfig.MemorySwap = limits.memoryMb * 1024 * 1024; // no swap beyond the memory limit
    this.hostConfig.CapDrop = ['ALL'];
    this.hostConfig.CapAdd = SANDBOX_CAPS;
    this.hostConfig.SecurityOpt = ['no-new-privileges'];
    if (limits.diskMb && limits.diskMb > 0)
      (this.hostConfig as { Mounts?: unknown[] }).Mounts = quotaMounts(limits.diskMb, workdir);
  }
}

/**
 * Runs `argv` (a `docker exec …` command line) and decodes its output once, whole. testcontainers' exec turns
 * every stream chunk into a string on its own, so a multi-byte character split across two chunks became two
 * U+FFFD: a jest line `✓ Meridiem` read back as `�� Meridiem`, and the test was lost from the log.
 */
export async function execWhole(
  argv: string[],
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const r = await run(argv);
  return { exitCode: r.code, stdout: r.stdout, stderr: r.stderr };
}

class ContainerSandbox implements Sandbox {
  readonly scratch = SCRATCH;
  private killed: string | null = null;
  private removed = false;
  private markRemoved: () => void = () => {};
  /**
   * Settles when the container is removed (Ctrl+C disposes it mid-command): an exec whose container is
   * gone may never see its output stream end, so every call races against this.
   */
  private readonly gone = new Promise<'gone'>((resolve) => {
    this.markRemoved = () => resolve('gone');
  });

  constructor(
    private readonly c: StartedTestContainer,
    readonly workdir: string,
  ) {}

  /** `p`, unless the container is removed first (then a cancellation error). */
  private async guard<T>(p: Promise<T>): Promise<T> {
    const r = await Promise.race([p, this.gone]);
    if (r === 'gone') {
      p.catch(() => {});
      throw new FaunError('the container was removed while a command ran in it (cancelled)');
    }
    return r as T;
  }

  async exec(cmd: string, opts: { timeoutMs?: number } = {}): Promise<ExecResult> {
    const run = this.guard(
      execWhole([
        'docker',
        'exec',
        '-w',
        this.workdir,
        this.c.getId(),
        'bash',
        '-c',
        `exec 2>&1\n${cmd}`,
      ]).then((r) => ({ exitCode: r.exitCode, output: r.stdout + r.stderr })),
    );
    if (!opts.timeoutMs) {
      const r = await run;
      return { exitCode: r.exitCode, output: r.output, timedOut: false };
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), opts.timeoutMs);
    });
    const r = await Promise.race([run, deadline]).finally(() => clearTimeout(timer));
    if (r) return { exitCode: r.exitCode, output: r.output, timedOut: false };
    // The in-container timeout did not stop it: kill the whole container (every process in it).
    this.killed = 'host deadline';
    await docker(['kill', this.c.getId()]);
    run.catch(() => {});
    return { exitCode: null, output: '', timedOut: true };
  }

  async writeFile(path: string, content: string): Promise<void> {
    await this.guard(this.c.copyContentToContainer([{ content, target: path, mode: 0o755 }]));
  }

  async readFile(path: string): Promise<string> {
    const r = await this.guard(execWhole(['docker', 'exec', this.c.getId(), 'cat', path]));
    if (r.exitCode !== 0) throw new FaunError(`cannot read ${path} in the container: ${r.stderr.trim()}`);
    return r.stdout;
  }

  async infraProblem(): Promise<string | null> {
    const r = await docker([
      'inspect',
      '--format',
      '{{.State.OOMKilled}} {{.State.Running}}',
      this.c.getId(),
    ]);
    if (r.code !== 0) return `container vanished: ${r.out.trim()}`;
    const [oom, running] = r.out.trim().split(' ');
    if (oom === 'true') return 'oom: the container hit its memory limit';
    if (running !== 'true' && !this.killed) return 'container stopped unexpectedly';
    if (running === 'true') {
      // cgroup v2 memory.events, or v1 memory.oom_control: a process in the container was OOM-killed.
      const ev = await this.c.exec([
        'sh',
        '-c',
        `cat /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null | grep -E '^oom_kill ' || true`,
      ]);
      const n = Number(/oom_kill (\d+)/.exec(ev.output)?.[1] ?? 0);
      if (n > 0) return `oom: ${n} process(es) in the container were killed for memory`;
    }
    return null;
  }

  async dispose(): Promise<void> {
    if (this.removed) return;
    this.removed = true;
    this.markRemoved();
    await docker(['rm', '-f', '-v', this.c.getId()]);
  }
}

/** Starts a sandbox container of `env` with the given limits, network and labels. */
export async function startContainer(
  env: PreparedEnv,
  opts: StartOptions,
  labels: Record<string, string>,
): Promise<Sandbox> {
  const workdir = env.workdir ?? WORKDIR;
  const c = await new LimitedContainer(env.ref, opts.limits, workdir)
    .withCommand(['sleep', 'infinity'])
    .withEntrypoint([])
    .withLabels(labels)
    .withNetworkMode(opts.network === 'tarpit' ? await ensureTarpitNetwork() : 'none')
    .withWorkingDir(workdir)
    .withStartupTimeout(60_000)
    .start();
  const box = new ContainerSandbox(c, workdir);
  if (opts.limits.diskMb && opts.limits.diskMb > 0) {
    try {
      await fillWorkTree(env.ref, c.getId(), workdir, opts.limits.diskMb, labels);
    } catch (e) {
      await box.dispose().catch(() => {});
      throw e;
    }
  }
  return box;
}
