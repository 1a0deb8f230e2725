/**
 * The sandbox holds, tried from inside as hostile code would: it runs as an unprivileged user with no
 * capabilities, on a read-only root file system whose only writable places are size-limited memory file
 * systems (the host's disk does not move), with pids and memory limits, no network (the tarpit reaches
 * nothing but a silent address), no grader file to read or write, output capped on the host, and a time-limit
 * supervisor it can neither trace nor make report success.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { createServer, type Server } from 'node:net';
import { ensureBaseImage, ensureDocker } from '@faun/services';
import { bridgeGateway } from '../../testing/bridge.ts';
import { docker, LABEL } from '../envs/docker-images.ts';
import { DockerBackend } from './docker.ts';
import { DEFAULT_LIMITS, type Limits, type Sandbox } from './sandbox.ts';

let box: Sandbox | null = null;
let base = '';
/** An image whose /testbed holds a small tree (owners, modes, a link), a 40 MB file beside it, and a home. */
const TREE_IMAGE = `faun/test-quota-tree:${process.pid}`;
const backend = new DockerBackend(`sbx-${process.pid}`);
const SMALL: Limits = { cpus: 1, memoryMb: 768, pids: 128, diskMb: 64 };
beforeAll(async () => {
  await ensureDocker();
  base = await ensureBaseImage();
  const dockerfile = [
    `FROM ${base}`,
    'RUN mkdir -p /testbed/src /big && echo hello > /testbed/src/a.txt && chmod 640 /testbed/src/a.txt' +
      ' && ln -s a.txt /testbed/src/link && chmod 750 /testbed && mkdir -p /root/.config' +
      ' && echo cfg > /root/.config/tool && head -c 41943040 /dev/zero > /big/file' +
      ' && mkdir -p /opt/build /opt/other && echo obj > /opt/build/obj',
    '',
  ].join('\n');
  const built = Bun.spawn(['docker', 'build', '-q', '-t', TREE_IMAGE, '-'], {
    stdin: new TextEncoder().encode(dockerfile),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  if ((await built.exited) !== 0) throw new Error(`test image: ${await new Response(built.stderr).text()}`);
  box = await backend.start({ ref: base, hash: 'test' }, { labels: {}, limits: SMALL });
}, 300_000);
afterAll(async () => {
  await box?.dispose();
  await docker(['rmi', '-f', TREE_IMAGE]);
});

const sh = async (cmd: string, opts = {}) =>
  (await box!.exec(cmd, { timeoutMs: 120_000, ...opts })).output.trim();

test('the work tree and home start as the image made them, owned by the test user, size-limited', async () => {
  expect(DEFAULT_LIMITS.diskMb).toBeGreaterThan(0);
  const s = await backend.start({ ref: TREE_IMAGE, hash: 'test' }, { labels: {}, limits: DEFAULT_LIMITS });
  try {
    const r = await s.exec(
      'id -un; stat -c "%n %a %U" /testbed /testbed/src /testbed/src/a.txt; readlink /testbed/src/link; cat /testbed/src/link;' +
        ' cat ~/.config/tool; echo $HOME; df -m --output=fstype,size /testbed /tmp | tail -2 | tr -s " "',
    );
    const lines = r.output.trim().split('\n');
    expect(lines.slice(0, 8)).toEqual([
      'faun-test',
      '/testbed 750 faun-test',
      '/testbed/src 755 faun-test',
      '/testbed/src/a.txt 640 faun-test',
      'a.txt',
      'hello',
      'cfg',
      '/root',
    ]);
    const [work, tmp] = lines.slice(8).map((l) => l.trim().split(' '));
    expect(work).toEqual(['tmpfs', String(DEFAULT_LIMITS.diskMb)]);
    expect(tmp![0]).toBe('tmpfs');
    expect((await s.exec('echo more >> src/a.txt && pwd && wc -l < src/a.txt')).output.trim()).toBe(
      '/testbed\n2',
    );
  } finally {
    await s.dispose();
  }
}, 180_000);

test("a spec's writable folder starts as the image made it and takes writes; its neighbours stay read-only", async () => {
  const s = await backend.start(
    { ref: TREE_IMAGE, hash: 'test' },
    { labels: {}, limits: SMALL, writable: ['/opt/build'] },
  );
  try {
    const r = await s.exec(
      'cat /opt/build/obj; echo new > /opt/build/obj && cat /opt/build/obj; stat -c "%U" /opt/build;' +
        ' df -m --output=fstype /opt/build | tail -1; echo x > /opt/other/f 2>&1; echo "rc=$?"',
    );
    expect(r.output.trim().split('\n')).toEqual([
      'obj',
      'new',
      'faun-test',
      'tmpfs',
      expect.stringContaining('Read-only file system'),
      'rc=1',
    ]);
  } finally {
    await s.dispose();
  }
}, 180_000);

test('a work tree larger than the quota fails the start with a message naming the setting', async () => {
  const err = await backend
    .start(
      { ref: TREE_IMAGE, hash: 'test', workdir: '/big' },
      { labels: { [`${LABEL}.case`]: `too-big-${process.pid}` }, limits: { ...SMALL, diskMb: 16 } },
    )
    .then(
      () => null,
      (e: Error & { hint?: string }) => e,
    );
  expect(err?.message).toContain('does not fit the sandbox disk quota of 16 MB');
  expect(err?.hint).toContain('FAUN_SANDBOX_DISK_MB');
  const left = await docker(['ps', '-a', '--filter', `label=${LABEL}.case=too-big-${process.pid}`, '-q']);
  expect(left.out.trim()).toBe('');
}, 180_000);

/** Free bytes of the file system holding Docker's data. */
async function hostFree(): Promise<number> {
  const root = (await Bun.$`docker info --format {{.DockerRootDir}}`.text()).trim();
  const out = await Bun.$`df -B1 --output=avail ${root}`.nothrow().text();
  return Number(out.trim().split('\n').pop());
}

test('disk fill: every writable place stops at its quota, the rest is read-only, the host keeps its space', async () => {
  const before = await hostFree();
  for (const dir of ['/testbed', '/tmp', '/var/tmp', '/root']) {
    const r = await sh(
      `dd if=/dev/zero of=${dir}/fill bs=1M count=1024 2>&1; echo "rc=$?"; du -sm ${dir}/fill | cut -f1; rm -f ${dir}/fill`,
    );
    expect(r).toContain('No space left on device');
    expect(r).toMatch(/rc=[1-9]/);
    expect(Number(r.split('\n').pop())).toBeLessThanOrEqual(64);
  }
  for (const dir of ['/', '/etc', '/usr/lib', '/var', '/opt', '/home'])
    expect(await sh(`echo x > ${dir}/faun-probe 2>&1; echo "rc=$?"`)).toMatch(
      /Read-only file system[\s\S]*rc=1/,
    );
  expect(await sh('echo alive')).toBe('alive');
  // other processes share the disk: allow their noise, far below the gigabytes the test tried to write
  expect(before - (await hostFree())).toBeLessThan(300 << 20);
}, 300_000);

test('no root, no capabilities, no way back to them', async () => {
  const r = await sh("id -u; grep -E '^(CapEff|CapPrm|CapBnd|NoNewPrivs)' /proc/self/status");
  expect(r.split('\n')[0]).toBe('10001');
  for (const cap of ['CapEff', 'CapPrm', 'CapBnd']) expect(r).toMatch(new RegExp(`${cap}:\\s+0+\\n?`));
  expect(r).toMatch(/NoNewPrivs:\s+1/);
  // a setuid-root binary gives nothing under no-new-privileges
  expect(await sh('su -c id root </dev/null 2>&1; echo "rc=$?"')).toMatch(/rc=[1-9]/);
  // PID 1 is root's: the test user can neither signal nor read it
  expect(await sh('kill -9 1 2>&1; echo "rc=$?"')).toMatch(/Operation not permitted[\s\S]*rc=1/);
}, 60_000);

test('fork bomb: the pids limit holds and the sandbox lives on', async () => {
  const r = await box!.exec('bomb() { bomb | bomb & }; bomb; sleep 2; echo survived', {
    limitS: 10,
    timeoutMs: 60_000,
  });
  expect(r.timedOut).toBe(false);
  // the bomb outlives its command at the pids limit: nothing else can start until the grader clears it
  await box!.killTestProcesses();
  expect(await sh('echo alive; ps -e --no-headers | wc -l')).toMatch(/^alive\n[1-5]$/);
}, 120_000);

test('huge output: 600 MiB to stdout costs faun a bounded amount of memory; head and tail are kept', async () => {
  Bun.gc(true);
  const before = process.memoryUsage().rss;
  const r = await box!.exec('echo FIRST; head -c 629145600 /dev/zero | tr "\\0" x; echo; echo LAST; exit 3', {
    timeoutMs: 600_000,
    maxOutput: { headBytes: 4 << 20, tailBytes: 4 << 20 },
  });
  const grew = process.memoryUsage().rss - before;
  expect(r.exitCode).toBe(3);
  expect(r.output.startsWith('FIRST\n')).toBe(true);
  expect(r.output.trimEnd().endsWith('LAST')).toBe(true);
  expect(r.omittedBytes).toBe((600 << 20) + 'FIRST\n\nLAST\n'.length - (8 << 20));
  expect(grew).toBeLessThan(200 << 20);
}, 600_000);

test('no network: only loopback; the host, its loopback services and the Docker bridge are unreachable', async () => {
  const servers: Server[] = [];
  const listen = (host: string) =>
    new Promise<number>((resolve) => {
      const s = createServer((c) => c.end('hello')).listen(0, host, () =>
        resolve((s.address() as { port: number }).port),
      );
      servers.push(s);
    });
  try {
    const anyPort = await listen('0.0.0.0');
    const loPort = await listen('127.0.0.1');
    const gateway = await bridgeGateway();
    expect(await sh('ls /sys/class/net')).toBe('lo');
    for (const [host, port] of [
      [gateway, anyPort],
      ['127.0.0.1', loPort],
      ['10.0.0.1', anyPort],
    ] as const)
      expect(await sh(`timeout 5 bash -c 'echo > /dev/tcp/${host}/${port}' 2>&1; echo "rc=$?"`)).toMatch(
        /rc=[1-9]/,
      );
  } finally {
    for (const s of servers) s.close();
  }
}, 60_000);

test('the tarpit: its one address hangs; nothing else is reachable, not the host, not another sandbox', async () => {
  const a = await backend.start(
    { ref: base, hash: 'test' },
    { labels: {}, limits: SMALL, network: 'tarpit' },
  );
  const b = await backend.start(
    { ref: base, hash: 'test' },
    { labels: {}, limits: SMALL, network: 'tarpit' },
  );
  try {
    // b serves on every address it has; a cannot reach it
    await b.exec(
      '(timeout 60 bash -c "while true; do echo hi | nc -l -p 8080 -q 1 2>/dev/null || sleep 60; done" &) ; true',
    );
    const t0 = Date.now();
    const hang = await a.exec('timeout 3 bash -c \'echo > /dev/tcp/10.255.255.1/80\'; echo "rc=$?"', {
      timeoutMs: 30_000,
    });
    expect(hang.output.trim()).toBe('rc=124'); // still connecting when the client gave up
    expect(Date.now() - t0).toBeGreaterThan(2500);
    const routes = (await a.exec('ls /sys/class/net | sort | tr "\\n" " "')).output.trim();
    expect(routes).toBe('lo tarpit0');
    for (const host of ['10.255.255.3', '172.17.0.1', '10.255.255.30'])
      expect(
        (await a.exec(`timeout 5 bash -c 'echo > /dev/tcp/${host}/8080' 2>&1; echo "rc=$?"`)).output,
      ).toMatch(/rc=[1-9]/);
  } finally {
    await a.dispose();
    await b.dispose();
  }
}, 120_000);

test('the time-limit supervisor cannot be traced or read, and killing it is a failure, never a success', async () => {
  const r = await box!.exec(
    'sup=$(ps -o ppid= -p $$ | tr -d " "); cat /proc/$sup/mem >/dev/null 2>&1 && echo MEM-READ; ' +
      'grep -q . /proc/$sup/environ 2>/dev/null && echo ENV-READ; ' +
      'python3 -c "import ctypes,sys; libc=ctypes.CDLL(None); sys.exit(0 if libc.ptrace(16, int(sys.argv[1]), 0, 0) == 0 else 1)" $sup && echo TRACED; ' +
      'echo PASSED; kill -9 $sup',
    { limitS: 30, timeoutMs: 60_000 },
  );
  expect(r.output).not.toMatch(/MEM-READ|ENV-READ|TRACED/);
  expect(r.exitCode).not.toBe(0);
}, 60_000);

test('no grader file is in the sandbox to read or to write', async () => {
  // what the grader needs never enters the sandbox: no script, no marker, no output file
  const r = await sh(
    'grep -rls -e ">>>>> faun" -e "Test Exit Code" -e "Start Test Output" /testbed /root /tmp /var/tmp /home /opt /etc /run 2>/dev/null; ls -d /faun 2>&1',
  );
  expect(r).toBe("ls: cannot access '/faun': No such file or directory");
}, 120_000);
