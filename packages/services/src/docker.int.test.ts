import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { outputOf, REPO_ROOT } from '@faun/kit';
import { dockerReachable, imageExists } from './docker.ts';
import { ensureToolchainImage, toolchainImageTag } from './images.ts';
import { run } from './proc.ts';

process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';

async function setup(): Promise<{ code: number; out: string }> {
  const proc = Bun.spawn(['bun', join(REPO_ROOT, 'scripts/setup-services.ts'), 'python'], {
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const { code, stdout, stderr } = await outputOf(proc);
  return { code, out: stdout + stderr };
}

test('setup script is idempotent: a second run rebuilds nothing', async () => {
  const first = await setup();
  expect(first.code).toBe(0);
  expect(first.out).toContain(`ready: ${toolchainImageTag('python')}`);
  const second = await setup();
  expect(second.code).toBe(0);
  expect(second.out).toContain(`toolchain image ${toolchainImageTag('python')}: present, not rebuilt`);
  expect(second.out).not.toContain('docker build');
  expect(second.out).not.toContain('debootstrap');
}, 900_000);

test('two setups at once both succeed (lock) and agree on the tag', async () => {
  const [a, b] = await Promise.all([setup(), setup()]);
  expect(a.code).toBe(0);
  expect(b.code).toBe(0);
  expect(a.out).toContain(`ready: ${toolchainImageTag('python')}`);
  expect(b.out).toContain(`ready: ${toolchainImageTag('python')}`);
}, 900_000);

test('testcontainers runs a real container of the locally built image (no registry, no Ryuk)', async () => {
  const { GenericContainer } = await import('testcontainers');
  const tag = await ensureToolchainImage('python');
  const container = await new GenericContainer(tag)
    .withCommand(['sleep', 'infinity'])
    .withLabels({ 'org.faun.test': 'services' })
    .start();
  try {
    const r = await container.exec([
      'python3',
      '-c',
      'import pytest, sys; print(sys.version_info[0] * 10 + 2)',
    ]);
    expect(r.exitCode).toBe(0);
    expect(r.output.trim()).toBe('32');
  } finally {
    await container.stop({ timeout: 1 });
  }
}, 120_000);

test('the engine is asked over its socket: imageExists and dockerReachable agree with the docker command', async () => {
  const tag = await ensureToolchainImage('python');
  const missing = `${tag.split(':')[0]}:no-such-tag`;
  const cli = async (t: string) => (await run(['docker', 'image', 'inspect', t])).code === 0;
  expect(await cli(tag)).toBe(true);
  expect(await cli(missing)).toBe(false);
  expect(await imageExists(tag)).toBe(true);
  expect(await imageExists(missing)).toBe(false);
  expect(await dockerReachable()).toBe(true);
}, 900_000);
