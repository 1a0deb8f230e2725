/**
 * A row's own image through `verifyRun` on Docker: a locally built image tagged into an allowed namespace
 * runs only with `trustRows`, its content id is in the result's contract and pinned in the lock file, the
 * same tag moved to other content is refused, an image from another namespace is bad input, and without
 * `trustRows` the row's image is ignored (faun builds its own environment).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionInstance } from '@faun/schema';
import { buildPolicy, ensureDocker, ensureToolchainImage } from '@faun/services';
import { type Fixture, makeFixture } from '../../testing/fixtures.ts';
import { DockerBackend } from '../sandbox/docker.ts';
import { verifyRun } from '../verify.ts';
import { buildIn, docker } from './docker-images.ts';
import { ImageLockState } from './image-trust.ts';

let root = '';
let fx: Fixture;
const IMAGE = `swebench/faun-trust-test-${process.pid}:latest`;
let firstId = '';

async function buildTrial(marker: string): Promise<string> {
  const tc = await ensureToolchainImage('python');
  const df = [`FROM ${tc}`, 'COPY testbed /testbed', 'WORKDIR /testbed', `LABEL org.faun.test=${marker}`, ''];
  await buildIn(
    IMAGE,
    df.join('\n'),
    buildPolicy('none'),
    () => {},
    async (ctx) => {
      const r = Bun.spawnSync(['git', 'clone', '-q', fx.dir, join(ctx, 'testbed')]);
      if (r.exitCode !== 0) throw new Error(r.stderr.toString());
      Bun.spawnSync(['git', '-C', join(ctx, 'testbed'), 'checkout', '-q', fx.instance.base_commit]);
    },
  );
  return (await docker(['image', 'inspect', '--format', '{{.Id}}', IMAGE])).out.trim();
}

beforeAll(async () => {
  await ensureDocker();
  root = mkdtempSync(join(tmpdir(), 'faun-trusted-'));
  fx = makeFixture('python', root);
  firstId = await buildTrial('one');
}, 600_000);

afterAll(async () => {
  await docker(['rmi', '-f', IMAGE]);
  rmSync(root, { recursive: true, force: true });
}, 120_000);

const lockFile = () => join(root, 'images.lock.json');

async function run(name: string, trustRows: boolean, rows: ExecutionInstance[], update: boolean) {
  const out = await verifyRun({
    instances: rows,
    predictions: rows.map((i) => ({ instance_id: i.instance_id, model: 'gold', patch: fx.patches.gold })),
    runId: name,
    dir: join(root, name),
    backend: new DockerBackend(name),
    repoDirs: { [fx.repo]: fx.dir },
    timeoutS: 300,
    reruns: 0,
    trustRows,
    imageLock: ImageLockState.open(lockFile(), update),
  });
  return Object.fromEntries(out.results.map((r) => [r.instance_id, r]));
}

test('trusted: runs in the row image, pinned by id; a moved tag is refused; another namespace is bad input', async () => {
  const mine = { ...fx.instance, image: IMAGE };
  const other = { ...fx.instance, instance_id: 'fixtures__other-1', image: 'evilns/faun:latest' };
  const first = await run('trusted-1', true, [mine, other], true);
  const r = first[mine.instance_id];
  expect(r?.outcome).toBe('resolved');
  expect(r?.contract?.image).toBe(IMAGE);
  expect(r?.contract?.image_digest).toBe(firstId);
  expect(JSON.parse(readFileSync(lockFile(), 'utf8'))).toEqual({
    [IMAGE]: { id: firstId, repo_digest: null },
  });
  expect(first['fixtures__other-1']?.outcome).toBe('bad_input');
  expect(first['fixtures__other-1']?.error).toContain(
    "row field image: 'evilns/faun:latest' is not in an allowed namespace",
  );

  const movedId = await buildTrial('two'); // the same tag, other content
  expect(movedId).not.toBe(firstId);
  const second = await run('trusted-2', true, [mine], true);
  expect(second[mine.instance_id]?.outcome).toBe('infra_error');
  expect(second[mine.instance_id]?.error).toContain(
    `image ${IMAGE} moved: the lock pins ${firstId}, the local image is ${movedId}`,
  );
}, 900_000);

test('untrusted: the row image is not used, faun builds the environment', async () => {
  const mine = { ...fx.instance, image: IMAGE };
  const out = await run('untrusted', false, [mine], false);
  const r = out[mine.instance_id];
  expect(r?.outcome).toBe('resolved');
  expect(r?.contract?.image).toStartWith('faun/inst-');
}, 900_000);
