/**
 * A Docker engine without any registry: when no engine answers and we are root on Debian, install
 * `docker.io`, start `dockerd` in the background and wait for its socket. Idempotent and safe to run
 * twice at once (a cross-process lock).
 */
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { PrerequisiteError } from '@faun/kit';
import { withLock } from '@faun/kit/lock';
import { ensureDebs } from './apt.ts';
import { run, waitFor, which } from './proc.ts';

export const STATE_DIR = process.env.FAUN_STATE_DIR ?? '/var/cache/faun';
const SOCKET = '/var/run/docker.sock';

/** The engine's unix socket, unless DOCKER_HOST names another kind of endpoint. */
function engineSocket(): string | null {
  const host = process.env.DOCKER_HOST;
  if (!host) return SOCKET;
  return host.startsWith('unix://') ? host.slice('unix://'.length) : null;
}

/**
 * One request to the engine's API over its socket (a few milliseconds, where each `docker` command costs a
 * process of ~0.1 s): the status and body, or null when it cannot be asked that way (another endpoint, no
 * socket) — the caller then asks the `docker` command.
 */
async function engineApi(path: string): Promise<{ status: number; body: string } | null> {
  const socket = engineSocket();
  if (socket === null || typeof Bun === 'undefined' || !existsSync(socket)) return null;
  try {
    const r = await fetch(`http://docker${path}`, { unix: socket } as RequestInit);
    return { status: r.status, body: await r.text() };
  } catch {
    return null;
  }
}

/** True when the engine answers (and the `docker` command is there). */
export async function dockerReachable(): Promise<boolean> {
  if (!which('docker')) return false;
  const ping = await engineApi('/_ping');
  if (ping) return ping.status === 200;
  return (await run(['docker', 'info', '--format', '{{.ServerVersion}}'])).code === 0;
}

export interface DockerStatus {
  /** True when this call started the engine. */
  started: boolean;
  serverVersion: string;
}

/** Makes sure a Docker engine answers; starts Debian's dockerd when possible. */
export async function ensureDocker(log: (l: string) => void = () => {}): Promise<DockerStatus> {
  if (await dockerReachable()) return { started: false, serverVersion: await serverVersion() };
  mkdirSync(STATE_DIR, { recursive: true });
  return withLock(
    `${STATE_DIR}/docker.lock`,
    async () => {
      if (await dockerReachable()) return { started: false, serverVersion: await serverVersion() };
      if (process.getuid?.() !== 0 || !existsSync('/etc/debian_version'))
        throw new PrerequisiteError('no Docker engine is reachable', {
          hint: 'start Docker (or set DOCKER_HOST); faun starts one itself only as root on Debian',
        });
      if (!which('dockerd')) await ensureDebs(['docker.io'], log);
      if (!which('docker')) await ensureDebs(['docker.io'], log);
      log('starting dockerd in the background (log: /var/log/faun-dockerd.log)');
      const out = openSync('/var/log/faun-dockerd.log', 'a');
      // its own session (setsid -f): the engine outlives this process, and a signal to this process's group
      // (a test runner stopping its workers, Ctrl+C) never reaches it and every container on the machine
      const proc = Bun.spawn(['setsid', '-f', 'dockerd', '--host', `unix://${SOCKET}`], {
        stdout: out,
        stderr: out,
        stdin: 'ignore',
      });
      proc.unref();
      closeSync(out);
      const ok = await waitFor(async () => existsSync(SOCKET) && (await dockerReachable()), 60_000, 250);
      if (!ok)
        throw new PrerequisiteError('dockerd did not come up within 60 s', {
          hint: 'see /var/log/faun-dockerd.log',
        });
      const v = await serverVersion();
      log(`dockerd ${v} is up`);
      return { started: true, serverVersion: v };
    },
    () => log('waiting for another process that is setting up Docker…'),
  );
}

async function serverVersion(): Promise<string> {
  const v = await engineApi('/version');
  if (v?.status === 200) {
    try {
      return String((JSON.parse(v.body) as { Version?: string }).Version ?? '');
    } catch {}
  }
  return (await run(['docker', 'info', '--format', '{{.ServerVersion}}'])).stdout.trim();
}

/** True when a local image with this tag exists. */
export async function imageExists(tag: string): Promise<boolean> {
  const r = await engineApi(`/images/${tag}/json`);
  if (r && (r.status === 200 || r.status === 404)) return r.status === 200;
  return (await run(['docker', 'image', 'inspect', tag, '--format', '{{.Id}}'])).code === 0;
}
