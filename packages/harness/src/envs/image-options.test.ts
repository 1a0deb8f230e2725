/** `faun verify`'s build-network and image-trust options through the CLI: usage errors exit 2, say what to do. */
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFaun } from '../../testing/cli.ts';

const root = mkdtempSync(join(tmpdir(), 'faun-imgopt-'));
writeFileSync(join(root, 'none.jsonl'), '');
afterAll(() => rmSync(root, { recursive: true, force: true }));

function verify(...args: string[]) {
  const none = join(root, 'none.jsonl');
  const r = runFaun(['verify', '--instances', none, '--predictions', 'gold', '--run-id', 'r', ...args], {
    FAUN_STATE_DIR: join(root, 'state'),
    NO_COLOR: '1',
  });
  return { code: r.code, err: r.stderr + r.stdout };
}

test('--build-network takes none, registries or host; the old auto is refused', () => {
  const r = verify('--build-network', 'auto');
  expect(r.code).toBe(2);
  expect(r.err).toContain('--build-network');
  expect(r.err).toMatch(/none.*registries.*host/);
});

test('--image-allow needs --trust-rows; --update-image-lock needs --image-lock', () => {
  const a = verify('--image-allow', 'myorg/');
  expect(a.code).toBe(2);
  expect(a.err).toContain('--image-allow applies to rows trusted with --trust-rows');
  const b = verify('--update-image-lock');
  expect(b.code).toBe(2);
  expect(b.err).toContain('--update-image-lock needs --image-lock FILE');
});

test('a lock file that is not JSON is an input error naming the file', () => {
  const lock = join(root, 'bad.lock');
  writeFileSync(lock, '{');
  const r = verify('--trust-rows', '--image-lock', lock);
  expect(r.err).toContain(`${lock}: not JSON`);
  expect(r.code).not.toBe(0);
});
