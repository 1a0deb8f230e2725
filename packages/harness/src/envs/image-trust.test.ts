import { afterAll, beforeAll, expect, test } from 'bun:test';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '@faun/kit';
import type { ExecutionInstance } from '@faun/schema';
import { type Fixture, tempPythonFixture } from '../../testing/fixtures.ts';
import type { Backend, PreparedEnv } from '../sandbox/sandbox.ts';
import { verifyRun } from '../verify.ts';
import {
  checkImageLock,
  type ImageLock,
  ImageLockState,
  type LockEntry,
  readImageLock,
  rowImageProblem,
  trustedRow,
} from './image-trust.ts';

const A = `sha256:${'a'.repeat(64)}`;
const B = `sha256:${'b'.repeat(64)}`;
const entry = (id: string): LockEntry => ({ id, repo_digest: null });

let root = '';
let fx: Fixture;
beforeAll(() => {
  ({ root, fx } = tempPythonFixture('faun-trust-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

test("a row's image: allowed namespaces only (Docker Hub's prefixes are the same namespace)", () => {
  const allow = ['swebench/', 'mswebench/'];
  expect(rowImageProblem('swebench/sweb.eval.x86_64.a_1776_b-1:latest', allow)).toBeNull();
  expect(rowImageProblem('docker.io/swebench/x:1', allow)).toBeNull();
  expect(rowImageProblem('mswebench/org_m_repo:pr-1', allow)).toBeNull();
  expect(rowImageProblem('swebench-evil/x:1', allow)).toMatch(/not in an allowed namespace/);
  expect(rowImageProblem('evil.example/swebench/x:1', allow)).toMatch(/not in an allowed namespace/);
  expect(rowImageProblem('ubuntu:22.04', allow)).toMatch(/add one with --image-allow PREFIX/);
  expect(rowImageProblem('swebench/x:1 --privileged', allow)).toMatch(/not an image reference/);
});

test('trustedRow: ignored without trust, kept when allowed, a problem otherwise', () => {
  const row: { instance_id: string; image: string | null } = { instance_id: 'x', image: 'evil.example/x:1' };
  expect(trustedRow(row, false)).toEqual({ row: { instance_id: 'x', image: null } });
  expect(trustedRow(row, true)).toEqual({
    problem:
      "row field image: 'evil.example/x:1' is not in an allowed namespace (swebench/, mswebench/); add one with --image-allow PREFIX",
  });
  expect(trustedRow(row, true, ['evil.example/'])).toEqual({ row });
  expect(trustedRow({ image: null }, false)).toEqual({ row: { image: null } });
});

test('the lock: same id passes, a moved tag is refused even when updating, a new image only when updating', () => {
  const lock: ImageLock = { 'swebench/x:1': entry(A) };
  expect(checkImageLock(lock, 'swebench/x:1', entry(A), false)).toEqual({ ok: true, added: false });
  const moved = checkImageLock(lock, 'swebench/x:1', entry(B), true);
  expect(moved.ok).toBe(false);
  expect(!moved.ok && moved.error).toContain(
    `image swebench/x:1 moved: the lock pins ${A}, the local image is ${B}`,
  );
  const missing = checkImageLock(lock, 'swebench/y:1', entry(B), false);
  expect(!missing.ok && missing.error).toContain('not in the image lock; pin it with --update-image-lock');
  expect(checkImageLock(lock, 'swebench/y:1', entry(B), true)).toEqual({ ok: true, added: true });
  expect(lock['swebench/y:1']).toEqual(entry(B));
});

test('lock file: read, written back sorted when entries were added, bad files named with the key', async () => {
  const file = join(root, 'images.lock.json');
  const st = ImageLockState.open(file, true); // missing file = empty lock
  expect(st.check('swebench/z:1', { id: B, repo_digest: 'swebench/z@sha256:1' })).toBeNull();
  expect(st.check('swebench/a:1', entry(A))).toBeNull();
  expect(await st.save()).toBe(true);
  expect(await st.save()).toBe(false);
  expect(readFileSync(file, 'utf8')).toBe(
    `{\n  "swebench/a:1": {\n    "id": "${A}",\n    "repo_digest": null\n  },\n  "swebench/z:1": {\n    "id": "${B}",\n    "repo_digest": "swebench/z@sha256:1"\n  }\n}\n`,
  );
  expect(readImageLock(file)['swebench/a:1']).toEqual(entry(A));
  writeFileSync(file, '{"swebench/a:1": {"id": "sha256:short"}}');
  expect(() => readImageLock(file)).toThrow(InputError);
  expect(() => readImageLock(file)).toThrow(`${file}: "swebench/a:1".id must be sha256:<64 hex>`);
  writeFileSync(file, '[');
  expect(() => readImageLock(file)).toThrow(/not JSON/);
});

/** A stand-in for the docker backend: images are names with fixed ids; nothing ever starts. */
function fakeBackend(ids: Record<string, string>, prepared: string[]): Backend {
  return {
    name: 'docker',
    envHash: (inst) => `h-${inst.image ?? 'built'}`,
    async prepare(inst): Promise<PreparedEnv> {
      prepared.push(inst.image ?? 'built');
      if (!inst.image) throw new Error('built environment: not in this test');
      return { ref: inst.image, hash: `h-${inst.image}` };
    },
    async imageEntry(ref) {
      return ids[ref] ? entry(ids[ref]) : null;
    },
    async start() {
      throw new Error('the sandbox must not start in this test');
    },
  };
}

test('verify: untrusted row images are ignored, disallowed ones are bad input, a moved image is refused', async () => {
  const row = (id: string, image: string | null): ExecutionInstance => ({
    ...fx.instance,
    instance_id: id,
    image,
  });
  const instances = [
    row('evil', 'evil.example/x:1'),
    row('moved', 'swebench/x:1'),
    row('ok', 'swebench/y:1'),
  ];
  const predictions = instances.map((i) => ({
    instance_id: i.instance_id,
    model: 'm',
    patch: fx.patches.gold,
  }));
  const lockFile = join(root, 'lock.json');
  writeFileSync(lockFile, JSON.stringify({ 'swebench/x:1': entry(A), 'swebench/y:1': entry(B) }));
  const run = async (name: string, trustRows: boolean) => {
    const prepared: string[] = [];
    const out = await verifyRun({
      instances,
      predictions,
      runId: name,
      dir: join(root, name),
      backend: fakeBackend({ 'swebench/x:1': B, 'swebench/y:1': B }, prepared),
      repoDirs: { [fx.repo]: fx.dir },
      trustRows,
      imageLock: ImageLockState.open(lockFile, false),
      reruns: 0,
    });
    const by = Object.fromEntries(out.results.map((r) => [r.instance_id, `${r.outcome}: ${r.error}`]));
    return { by, prepared };
  };
  const trusted = await run('trusted', true);
  expect(trusted.by.evil).toBe(
    "bad_input: row field image: 'evil.example/x:1' is not in an allowed namespace (swebench/, mswebench/); add one with --image-allow PREFIX",
  );
  expect(trusted.by.moved).toStartWith(`infra_error: image swebench/x:1 moved: the lock pins ${A}`);
  // the locked image passes the lock and goes on to start a sandbox (which this stand-in refuses)
  expect(trusted.by.ok).toContain('the sandbox must not start in this test');
  expect(trusted.prepared.sort()).toEqual(['swebench/x:1', 'swebench/y:1', 'swebench/y:1']);
  // without trust no row's own image is even looked at: each goes to faun's own build
  const untrusted = await run('untrusted', false);
  expect(untrusted.prepared.filter((p) => p !== 'built')).toEqual([]);
  expect(Object.values(untrusted.by).every((v) => v.includes('built environment: not in this test'))).toBe(
    true,
  );
});
