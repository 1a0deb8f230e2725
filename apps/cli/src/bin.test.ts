/**
 * The `faun` executable: `bun link` from the checkout puts it on PATH (here into a temporary
 * BUN_INSTALL), and it works from a folder outside the checkout with paths relative to that folder.
 */
import { afterAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@faun/kit';

const root = mkdtempSync(join(tmpdir(), 'faun-bin-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('after `bun link`, `faun score-pairs --input pairs.jsonl` reads ./pairs.jsonl from any folder', () => {
  const install = join(root, 'bun-home');
  const link = Bun.spawnSync(['bun', 'link'], {
    cwd: REPO_ROOT,
    env: { ...process.env, BUN_INSTALL: install },
  });
  expect(link.exitCode).toBe(0);
  const bin = join(install, 'bin');
  expect(existsSync(join(bin, 'faun'))).toBe(true);
  const work = join(root, 'elsewhere');
  Bun.spawnSync(['mkdir', '-p', work]);
  expect(realpathSync(work).startsWith(realpathSync(REPO_ROOT))).toBe(false);
  writeFileSync(join(work, 'pairs.jsonl'), `${JSON.stringify({ hyp: 'a b c d', ref: 'a b c d' })}\n`);
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, CI: '1' };
  const r = Bun.spawnSync(['faun', 'score-pairs', '--metric', 'bleu', '--input', 'pairs.jsonl'], {
    cwd: work,
    env,
  });
  expect(r.stderr.toString()).not.toContain('no such file');
  expect(r.exitCode).toBe(0);
  expect(JSON.parse(r.stdout.toString().trim())).toEqual({ hyp: 'a b c d', ref: 'a b c d', nltk_m1: 1 });
  // the run record goes to ./logs of that folder, too
  expect(readdirSync(join(work, 'logs')).some((d) => d.includes('score-pairs'))).toBe(true);
  const v = Bun.spawnSync(['faun', '--version'], { cwd: work, env });
  expect(v.stdout.toString().trim()).toMatch(/^\d+\.\d+\.\d+/);
}, 60_000);
