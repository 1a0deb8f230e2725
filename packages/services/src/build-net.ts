/**
 * The `registries` build network (I/O edge): a Docker bridge that is `--internal` (no route out, no NAT)
 * and has no address of the host on it (`inhibit_ipv4`), so a build step reaches neither the host — its
 * loopback services, its other ports, its gateway — nor the internet. Its one neighbour is faun's egress
 * proxy container (egress-proxy.ts run by this process's own `bun`, read-only, no capabilities), also on
 * Docker's default bridge, which forwards only to the allow-listed registries, resolved as the host
 * resolves them. Both are created on first use and shared by every build (one proxy per allow-list).
 */
import { lookup } from 'node:dns/promises';
import { realpathSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { FaunError, sha256 } from '@faun/kit';
import { withLock } from '@faun/kit/lock';
import { ensureBaseImage } from './base-image.ts';
import type { BuildPolicy } from './build-policy.ts';
import { STATE_DIR } from './docker.ts';
import { run } from './proc.ts';

export const BUILD_NET = 'faun-build';
export const BUILD_SUBNET = '10.254.254.0/24';
export const PROXY_PORT = 3128;
const PROXY_LABEL = 'org.faun.build-proxy';
const PROXY_SOURCE = new URL('./egress-proxy.ts', import.meta.url).pathname;

/** The build network's problem (not the build's): what to do is in the message. */
export class BuildNetworkError extends FaunError {}

async function docker(args: string[]): Promise<{ code: number; out: string }> {
  const r = await run(['docker', ...args]);
  return { code: r.code, out: (r.stdout + r.stderr).trim() };
}

/** Creates the build network, or checks that an existing one is closed as it must be. */
async function ensureNetwork(): Promise<void> {
  const fmt = '{{.Internal}} {{index .Options "com.docker.network.bridge.inhibit_ipv4"}}';
  const have = await docker(['network', 'inspect', '--format', fmt, BUILD_NET]);
  if (have.code === 0) {
    if (have.out === 'true true') return;
    throw new BuildNetworkError(
      `docker network ${BUILD_NET} exists but is not internal with no host address (${have.out})`,
      { hint: `remove it (docker network rm ${BUILD_NET}); faun creates it again` },
    );
  }
  const r = await docker([
    'network',
    'create',
    '--internal',
    '--opt',
    'com.docker.network.bridge.inhibit_ipv4=true',
    '--subnet',
    BUILD_SUBNET,
    '--label',
    'org.faun.build=1',
    BUILD_NET,
  ]);
  if (r.code !== 0 && !/already exists/.test(r.out))
    throw new BuildNetworkError(`cannot create docker network ${BUILD_NET}: ${r.out}`);
}

/** `--add-host` arguments: each allowed host as the host resolves it (its /etc/hosts included). */
async function hostEntries(registries: string[]): Promise<string[]> {
  const args: string[] = [];
  for (const host of new Set(registries.map((r) => r.slice(0, r.lastIndexOf(':'))))) {
    const a = await lookup(host, { family: 4 }).catch(() => null);
    if (!a) continue; // the proxy's own resolver tries; a registry that does not resolve fails the step
    if (a.address.startsWith('127.'))
      throw new BuildNetworkError(`package registry ${host} resolves to loopback (${a.address})`, {
        hint: 'a build container cannot reach the host loopback; use --build-network host, or a registry address the containers can reach',
      });
    args.push('--add-host', `${host}:${a.address}`);
  }
  return args;
}

const upstreamOf = (env: Record<string, string | undefined>) =>
  env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy ?? '';

/** Starts the proxy container for `registries`; resolves with its address on the build network. */
async function ensureProxy(registries: string[], log: (l: string) => void): Promise<string> {
  const bun = realpathSync(process.execPath);
  const upstream = upstreamOf(process.env);
  const image = await ensureBaseImage(log);
  const source = await Bun.file(PROXY_SOURCE).text();
  const id = sha256([registries.join(','), upstream, bun, image, source].join('\n')).slice(0, 12);
  const name = `faun-build-proxy-${id}`;
  const ip = async () => {
    const r = await docker([
      'inspect',
      '--format',
      `{{.State.Running}} {{(index .NetworkSettings.Networks "${BUILD_NET}").IPAddress}}`,
      name,
    ]);
    const [running, addr] = r.out.split(' ');
    return r.code === 0 && running === 'true' && addr ? addr : null;
  };
  const have = await ip();
  if (have) return have;
  // a proxy for the same registries from another faun (source, bun) is superseded by this one
  const same = sha256(registries.join(',')).slice(0, 12);
  const old = await docker([
    'ps',
    '-a',
    '--filter',
    `label=${PROXY_LABEL}.registries=${same}`,
    '--format',
    '{{.Names}}',
  ]);
  const stale = old.out.split('\n').filter((n) => n && n !== name);
  await docker(['rm', '-f', name, ...stale]);
  const hosts = await hostEntries(registries);
  log(`build proxy ${name}: forwarding only to ${registries.join(' ')}`);
  const r = await docker([
    'run',
    '-d',
    '--name',
    name,
    '--label',
    `${PROXY_LABEL}=${id}`,
    '--label',
    `${PROXY_LABEL}.registries=${same}`,
    '--restart',
    'unless-stopped',
    '--network',
    'bridge',
    ...hosts,
    '--cap-drop',
    'ALL',
    '--security-opt',
    'no-new-privileges',
    '--read-only',
    '--tmpfs',
    '/tmp:size=16m',
    '--user',
    '65534:65534',
    '--memory',
    '256m',
    '--pids-limit',
    '256',
    '--cpus',
    '0.5',
    '-e',
    'HOME=/tmp',
    '-e',
    `FAUN_ALLOW=${registries.join(',')}`,
    '-e',
    `FAUN_UPSTREAM=${upstream}`,
    '-e',
    `FAUN_PROXY_PORT=${PROXY_PORT}`,
    '-v',
    `${bun}:/usr/local/bin/bun:ro`,
    '-v',
    `${PROXY_SOURCE}:/opt/faun/egress-proxy.ts:ro`,
    image,
    '/usr/local/bin/bun',
    '/opt/faun/egress-proxy.ts',
  ]);
  if (r.code !== 0) throw new BuildNetworkError(`cannot start the build proxy: ${r.out}`);
  const c = await docker(['network', 'connect', BUILD_NET, name]);
  if (c.code !== 0) throw new BuildNetworkError(`cannot attach the build proxy to ${BUILD_NET}: ${c.out}`);
  for (let i = 0; i < 100; i++) {
    const logs = await docker(['logs', name]);
    if (logs.out.includes('faun build proxy on')) {
      const addr = await ip();
      if (addr) return addr;
    }
    await Bun.sleep(100);
  }
  const logs = await docker(['logs', '--tail', '20', name]);
  throw new BuildNetworkError(`the build proxy did not start: ${logs.out}`);
}

/** What `docker create` needs for a build step under `policy`: network arguments and the proxy variables. */
export async function buildNetworkArgs(
  policy: BuildPolicy,
  log: (l: string) => void,
): Promise<{ args: string[]; env: string[] }> {
  if (policy.network === 'host') return { args: ['--network', 'host'], env: [] };
  if (policy.network === 'none') return { args: ['--network', 'none'], env: [] };
  await mkdir(STATE_DIR, { recursive: true });
  const ip = await withLock(`${STATE_DIR}/build-net.lock`, async () => {
    await ensureNetwork();
    return ensureProxy(policy.registries, log);
  });
  const url = `http://${ip}:${PROXY_PORT}`;
  const env = ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY'].map((k) => `${k}=${url}`);
  return { args: ['--network', BUILD_NET], env };
}
