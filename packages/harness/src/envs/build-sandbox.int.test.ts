/**
 * Image builds are contained, tried from inside a build step as a hostile repository's install step would:
 * listeners on the host's loopback and on Docker's bridge gateway are never reached, a host that is not a
 * package registry is refused, the registries themselves still work (apt through the proxy, npm over
 * CONNECT), and every step runs with a small capability set, a pids limit and a memory limit.
 * The probes are the spec's own env and install steps, built by a DockerBackend with its default options.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { lookup } from 'node:dns/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { ensureDocker, ensureToolchainImage } from '@faun/services';
import { bridgeGateway } from '../../testing/bridge.ts';
import { type Fixture, makeFixture } from '../../testing/fixtures.ts';
import { DockerBackend } from '../sandbox/docker.ts';
import { docker, envTag } from './docker-images.ts';
import type { EnvSpec } from './specs.ts';

const root = mkdtempSync(`${tmpdir()}/faun-build-sbx-`);
let fx: Fixture;
const servers: Server[] = [];
const hits: string[] = [];
let loopPort = 0;
let gwPort = 0;
let gateway = '';
let registryIp = '';
const made: string[] = [];

/** A TCP listener on `host` that records every connection made to it. */
async function listen(host: string): Promise<number> {
  const s = createServer((c) => {
    hits.push(`${host}:${c.localPort}`);
    c.end('faun-probe\n');
  });
  await new Promise<void>((r) => s.listen(0, host, () => r()));
  servers.push(s);
  const a = s.address();
  return typeof a === 'object' && a ? a.port : 0;
}

beforeAll(async () => {
  await ensureDocker();
  await ensureToolchainImage('python');
  fx = makeFixture('python', root);
  // the bridge's gateway is the host's address on it
  gateway = await bridgeGateway();
  loopPort = await listen('127.0.0.1');
  gwPort = await listen(gateway);
  registryIp = (await lookup('deb.debian.org', { family: 4 })).address;
}, 600_000);

afterAll(async () => {
  for (const s of servers) s.close();
  for (const tag of made.reverse()) await docker(['rmi', '-f', tag]);
  rmSync(root, { recursive: true, force: true });
}, 120_000);

/** `bash -c` a connect to host:port with a time limit; prints `connected` or the failure. */
const tcp = (host: string, port: number | string) =>
  `(timeout 8 bash -c 'exec 3<>/dev/tcp/${host}/${port}; head -c 10 <&3' 2>&1 && echo connected || echo "no connection ($?)") | tr '\\n' ' '`;
const py = (code: string) => `python3 -c "${code}" 2>&1 | tail -1`;

/**
 * One build step that runs each probe side by side (most wait on a refusal or a time-out), the output of each
 * in /probe/<name>. The jobs are grouped after the `mkdir`: `mkdir && a & b &` would run the `mkdir` in the
 * background with `a`, and `b`'s redirection could come first on a loaded machine.
 */
const sideBySide = (probes: Record<string, string>) =>
  `mkdir -p /probe && { ${Object.entries(probes)
    .map(([name, cmd]) => `(${cmd}) > /probe/${name} &`)
    .join(' ')} wait; }`;

/** Every file in /probe of image `ref`, read with one container: name → content, trimmed. */
async function readProbes(ref: string): Promise<Record<string, string>> {
  const list = 'cd /probe && for f in *; do printf "%s\\0" "$f"; cat "$f"; printf "\\0"; done';
  const r = await docker(['run', '--rm', '--network', 'none', ref, 'sh', '-c', list]);
  expect(r.code).toBe(0);
  const parts = r.out.split('\0');
  const probes: Record<string, string> = {};
  for (let i = 0; i + 1 < parts.length; i += 2) probes[parts[i]!] = parts[i + 1]!.trim();
  return probes;
}

test('a build step reaches no host service, no other host, only the registries, under limits', async () => {
  const ca = '/etc/ssl/certs/faun-build-ca.crt';
  const fetchPy = (url: string) =>
    py(
      `import ssl,urllib.request as u; ctx=ssl.create_default_context(cafile='${ca}'); print(u.urlopen('${url}',timeout=30,context=ctx).status)`,
    );
  const spec: EnvSpec = {
    name: `faun-test/build-sandbox-${process.pid}-${loopPort}`,
    versions: null,
    toolchain: 'python',
    apt: ['jq'], // from the Debian mirror, through the proxy
    registryBuild: true,
    envSetup: [
      sideBySide({
        loopback: tcp('127.0.0.1', loopPort),
        gateway: tcp(gateway, gwPort),
        direct: tcp(registryIp, 80),
        dns: 'getent hosts registry.npmjs.org || echo "no resolution ($?)"',
        'other-host': fetchPy('http://example.com/'),
        'gateway-via-proxy': fetchPy(`http://${gateway}:${gwPort}/`),
        npm: fetchPy('https://registry.npmjs.org/left-pad'),
      }),
      [
        'jq --version > /probe/jq',
        'grep CapEff /proc/self/status > /probe/caps',
        '(cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max) > /probe/pids',
        '(cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes) > /probe/mem',
        'grep NoNewPrivs /proc/self/status > /probe/nnp',
      ].join(' && '),
    ],
    install: [
      `${tcp('127.0.0.1', loopPort)} > /probe/inst-loopback`,
      'grep CapEff /proc/self/status > /probe/inst-caps',
    ],
    testCmd: 'true',
    parser: 'pytest',
    specVersion: '1',
  };
  const backend = new DockerBackend(`build-sbx-${process.pid}`);
  const env = await backend.prepare(fx.instance, spec, fx.dir, () => {});
  made.push(envTag(spec), env.ref);
  const envImage = (await docker(['image', 'inspect', '--format', '{{.Parent}}', env.ref])).out.trim();
  expect(envImage.length).toBeGreaterThan(0);
  const probes = await readProbes(env.ref);
  expect(Object.keys(probes).sort()).toEqual(
    [
      'loopback',
      'gateway',
      'direct',
      'dns',
      'other-host',
      'gateway-via-proxy',
      'npm',
      'jq',
      'caps',
      'pids',
      'mem',
      'nnp',
      'inst-loopback',
      'inst-caps',
    ].sort(),
  );
  console.log(JSON.stringify(probes, null, 1));
  // nothing on the host was reached, directly or through the proxy
  expect(hits).toEqual([]);
  // exit 1: the connect itself failed (124 would be a connection that stayed silent)
  expect(probes.loopback).toMatch(/Connection refused.*no connection \(1\)/); // the step's own loopback
  expect(probes.gateway).toMatch(/No route to host.*no connection \(1\)/); // no host address on the network
  expect(probes['inst-loopback']).toMatch(/no connection \(1\)/);
  // no route out except through the proxy, which refuses what is not a registry
  expect(probes.direct).toMatch(/No route to host.*no connection \(1\)/);
  expect(probes.dns).toBe('no resolution (2)'); // no name service either: names go to the proxy
  expect(probes['other-host']).toMatch(/403.*Forbidden/);
  expect(probes['gateway-via-proxy']).toMatch(/403.*Forbidden/);
  // the registries work: apt installed jq, npm answered over CONNECT
  expect(probes.jq).toMatch(/^jq-1\./);
  expect(probes.npm).toBe('200');
  // CHOWN, DAC_OVERRIDE, FOWNER, FSETID, KILL, SETGID, SETUID only (Docker's default set is a80425fb)
  expect(probes.caps).toBe('CapEff:\t00000000000000fb');
  expect(probes['inst-caps']).toBe('CapEff:\t00000000000000fb');
  expect(probes.nnp).toBe('NoNewPrivs:\t1');
  expect(probes.pids).toBe('2048');
  expect(probes.mem).toBe(String(6144 * 1024 * 1024));
}, 900_000);

test('the probe is not blind: with --build-network host the same step reaches the loopback listener', async () => {
  const before = hits.length;
  const spec: EnvSpec = {
    name: `faun-test/build-host-${process.pid}-${loopPort}`,
    versions: null,
    toolchain: 'python',
    apt: [],
    // the same side-by-side step as the contained build's, so that its probes are known to see a leak
    envSetup: [sideBySide({ loopback: tcp('127.0.0.1', loopPort) })],
    install: [],
    testCmd: 'true',
    parser: 'pytest',
    specVersion: '1',
  };
  const backend = new DockerBackend(`build-host-${process.pid}`, { buildNetwork: 'host' });
  const env = await backend.prepare(fx.instance, spec, fx.dir, () => {});
  made.push(envTag(spec), env.ref);
  const probes = await readProbes(env.ref);
  expect(probes.loopback).toContain('faun-probe');
  expect(probes.loopback).toContain('connected');
  expect(hits.slice(before)).toEqual([`127.0.0.1:${loopPort}`]);
}, 600_000);

test('with --build-network none a build step has no network at all, not even the proxy', async () => {
  const spec: EnvSpec = {
    name: `faun-test/build-none-${process.pid}-${loopPort}`,
    versions: null,
    toolchain: 'python',
    apt: [],
    envSetup: [
      `mkdir -p /probe && ${tcp(registryIp, 80)} > /probe/direct && env | grep -ci proxy > /probe/proxy; true`,
    ],
    install: [],
    testCmd: 'true',
    parser: 'pytest',
    specVersion: '1',
  };
  const backend = new DockerBackend(`build-none-${process.pid}`, { buildNetwork: 'none' });
  const env = await backend.prepare(fx.instance, spec, fx.dir, () => {});
  made.push(envTag(spec), env.ref);
  const probes = await readProbes(env.ref);
  expect(probes.direct).toMatch(/Network is unreachable.*no connection \(1\)/);
  expect(probes.proxy).toBe('0');
}, 600_000);
