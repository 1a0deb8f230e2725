/**
 * Sandboxes are boxed in: a container that writes without end hits its disk quota ("No space left on
 * device") and keeps running, the host's free space does not move; capabilities are dropped and
 * privileges cannot be regained.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { ensureBaseImage, ensureDocker } from '@faun/services';
import { DockerBackend } from './docker.ts';
import type { Sandbox } from './sandbox.ts';

let box: Sandbox | null = null;
beforeAll(async () => {
  await ensureDocker();
  const image = await ensureBaseImage();
  box = await new DockerBackend(`quota-${process.pid}`).start(
    { ref: image, hash: 'test' },
    { labels: {}, limits: { cpus: 1, memoryMb: 768, pids: 128, diskMb: 64 } },
  );
}, 300_000);
afterAll(async () => {
  await box?.dispose();
});

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
