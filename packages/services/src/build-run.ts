/**
 * The confined builder (I/O edge): executes one of faun's Dockerfiles (build-steps.ts) without
 * `docker build`, whose steps cannot drop capabilities or limit processes. Each RUN is a container with
 * `--cap-drop ALL` plus BUILD_CAPS, `no-new-privileges`, CPU/memory/pids limits and the policy's network,
 * committed into the next layer; COPY is a tar stream into a created container; ENV/LABEL/WORKDIR/USER are
 * commit changes. The proxy variables reach a step through its command line only, never the image's
 * configuration. Images have the content `docker build` gave them; their entrypoint and command are the
 * base image's (a base with no command gets `bash`), and PATH is set as the builder sets it.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { FaunError } from '@faun/kit';
import { processAlive } from '@faun/kit/lock';
import { buildNetworkArgs } from './build-net.ts';
import { BUILD_CAPS, type BuildPolicy } from './build-policy.ts';
import { type BuildStep, parseDockerfile } from './build-steps.ts';
import { run } from './proc.ts';

/** A build step failed (its command's exit status and last output lines are in the message). */
export class BuildStepError extends FaunError {}

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const KEEP = 4000;
let seq = 0;

async function docker(args: string[], input?: string): Promise<{ code: number; out: string }> {
  const r = await run(['docker', ...args], input === undefined ? {} : { input });
  return { code: r.code, out: (r.stdout + r.stderr).trim() };
}

async function must(args: string[], what: string): Promise<string> {
  const r = await docker(args);
  if (r.code !== 0) throw new BuildStepError(`${what}: ${r.out.slice(-KEEP)}`);
  return r.out;
}

/**
 * The `docker create` flags of a build step under `policy` (no labels: a container's labels would be
 * committed into the image; build containers are named `faun-build-<pid>-<n>`).
 */
export function stepFlags(policy: BuildPolicy, name: string, network: string[]): string[] {
  const l = policy.limits;
  return [
    '--name',
    name,
    ...network,
    '--cap-drop',
    'ALL',
    ...BUILD_CAPS.flatMap((c) => ['--cap-add', c]),
    '--security-opt',
    'no-new-privileges',
    '--memory',
    `${l.memoryMb}m`,
    '--memory-swap',
    `${l.memoryMb}m`,
    '--cpus',
    String(l.cpus),
    '--pids-limit',
    String(l.pids),
  ];
}

/** Runs a created container to its end; resolves with the exit status and the output's tail. */
async function startAttached(name: string): Promise<{ code: number; tail: string }> {
  const p = Bun.spawn(['docker', 'start', '-a', name], { stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  let tail = '';
  const keep = async (s: ReadableStream<Uint8Array>) => {
    const d = new TextDecoder();
    for await (const chunk of s) tail = (tail + d.decode(chunk, { stream: true })).slice(-KEEP);
  };
  await Promise.all([keep(p.stdout), keep(p.stderr)]);
  const code = await p.exited;
  const state = await docker(['inspect', '--format', '{{.State.ExitCode}} {{.State.OOMKilled}}', name]);
  const [exit, oom] = state.out.split(' ');
  if (oom === 'true') tail += '\n(the step was killed: out of memory under the build memory limit)';
  return { code: state.code === 0 ? Number(exit) : code, tail };
}

interface State {
  image: string;
  cmd: string;
  /** The base image's entrypoint (JSON), cleared while steps run and restored at each commit. */
  entrypoint: string | null;
  pending: string[];
}

/** `docker create` flags that clear the base image's entrypoint for a step (restored by commit). */
const noEntrypoint = (st: State) => (st.entrypoint ? ['--entrypoint', ''] : []);

/** Commits container `name` with the pending changes and the base command; removes it. */
async function commit(st: State, name: string): Promise<string> {
  const restore = st.entrypoint ? [`ENTRYPOINT ${st.entrypoint}`] : [];
  const changes = [...st.pending, ...restore, `CMD ${st.cmd}`].flatMap((c) => ['--change', c]);
  st.pending = [];
  try {
    return await must(['commit', ...changes, name], `docker commit of ${name}`);
  } finally {
    await docker(['rm', '-f', name]);
  }
}

async function runStep(st: State, cmd: string, policy: BuildPolicy, net: { args: string[]; env: string[] }) {
  if (st.pending.length) await metaStep(st);
  const name = `faun-build-${process.pid}-${++seq}`;
  await must(
    [
      'create',
      ...stepFlags(policy, name, net.args),
      ...noEntrypoint(st),
      st.image,
      'env',
      ...net.env,
      '/bin/sh',
      '-c',
      cmd,
    ],
    'docker create of a build step',
  );
  try {
    const r = await startAttached(name);
    if (r.code !== 0)
      throw new BuildStepError(`step failed (exit ${r.code}): RUN ${cmd.slice(0, 300)}\n${r.tail}`, {
        hint: r.code === 137 ? 'killed: the build memory or process limit, or a timeout' : undefined,
      });
  } catch (e) {
    await docker(['rm', '-f', name]);
    throw e;
  }
  st.image = await commit(st, name);
}

async function metaStep(st: State): Promise<void> {
  const name = `faun-build-${process.pid}-${++seq}`;
  await must(
    ['create', '--name', name, '--network', 'none', ...noEntrypoint(st), st.image, 'true'],
    'docker create',
  );
  st.image = await commit(st, name);
}

async function copyStep(st: State, ctx: string, src: string, dest: string): Promise<void> {
  const from = join(ctx, src);
  const dir = statSync(from).isDirectory();
  const to = dest.replace(/^\/+/, '').replace(/\/+$/, '');
  if (/[,\\]/.test(to)) throw new BuildStepError(`COPY destination ${dest} has a character tar cannot map`);
  const name = `faun-build-${process.pid}-${++seq}`;
  await must(
    ['create', '--name', name, '--network', 'none', ...noEntrypoint(st), st.image, 'true'],
    'docker create',
  );
  const tar = [
    'tar',
    '--owner=0',
    '--group=0',
    '--numeric-owner',
    `--transform=${dir ? `s,^\\.,${to},rh` : `s,^.*$,${to},rh`}`,
    '-C',
    dir ? from : ctx,
    '-cf',
    '-',
    dir ? '.' : src,
  ];
  const t = Bun.spawn(tar, { stdout: 'pipe', stderr: 'pipe' });
  const cp = Bun.spawn(['docker', 'cp', '-', `${name}:/`], {
    stdin: t.stdout,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [tc, cc, err] = await Promise.all([t.exited, cp.exited, new Response(cp.stderr).text()]);
  if (tc !== 0 || cc !== 0) {
    await docker(['rm', '-f', name]);
    throw new BuildStepError(`COPY ${src} ${dest} failed: ${err.trim()}`);
  }
  st.image = await commit(st, name);
}

/** The starting state: the base image, its command and entrypoint, PATH when the base has none. */
async function fromStep(image: string): Promise<State> {
  const out = await must(['image', 'inspect', '--format', '{{json .Config}}', image], `base image ${image}`);
  type Config = { Cmd?: string[] | null; Entrypoint?: string[] | null; Env?: string[] | null };
  const cfg = (JSON.parse(out) ?? {}) as Config;
  const entrypoint = cfg.Entrypoint?.length ? JSON.stringify(cfg.Entrypoint) : null;
  const pending = (cfg.Env ?? []).some((e) => e.startsWith('PATH=')) ? [] : [`ENV PATH=${DEFAULT_PATH}`];
  return { image, cmd: JSON.stringify(cfg.Cmd?.length ? cfg.Cmd : ['bash']), entrypoint, pending };
}

async function apply(
  st: State,
  s: BuildStep,
  ctx: string,
  policy: BuildPolicy,
  net: () => Promise<{ args: string[]; env: string[] }>,
) {
  if (s.kind === 'meta') st.pending.push(s.line);
  else if (s.kind === 'copy') await copyStep(st, ctx, s.src, s.dest);
  else if (s.kind === 'run') await runStep(st, s.cmd, policy, await net());
}

/** Removes build containers (`faun-build-<pid>-<n>`) of processes that are gone (an interrupted build). */
export async function reapBuildContainers(): Promise<number> {
  const r = await docker(['ps', '-a', '--filter', 'name=^faun-build-[0-9]', '--format', '{{.Names}}']);
  if (r.code !== 0) return 0;
  const dead = r.out
    .split('\n')
    .filter((n) => {
      const m = /^faun-build-(\d+)-\d+$/.exec(n.trim());
      return m && !processAlive(Number(m[1]));
    })
    .map((n) => n.trim());
  if (dead.length) await docker(['rm', '-f', ...dead]);
  return dead.length;
}

/** Builds `tag` from `dockerfile` (faun's own) with the files of `ctx`, every step confined by `policy`. */
export async function buildImage(
  tag: string,
  dockerfile: string,
  ctx: string,
  policy: BuildPolicy,
  log: (l: string) => void = () => {},
): Promise<void> {
  const steps = parseDockerfile(dockerfile);
  const reaped = await reapBuildContainers();
  if (reaped) log(`removed ${reaped} build container(s) of interrupted builds`);
  const first = steps[0];
  if (first?.kind !== 'from') throw new BuildStepError('a Dockerfile must start with FROM');
  const st = await fromStep(first.image);
  let netArgs: Promise<{ args: string[]; env: string[] }> | null = null;
  const net = () => (netArgs ??= buildNetworkArgs(policy, log));
  try {
    for (const s of steps.slice(1)) await apply(st, s, ctx, policy, net);
    if (st.pending.length || st.image === first.image) await metaStep(st);
    await must(['tag', st.image, tag], `docker tag ${tag}`);
  } catch (e) {
    // the untagged layers committed so far go with the last one
    if (st.image !== first.image) await docker(['rmi', st.image]);
    throw e;
  }
}
