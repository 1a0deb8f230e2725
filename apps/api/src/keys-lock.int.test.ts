/**
 * One process per PGlite folder: `faun serve keys …` beside a running server go through the server (the
 * token works at once and survives the server's restart), a folder held by another process is refused
 * with its PID, and `--db` / `--database` naming a DuckDB file is a usage error instead of a crash.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { outputOf } from '@faun/kit';
import { acquireLock } from './db/lock.ts';
import { openDatabase } from './db/open.ts';
import { startServer } from './server.ts';
import { listKeys } from './service/keys.ts';

const CLI = resolve(import.meta.dir, '../../cli/src/main.ts');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'faun-api-lock-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function faun(args: string[]) {
  const p = Bun.spawn(['bun', CLI, ...args], {
    cwd: dir,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, FAUN_NO_SHARED: '1', DATABASE_URL: '' },
  });
  return outputOf(p);
}

test('keys create/list/revoke while the server holds the PGlite folder go through the server', async () => {
  const db = join(dir, 'served-db');
  const h = await startServer({ port: 0, db, datasetsDir: null, redisUrl: null, log: () => {} });
  let id = '';
  try {
    const made = await faun(['serve', 'keys', 'create', '--database', db, '--name', 'live', '--json']);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    const key = JSON.parse(made.stdout) as { id: string; token: string };
    id = key.id;
    const score = () =>
      fetch(`${h.url}/v1/score/fl`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ items: [], predictions: [] }),
      });
    expect((await score()).status).not.toBe(401);
    const listed = await faun(['serve', 'keys', 'list', '--database', db, '--json']);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((k) => k.name)).toEqual(['live']);
    expect((await faun(['serve', 'keys', 'revoke', id, '--database', db])).code).toBe(0);
    expect((await score()).status).toBe(401);
  } finally {
    await h.stop();
  }
  const d = await openDatabase(db);
  try {
    const keys = await listKeys(d.db);
    expect(keys.map((k) => [k.id, k.name, k.revokedAt !== null])).toEqual([[id, 'live', true]]);
  } finally {
    await d.close();
  }
}, 60_000);

test('keys create prints the token alone on stdout', async () => {
  const db = join(dir, 'token-db');
  const r = await faun(['serve', 'keys', 'create', '--database', db, '--name', 'script']);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^faun_[0-9a-f]{12}_[A-Za-z0-9_-]+\n$/);
  expect(r.stderr).toContain('shown only once');
}, 60_000);

test('a folder held by another process is refused, naming its PID', async () => {
  const db = join(dir, 'held-db');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(db);
  const lock = acquireLock(db, 'crawl');
  try {
    const r = await faun(['serve', 'keys', 'create', '--database', db, '--name', 'x']);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('faun_');
    expect(r.stderr).toContain(`PID ${process.pid}`);
    expect(() => acquireLock(db, 'serve')).toThrow(`PID ${process.pid}`);
  } finally {
    lock.release();
  }
}, 30_000);

test('a DuckDB file given as the API database is a usage error that names --store', async () => {
  const store = join(dir, 'faun.duckdb');
  writeFileSync(store, 'not really duckdb');
  for (const flag of ['--db', '--database']) {
    const r = await faun(['serve', flag, store, '--port', '0', '--datasets', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--store');
    expect(r.stderr).not.toContain('EEXIST');
  }
}, 30_000);
