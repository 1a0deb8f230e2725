/** The local backend's snapshot cache shared by several backends (one per queue job) at the same time. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Fixture, tempPythonFixture } from '../../testing/fixtures.ts';
import { LANGUAGE_DEFAULTS } from '../envs/specs.ts';
import { LocalBackend } from './local-backend.ts';

let root = '';
let fx: Fixture;
const spec = LANGUAGE_DEFAULTS.python!;

beforeAll(() => {
  ({ root, fx } = tempPythonFixture('faun-local-backend-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Prepares `fx`'s instance with each backend at once, then checks every sandbox holds the base tree. */
async function prepareTogether(backends: LocalBackend[]): Promise<void> {
  const envs = await Promise.all(backends.map((b) => b.prepare(fx.instance, spec, fx.dir, () => {})));
  expect(new Set(envs.map((e) => e.ref)).size).toBe(1);
  for (const [i, b] of backends.entries()) {
    const box = await b.start(envs[i]!);
    try {
      expect(readFileSync(join(box.workdir, 'calc.py'), 'utf8')).toContain('a - b');
      const head = await box.exec('git rev-parse --verify HEAD && git status --porcelain');
      expect(head.exitCode).toBe(0);
      expect(head.output.trim()).toMatch(/^[0-9a-f]{40}$/);
    } finally {
      await box.dispose();
    }
  }
}

test('backends sharing one cache folder build an entry side by side: every sandbox gets the whole tree', async () => {
  const cache = join(root, 'shared-cache');
  await prepareTogether(Array.from({ length: 4 }, () => new LocalBackend(cache)));
  // one entry, no builder's folder left behind
  expect(readdirSync(cache)).toHaveLength(1);
  // a backend arriving later reuses it
  await prepareTogether([new LocalBackend(cache)]);
  expect(readdirSync(cache)).toHaveLength(1);
});

test('an entry without its ready marker (a stopped build) is built again, not used', async () => {
  const cache = join(root, 'stale-cache');
  const probe = new LocalBackend(join(root, 'probe-cache'));
  const { ref } = await probe.prepare(fx.instance, spec, fx.dir, () => {});
  const stale = join(cache, ref.split('/').at(-1)!);
  mkdirSync(stale, { recursive: true });
  writeFileSync(join(stale, 'half-written'), '');
  await prepareTogether([new LocalBackend(cache), new LocalBackend(cache)]);
  expect(readdirSync(stale)).not.toContain('half-written');
});
