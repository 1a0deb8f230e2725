/**
 * Sandboxes are boxed in: a container that writes without end hits its disk quota ("No space left on
 * device") and keeps running, the host's free space does not move; capabilities are dropped and
 * privileges cannot be regained.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { ensureBaseImage, ensureDocker } from '@faun/services';
import { DockerBackend } from './docker.ts';
import { docker, LABEL } from './docker-images.ts';
import { DEFAULT_LIMITS, type Sandbox } from './sandbox.ts';

let box: Sandbox | null = null;
/** An image whose /testbed holds a small tree (owners, modes, a link) and a 40 MB file beside it. */
const TREE_IMAGE = `faun/test-quota-tree:${process.pid}`;
const backend = new DockerBackend(`quota-${process.pid}`);
beforeAll(async () => {
  await ensureDocker();
  const image = await ensureBaseImage();
  const dockerfile = [
    `FROM ${image}`,
    'RUN mkdir -p /testbed/src /big && echo hello > /testbed/src/a.txt && chmod 640 /testbed/src/a.txt' +
      ' && chown 1000:1000 /testbed/src && ln -s a.txt /testbed/src/link && chmod 750 /testbed' +
      ' && head -c 41943040 /dev/zero > /big/file',
    '',
  ].join('\n');
  const built = Bun.spawn(['docker', 'build', '-q', '-t', TREE_IMAGE, '-'], {
    stdin: new TextEncoder().encode(dockerfile),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  if ((await built.exited) !== 0) throw new Error(`test image: ${await new Response(built.stderr).text()}`);
  box = await backend.start(
    { ref: image, hash: 'test' },
    { labels: {}, limits: { cpus: 1, memoryMb: 768, pids: 128, diskMb: 64 } },
  );
}, 300_000);
afterAll(async () => {
  await box?.dispose();
  await docker(['rmi', '-f', TREE_IMAGE]);
});

test('the quota is on by default and the work tree starts as the image made it', async () => {
  expect(DEFAULT_LIMITS.diskMb).toBeGreaterThan(0);
  const s = await backend.start({ ref: TREE_IMAGE, hash: 'test' }, { labels: {}, limits: DEFAULT_LIMITS });
  try {
    const r = await s.exec(
      'stat -c "%n %a %u:%g" /testbed /testbed/src /testbed/src/a.txt; readlink /testbed/src/link; cat /testbed/src/link;' +
        " df -m --output=fstype,size /testbed /tmp | tail -2 | tr -s ' '",
    );
    const lines = r.output.trim().split('\n');
    expect(lines.slice(0, 5)).toEqual([
      '/testbed 750 0:0',
      '/testbed/src 755 1000:1000',
      '/testbed/src/a.txt 640 0:0',
      'a.txt',
      'hello',
    ]);
    const [work, tmp] = lines.slice(5).map((l) => l.trim().split(' '));
    expect(work).toEqual(['tmpfs', String(DEFAULT_LIMITS.diskMb)]);
    expect(tmp![0]).toBe('tmpfs');
    // the tree is writable and git-like tools see it where the image put it
    expect((await s.exec('echo more >> src/a.txt && pwd && wc -l < src/a.txt')).output.trim()).toBe(
      '/testbed\n2',
    );
  } finally {
    await s.dispose();
  }
}, 180_000);

test('a work tree larger than the quota fails the start with a message naming the setting', async () => {
  const err = await backend
    .start(
      { ref: TREE_IMAGE, hash: 'test', workdir: '/big' },
      {
        labels: { [`${LABEL}.case`]: `too-big-${process.pid}` },
        limits: { cpus: 1, memoryMb: 768, pids: 128, diskMb: 16 },
      },
    )
    .then(
      () => null,
      (e: Error & { hint?: string }) => e,
    );
  expect(err?.message).toContain('does not fit the sandbox disk quota of 16 MB');
  expect(err?.hint).toContain('FAUN_SANDBOX_DISK_MB');
  // neither the sandbox nor the helper that held the image's tree is left behind
  const left = await docker(['ps', '-a', '--filter', `label=${LABEL}.case=too-big-${process.pid}`, '-q']);
  expect(left.out.trim()).toBe('');
}, 180_000);

/** Free bytes of the file system holding Docker's data. */
async function hostFree(): Promise<number> {
  const root = (await Bun.$`docker info --format {{.DockerRootDir}}`.text()).trim();
  const out = await Bun.$`df -B1 --output=avail ${root}`.nothrow().text();
  return Number(out.trim().split('\n').pop());
}

test('writing 1 GB stops at the 64 MB quota with ENOSPC; the container lives on; the host keeps its space', async () => {
  const before = await hostFree();
  const r = await box!.exec(
    'dd if=/dev/zero of=/testbed/fill bs=1M count=1024; echo "rc=$?"; du -sm /testbed/fill | cut -f1',
    { timeoutMs: 120_000 },
  );
  expect(r.output).toContain('No space left on device');
  expect(r.output).toMatch(/rc=[1-9]/);
  const mb = Number(r.output.trim().split('\n').pop());
  expect(mb).toBeLessThanOrEqual(64);
  const tmp = await box!.exec('dd if=/dev/zero of=/tmp/fill bs=1M count=1024 2>/dev/null; echo "rc=$?"');
  expect(tmp.output).toContain('rc=1');
  expect((await box!.exec('echo alive')).output.trim()).toBe('alive');
  const after = await hostFree();
  // other processes share the disk: allow their noise, far below the gigabyte the test tried to write
  expect(before - after).toBeLessThan(300 << 20);
  // the work tree still works after the failed write
  expect((await box!.exec('rm /testbed/fill && echo ok > /testbed/x && cat /testbed/x')).output.trim()).toBe(
    'ok',
  );
}, 180_000);

test('capabilities are dropped and no-new-privileges is set', async () => {
  const r = await box!.exec("grep -E '^(CapEff|CapBnd|NoNewPrivs)' /proc/self/status");
  expect(r.output).toMatch(/NoNewPrivs:\s+1/);
  const bnd = BigInt(`0x${/CapBnd:\s+([0-9a-f]+)/.exec(r.output)![1]}`);
  const NET_RAW = 13n;
  const MKNOD = 27n;
  const SYS_CHROOT = 18n;
  for (const cap of [NET_RAW, MKNOD, SYS_CHROOT]) expect((bnd >> cap) & 1n).toBe(0n);
  const CHOWN = 0n;
  expect((bnd >> CHOWN) & 1n).toBe(1n);
}, 60_000);
