import { afterAll, expect, test } from 'bun:test';
import { ensurePostgres } from './postgres.ts';
import { run } from './proc.ts';
import { ensureRedis, type ServiceHandle } from './redis.ts';

const started: ServiceHandle[] = [];
afterAll(async () => {
  for (const s of started) await s.stop();
}, 30_000);

test('ensureRedis starts a server that answers PING and stores a key', async () => {
  const redis = await ensureRedis();
  started.push(redis);
  expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
  const set = await run(['redis-cli', '-p', String(redis.port), 'set', 'faun', 'ok']);
  expect(set.stdout.trim()).toBe('OK');
  const get = await run(['redis-cli', '-p', String(redis.port), 'get', 'faun']);
  expect(get.stdout.trim()).toBe('ok');
}, 60_000);

test('ensurePostgres starts a server that runs SQL', async () => {
  const pg = await ensurePostgres();
  started.push(pg);
  const r = await run(['psql', pg.url, '-tAc', 'select 40 + 2']);
  expect(r.stderr).toBe('');
  expect(r.stdout.trim()).toBe('42');
}, 90_000);

test('a port taken by another server before ours binds it: ours starts on another port and answers there', async () => {
  const first = await ensurePostgres();
  started.push(first);
  const second = await ensurePostgres(undefined, { port: first.port });
  started.push(second);
  expect(second.port).not.toBe(first.port);
  const dataDir = async (url: string) =>
    (await run(['psql', url, '-tAc', 'show data_directory'])).stdout.trim();
  const [a, b] = [await dataDir(first.url), await dataDir(second.url)];
  expect(a).toMatch(/faun-pg-/);
  expect(b).toMatch(/faun-pg-/);
  expect(b).not.toBe(a);
}, 90_000);

test('a Redis port taken by another server before ours binds it: ours starts on another port', async () => {
  const first = await ensureRedis();
  started.push(first);
  const second = await ensureRedis(undefined, { port: first.port });
  started.push(second);
  expect(second.port).not.toBe(first.port);
  await run(['redis-cli', '-p', String(first.port), 'set', 'which', 'first']);
  expect((await run(['redis-cli', '-p', String(second.port), 'get', 'which'])).stdout.trim()).toBe('');
}, 60_000);
