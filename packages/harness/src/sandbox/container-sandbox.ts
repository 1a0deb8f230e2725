/**
 * Sandboxes as containers (the run-time half of the container edge; docker.ts builds the images). A sandbox
 * is a container of the environment's sandbox layer with:
 * - every command run as the unprivileged test user, under no capabilities (`--cap-drop ALL`) and
 *   `no-new-privileges`;
 * - a read-only root file system: the only writable places are size-limited memory file systems — the work
 *   tree, the test user's home and the spec's `writable` folders (filled from the image at start), /tmp and
 *   /var/tmp;
 * - CPU, memory (no swap) and process limits; no network (or the tarpit interface, tarpit.ts);
 * - each command its own `docker exec`: its output comes back on its own stream, capped (capture.ts), and its
 *   exit status is the runtime's — nothing the code under test prints or writes reaches the grader otherwise.
 */
import { FaunError } from '@faun/kit';
import { docker, WORKDIR } from '../envs/docker-images.ts';
import { ensureSandboxImage, SUPERVISOR, TEST_USER, TEST_USER_SPEC } from '../envs/sandbox-image.ts';
import { captureProcess } from './capture.ts';
import {
  diskQuotaMb,
  type ExecOptions,
  type ExecResult,
  type Limits,
  type PreparedEnv,
  type Sandbox,
  type StartOptions,
} from './sandbox.ts';
import { attachTarpit } from './tarpit.ts';

/** The smallest size of each memory file system, MB. */
const MIN_MB = 16;

/** Size of /tmp and /var/tmp, MB: a quarter of the quota, 16 to 1,024 MB. */
export function smallMb(diskMb: number): number {
  return Math.max(MIN_MB, Math.min(1024, Math.floor(diskMb / 4)));
}

/**
 * The writable places of a sandbox (`--tmpfs` specs): the work tree, home and the spec's `writable` folders
 * owned by the test user (filled from the image after start), the temporary folders sticky and
 * world-writable. Written bytes count against the quota of each and against the container's memory limit —
 * never the host's disk.
 */
export function sandboxTmpfs(diskMb: number, workdir: string, writable: string[] = []): string[] {
  const owner = `uid=${TEST_USER.uid},gid=${TEST_USER.gid}`;
  const mb = Math.max(MIN_MB, diskMb);
  const small = smallMb(mb);
  return [
    `${workdir}:rw,exec,nosuid,nodev,size=${mb}m,${owner},mode=0755`,
    `${TEST_USER.home}:rw,exec,nosuid,nodev,size=${mb}m,${owner},mode=0700`,
    ...writableDirs(workdir, writable).map((d) => `${d}:rw,exec,nosuid,nodev,size=${mb}m,${owner},mode=0755`),
    `/tmp:rw,exec,nosuid,nodev,size=${small}m,mode=1777`,
    `/var/tmp:rw,nosuid,nodev,size=${small}m,mode=1777`,
  ];
}

/** The places every sandbox has: a spec's `writable` folder may be none of them, nor inside one. */
const RESERVED = ['/', '/tmp', '/var/tmp', TEST_USER.home];

/**
 * A spec's further writable folders, checked (absolute, normalised, outside the work tree, home and the
 * temporary folders) and sorted; a bad one is the spec's error, named.
 */
export function writableDirs(workdir: string, writable: string[]): string[] {
  const inside = (d: string, p: string) => d === p || d.startsWith(`${p}/`);
  for (const d of writable)
    if (!/^(\/[A-Za-z0-9._+-]+)+$/.test(d) || d.split('/').some((c) => c === '.' || c === '..'))
      throw new FaunError(
        `writable folder ${JSON.stringify(d)} of the environment spec is not an absolute path`,
      );
    else if ([...RESERVED, workdir].some((p) => p !== '/' && (inside(d, p) || inside(p, d))) || d === '/')
      throw new FaunError(
        `writable folder ${d} of the environment spec overlaps the work tree, home or /tmp`,
      );
  return [...new Set(writable)].sort();
}

/** `docker run` arguments of a sandbox container (pure, for tests and for the record). */
export function sandboxRunArgs(
  image: string,
  workdir: string,
  limits: Limits,
  labels: Record<string, string>,
  localHosts: string[] = [],
  writable: string[] = [],
): string[] {
  const args = [
    'run',
    '-d',
    '--read-only',
    '--cap-drop',
    'ALL',
    '--security-opt',
    'no-new-privileges',
    '--network',
    'none',
    // the sandbox's own network namespace: its test servers may listen on 80/443 without privileges
    '--sysctl',
    'net.ipv4.ip_unprivileged_port_start=0',
    '--cpus',
    String(limits.cpus),
    '--memory',
    `${limits.memoryMb}m`,
    '--memory-swap',
    `${limits.memoryMb}m`,
    '--pids-limit',
    String(limits.pids),
    '--workdir',
    workdir,
  ];
  for (const t of sandboxTmpfs(diskQuotaMb(limits), workdir, writable)) args.push('--tmpfs', t);
  for (const h of [...new Set(localHosts)].sort()) args.push('--add-host', `${h}:127.0.0.1`);
  for (const [k, v] of Object.entries(labels).sort()) args.push('--label', `${k}=${v}`);
  // PID 1 is the engine's init (tini), root's with no capabilities: the test user can neither signal nor
  // trace it, and it reaps every orphan, so killed processes do not linger as zombies against the pids limit
  args.push('--init', '--user', '0', '--entrypoint', 'sleep', image, 'infinity');
  return args;
}

/**
 * A created, never started container of `image`, the source `fillFromImage` reads from (created while the
 * sandbox itself starts).
 */
async function createHelper(image: string, labels: Record<string, string>): Promise<string> {
  const labelArgs = Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]);
  const made = await docker(['create', '--network', 'none', '--entrypoint', 'true', ...labelArgs, image]);
  const helper = made.out.trim().split('\n').pop() ?? '';
  if (made.code !== 0 || !/^[0-9a-f]{12,64}$/.test(helper))
    throw new FaunError(`could not read the work tree of ${image}: ${made.out.trim()}`);
  return helper;
}

/**
 * Copies `paths` of `image` (owners, modes, times and links kept as far as the test user may) into the
 * started container's memory file systems, all at once: read from `helper` (createHelper, removed here) and
 * unpacked there by tar as the test user, so the bytes count against the quota as any write does.
 */
async function fillFromImage(
  helper: Promise<string>,
  image: string,
  container: string,
  paths: string[],
  diskMb: number,
): Promise<void> {
  const id = await helper;
  try {
    const copied = await Promise.allSettled(paths.map((p) => copyInto(id, container, p, image, diskMb)));
    for (const c of copied) if (c.status === 'rejected') throw c.reason;
  } finally {
    await docker(['rm', '-f', '-v', id]);
  }
}

async function copyInto(helper: string, container: string, path: string, image: string, diskMb: number) {
  const parent = path.slice(0, path.lastIndexOf('/')) || '/';
  const src = Bun.spawn(['docker', 'cp', `${helper}:${path}`, '-'], { stdout: 'pipe', stderr: 'pipe' });
  const dst = Bun.spawn(
    [
      'docker',
      'exec',
      '-i',
      '-u',
      TEST_USER_SPEC,
      container,
      'tar',
      '-x',
      '-p',
      '--no-same-owner',
      '-C',
      parent,
    ],
    { stdin: src.stdout, stdout: 'pipe', stderr: 'pipe' },
  );
  const [srcErr, dstOut, dstErr, srcCode, dstCode] = await Promise.all([
    new Response(src.stderr).text(),
    new Response(dst.stdout).text(),
    new Response(dst.stderr).text(),
    src.exited,
    dst.exited,
  ]);
  // an image without the folder: it stays empty
  if (srcCode !== 0 && /no such file|could not find/i.test(srcErr)) return;
  if (srcCode !== 0) throw new FaunError(`could not read ${path} of ${image}: ${srcErr.trim()}`);
  if (dstCode === 0) return;
  const why = `${dstOut}${dstErr}`.trim().split('\n').slice(-3).join('; ');
  // GNU tar says "No space left on device", or only "Wrote only N of M bytes" for a short write
  if (/no space left|wrote only \d+ of \d+ bytes/i.test(why))
    throw new FaunError(`${path} of ${image} does not fit the sandbox disk quota of ${diskMb} MB`, {
      hint: 'raise FAUN_SANDBOX_DISK_MB (the quota counts against the container memory limit too)',
    });
  throw new FaunError(`could not copy ${path} into the sandbox: ${why}`);
}

/** Starts a sandbox container of `env` with the given limits, network and labels. */
export async function startContainer(
  env: PreparedEnv,
  opts: StartOptions,
  labels: Record<string, string>,
  log: (l: string) => void = () => {},
): Promise<Sandbox> {
  const workdir = env.workdir ?? WORKDIR;
  const { tag, baseId } = await ensureSandboxImage(env.ref, log);
  const helper = createHelper(tag, labels);
  helper.catch(() => {}); // awaited below; a failure is reported there
  const writable = writableDirs(workdir, opts.writable ?? []);
  const r = await docker(sandboxRunArgs(tag, workdir, opts.limits, labels, opts.localHosts, writable));
  const id = r.out.trim().split('\n').pop() ?? '';
  if (r.code !== 0 || !/^[0-9a-f]{64}$/.test(id)) {
    await helper.then((h) => docker(['rm', '-f', '-v', h])).catch(() => {});
    throw new FaunError(`could not start a sandbox of ${env.ref}: ${r.out.trim().slice(-1000)}`);
  }
  const box = new ContainerSandbox(id, workdir, baseId);
  try {
    await fillFromImage(helper, tag, id, [workdir, TEST_USER.home, ...writable], diskQuotaMb(opts.limits));
    if (opts.network === 'tarpit') await attachTarpit(id);
  } catch (e) {
    await box.dispose().catch(() => {});
    throw e;
  }
  return box;
}

/** `docker exec` arguments running `cmd` as the test user (values of `env` passed as data). */
export function execArgs(id: string, workdir: string, cmd: string, opts: ExecOptions = {}): string[] {
  const args = ['exec', '-u', TEST_USER_SPEC, '-w', workdir, '-e', `HOME=${TEST_USER.home}`];
  if (opts.stdin !== undefined) args.push('-i');
  for (const [k, v] of Object.entries(opts.env ?? {}).sort()) args.push('-e', `${k}=${v}`);
  args.push(id);
  if (opts.limitS) args.push(SUPERVISOR, '-k', '5', String(Math.max(1, Math.round(opts.limitS))));
  args.push('bash', '-c', `exec 2>&1\n${cmd}`, 'bash', ...(opts.args ?? []));
  return args;
}

export class ContainerSandbox implements Sandbox {
  readonly scratch = '/tmp';
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
    readonly id: string,
    readonly workdir: string,
    /** The content id of the environment image the sandbox runs. */
    readonly imageId: string,
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

  async exec(cmd: string, opts: ExecOptions = {}): Promise<ExecResult> {
    const p = Bun.spawn(['docker', ...execArgs(this.id, this.workdir, cmd, opts)], {
      stdout: 'pipe',
      stderr: 'pipe',
      stdin: opts.stdin === undefined ? 'ignore' : new TextEncoder().encode(opts.stdin),
    });
    const captured = captureProcess(p, opts.maxOutput);
    const run = this.guard(Promise.all([captured, p.exited]).then(([, code]) => code));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<null>((resolve) => {
      if (opts.timeoutMs) timer = setTimeout(() => resolve(null), opts.timeoutMs);
    });
    const code = await Promise.race([run, deadline]).finally(() => clearTimeout(timer));
    if (code !== null) {
      const out = await captured;
      return { exitCode: code, output: out.text(), timedOut: false, omittedBytes: out.omittedBytes() };
    }
    // The sandbox's own limit did not stop it: kill the whole container (every process in it).
    this.killed = 'host deadline';
    await docker(['kill', this.id]);
    p.kill('SIGKILL');
    run.catch(() => {});
    const out = await Promise.race([captured, Bun.sleep(5000).then(() => null)]);
    return {
      exitCode: null,
      output: out?.text() ?? '',
      timedOut: true,
      omittedBytes: out?.omittedBytes() ?? 0,
    };
  }

  async writeFile(path: string, content: string): Promise<void> {
    // the path is an argument, the content standard input: neither is ever part of a shell line
    const p = Bun.spawn(
      ['docker', 'exec', '-i', '-u', TEST_USER_SPEC, this.id, 'sh', '-c', 'cat > "$1"', 'sh', path],
      { stdin: new TextEncoder().encode(content), stdout: 'pipe', stderr: 'pipe' },
    );
    const [err, code] = await this.guard(Promise.all([new Response(p.stderr).text(), p.exited]));
    if (code !== 0) throw new FaunError(`cannot write ${path} in the sandbox: ${err.trim()}`);
  }

  /**
   * Every process of the test user is killed from the host: the container is frozen (a fork bomb cannot
   * outrun it), its processes listed by the engine and signalled by host pid, then thawed. Done from outside
   * because a container at its pids limit cannot start another command inside.
   */
  async killTestProcesses(): Promise<void> {
    for (let round = 0; round < 5; round++) {
      const paused = (await docker(['pause', this.id])).code === 0;
      try {
        const top = await docker(['top', this.id, '-eo', 'pid,uid']);
        const pids = top.out
          .split('\n')
          .slice(1)
          .map((l) => l.trim().split(/\s+/))
          .filter(([pid, uid]) => /^\d+$/.test(pid ?? '') && uid === String(TEST_USER.uid))
          .map(([pid]) => Number(pid));
        if (!pids.length) return;
        for (const pid of pids) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // gone already, or not ours to signal (a remote engine): the exec below is the fallback
          }
        }
      } finally {
        if (paused) await docker(['unpause', this.id]);
      }
      if (!paused) {
        await docker(['exec', '-u', TEST_USER_SPEC, this.id, 'sh', '-c', 'kill -9 -1 2>/dev/null; true']);
        return;
      }
    }
  }

  async infraProblem(): Promise<string | null> {
    // the state and, read at the same time, cgroup v2 memory.events or v1 memory.oom_control (a process in
    // the container was OOM-killed; read only when the container still runs)
    const [r, ev] = await Promise.all([
      docker(['inspect', '--format', '{{.State.OOMKilled}} {{.State.Running}}', this.id]),
      docker([
        'exec',
        '-u',
        TEST_USER_SPEC,
        this.id,
        'sh',
        '-c',
        `cat /sys/fs/cgroup/memory.events /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null | grep -E '^oom_kill ' || true`,
      ]),
    ]);
    if (r.code !== 0) return `container vanished: ${r.out.trim()}`;
    const [oom, running] = r.out.trim().split(' ');
    if (oom === 'true') return 'oom: the container hit its memory limit';
    if (running !== 'true' && !this.killed) return 'container stopped unexpectedly';
    if (running === 'true') {
      const n = Number(/oom_kill (\d+)/.exec(ev.out)?.[1] ?? 0);
      if (n > 0) return `oom: ${n} process(es) in the container were killed for memory`;
    }
    return null;
  }

  async dispose(): Promise<void> {
    if (this.removed) return;
    this.removed = true;
    this.markRemoved();
    await docker(['rm', '-f', '-v', this.id]);
  }
}
