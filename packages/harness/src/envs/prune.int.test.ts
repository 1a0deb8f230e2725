/**
 * `pruneImages` against the Docker engine with tiny images of its own (`faun/inst-prunetest-*`,
 * `faun/env-prunetest-*`, one COPY layer on the base image): only unreferenced instance images and
 * superseded env images that nothing stays on are removed; the base image is untouched.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBaseImage, ensureDocker, imageExists } from '@faun/services';
import { docker } from './docker-images.ts';
import { pruneImages } from './prune.ts';

let root = '';
let base = '';
const ENV_OLD = 'faun/env-prunetest-x:old0000000a';
const ENV_NEW = 'faun/env-prunetest-x:new0000000b';
const INST_USED = 'faun/inst-prunetest-x:00000000000000a1';
const INST_STALE = 'faun/inst-prunetest-x:00000000000000a2';
const ALL = [INST_USED, INST_STALE, ENV_OLD, ENV_NEW];

async function build(tag: string, from: string, content: string) {
  const ctx = join(root, tag.replace(/[^a-z0-9]+/g, '_'));
  mkdirSync(ctx, { recursive: true });
  writeFileSync(join(ctx, 'f'), content);
  writeFileSync(join(ctx, 'Dockerfile'), `FROM ${from}\nCOPY f /prunetest-${content}\n`);
  const r = await docker(['build', '-q', '-t', tag, ctx]);
  if (r.code !== 0) throw new Error(r.out);
}

function storeRun(logs: string, hashes: string[]) {
  for (const h of hashes) {
    const d = join(logs, 'run-a', 'instances', `i-${h}`);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, 'result.json'), JSON.stringify({ instance_id: `i-${h}`, image_id: h }));
  }
}

beforeAll(async () => {
  await ensureDocker();
  base = await ensureBaseImage();
  root = mkdtempSync(join(tmpdir(), 'faun-prune-int-'));
  await build(ENV_OLD, base, `env-old-${process.pid}`);
  await Bun.sleep(1100); // distinct creation times: the newer env is the current one
  await build(ENV_NEW, base, `env-new-${process.pid}`);
  await build(INST_USED, ENV_OLD, `inst-used-${process.pid}`);
  await build(INST_STALE, ENV_NEW, `inst-stale-${process.pid}`);
}, 120_000);

afterAll(async () => {
  await docker(['rmi', ...ALL]);
  rmSync(root, { recursive: true, force: true });
});

const only = (ref: string) => ref.includes('-prunetest-');
const MAIN = join(import.meta.dir, '../../../../apps/cli/src/main.ts');

test('faun verify --prune-images --dry-run keeps images younger than 10 minutes and removes nothing', () => {
  const run = (...extra: string[]) => {
    const p = Bun.spawnSync(
      ['bun', MAIN, 'verify', '--prune-images', '--dry-run', '--log-dir', join(root, 'no-runs'), ...extra],
      { stdout: 'pipe', stderr: 'pipe' },
    );
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  };
  const human = run();
  expect(human.code).toBe(0);
  expect(`${human.out}${human.err}`).toMatch(/would remove \d+ image\(s\) \(dry run\)/);
  expect(`${human.out}${human.err}`).toContain('images younger than 10 min are kept');
  const json = run('--json');
  expect(json.code).toBe(0);
  const planned = JSON.parse(json.out).removed as string[];
  expect(Array.isArray(planned)).toBe(true);
  // No stored run refers to the planted instance images, but they were built just now: a run building
  // at this moment has not stored its results yet, so the CLI leaves them out of the plan.
  for (const ref of ALL) expect(planned).not.toContain(ref);
  expect(planned.every((ref) => /^faun\/(inst|env)-/.test(ref))).toBe(true);
  for (const ref of ALL)
    expect(Bun.spawnSync(['docker', 'image', 'inspect', ref], { stdout: 'ignore' }).exitCode).toBe(0);
}, 120_000);

test('removes unreferenced instance images, keeps what stored runs use and the env they are built on', async () => {
  const logs = join(root, 'logs');
  storeRun(logs, ['00000000000000a1']);
  const first = await pruneImages({ logDirs: [logs], only });
  expect(first.removed).toEqual([INST_STALE]);
  expect(first.kept).toEqual([]);
  expect(await imageExists(INST_STALE)).toBe(false);
  for (const ref of [INST_USED, ENV_OLD, ENV_NEW, base]) expect(await imageExists(ref)).toBe(true);

  // The run is gone: its instance image goes, and then the superseded env layer nothing stays on.
  rmSync(join(logs, 'run-a'), { recursive: true, force: true });
  const second = await pruneImages({ logDirs: [logs], only });
  expect(second.removed).toEqual([ENV_OLD, INST_USED]);
  expect(await imageExists(ENV_NEW)).toBe(true);
  expect(await imageExists(base)).toBe(true);
  expect(second.reclaimedBytes).toBeGreaterThanOrEqual(0);
}, 120_000);

test('an image a container still uses is kept and reported', async () => {
  await build(INST_STALE, ENV_NEW, `inst-stale-${process.pid}`);
  const c = await docker(['create', '--label', 'org.faun.prunetest=1', INST_STALE, 'true']);
  expect(c.code).toBe(0);
  try {
    const out = await pruneImages({ logDirs: [join(root, 'none')], only });
    expect(out.removed).toEqual([]);
    expect(out.kept.map((k) => k.ref)).toEqual([INST_STALE]);
    expect(out.kept[0]?.reason).toContain('container');
    expect(await imageExists(INST_STALE)).toBe(true);
  } finally {
    await docker(['rm', '-f', c.out.trim()]);
  }
}, 120_000);
