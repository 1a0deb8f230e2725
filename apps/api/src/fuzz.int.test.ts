/**
 * Seeded fuzzing over real HTTP: thousands of random and mutated bodies, headers, paths and methods.
 * The server must answer every one without a 5xx and stay up.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mulberry32 } from '@faun/metrics';
import { flItems, flPredictions, qaItems, startTestServer, type TestServer } from './testkit.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ db: 'memory://' });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const STRINGS = [
  '',
  'a',
  'fl',
  'qa',
  'ce',
  'exec',
  '\u0000',
  '😀',
  'x'.repeat(300),
  '../etc',
  '%00',
  '{"a":1}',
  'null',
];
const FIELDS = [
  'items',
  'predictions',
  'dataset',
  'model',
  'id',
  'task',
  'output',
  'v',
  'bootstrap',
  'seed',
  'x',
];
const POSTS = ['/v1/score/fl', '/v1/score/qa', '/v1/score/ce', '/v1/runs', '/v1/runs'];
const GETS = [
  '/v1/runs/run-x',
  '/v1/runs/run-x/samples?status=bogus&page=-1',
  '/v1/runs?page=abc&per_page=100000',
  '/v1/runs?page=2&per_page=3',
  '/v1/datasets/fl-small/stats',
  '/v1/datasets/%2e%2e/stats',
  '/v1/leaderboard?task=nope',
  '/v1/leaderboard?task=fl',
  '/runs/%3Cscript%3E',
  '/leaderboard?dataset=%00',
  '/datasets/nope',
  '/v1/score/zz',
  '/nope',
];

/** Seeded random requests: bodies valid, mutated, random or cut short, odd headers, paths and methods. */
function fuzzer(r: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const randValue = (depth: number): unknown => {
    const k = r();
    if (depth > 3 || k < 0.2)
      return pick([null, true, false, 0, -1, 1e308, Number.MAX_SAFE_INTEGER + 2, 0.5]);
    if (k < 0.45) return pick(STRINGS);
    if (k < 0.7) return Array.from({ length: Math.floor(r() * 4) }, () => randValue(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = 0; i < Math.floor(r() * 5); i++) o[pick(FIELDS)] = randValue(depth + 1);
    return o;
  };
  const valid = () => {
    const items = pick([flItems(3), qaItems(2)]) as Record<string, unknown>[];
    const preds =
      items[0]!.task === 'fl' ? flPredictions(items as ReturnType<typeof flItems>, () => r() < 0.5) : [];
    return { items, predictions: preds } as Record<string, unknown>;
  };
  const mutate = (v: unknown, depth = 0): unknown => {
    if (depth > 4 || v === null || typeof v !== 'object') return r() < 0.3 ? randValue(2) : v;
    if (Array.isArray(v)) return r() < 0.2 ? [] : v.map((x) => (r() < 0.3 ? mutate(x, depth + 1) : x));
    const o = { ...(v as Record<string, unknown>) };
    const keys = Object.keys(o);
    const key = keys.length ? pick(keys) : 'x';
    const op = r();
    if (op < 0.3) delete o[key];
    else if (op < 0.7) o[key] = mutate(o[key], depth + 1);
    else o[key] = randValue(1);
    return o;
  };
  /** One request, with `key` as the usual bearer token. */
  const request = (key: string) => {
    const write = r() < 0.7;
    const path = write ? pick(POSTS) : pick(GETS);
    const method = r() < 0.9 ? (write ? 'POST' : 'GET') : pick(['DELETE', 'PUT', 'PATCH', 'GET', 'POST']);
    const kind = r();
    let body: string | undefined;
    if (method !== 'GET') {
      if (kind < 0.35) body = JSON.stringify(mutate(valid()));
      else if (kind < 0.6) body = JSON.stringify(randValue(0));
      else if (kind < 0.75) body = JSON.stringify(valid()).slice(0, Math.floor(r() * 200));
      else if (kind < 0.85)
        body = JSON.stringify({
          dataset: pick(['fl-small', 'qa-small', 'nope']),
          predictions: mutate(flPredictions(flItems(3), () => true)),
        });
      else
        body = Array.from({ length: Math.floor(r() * 50) }, () =>
          String.fromCharCode(Math.floor(r() * 256)),
        ).join('');
    }
    const headers: Record<string, string> = {};
    const auth = r();
    if (auth < 0.8) headers.authorization = `Bearer ${key}`;
    else if (auth < 0.9)
      headers.authorization = pick(['Bearer', 'Bearer faun_', `Bearer ${key}x`, 'Basic Zm9v', '']);
    const ct = r();
    if (ct < 0.8) headers['content-type'] = 'application/json';
    else if (ct < 0.9)
      headers['content-type'] = pick([
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
      ]);
    if (r() < 0.1) headers['x-request-id'] = pick(['abc', '<x>', 'z'.repeat(500)]);
    return { method, path, headers, body };
  };
  return { request };
}

test('a few thousand random and malformed requests never produce a 5xx', async () => {
  const f = fuzzer(mulberry32(20240601));
  const key = await s.newKey({ name: 'fuzz', runsPerDay: 100_000, itemsPerDay: 10_000_000 });
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  const TOTAL = 2500;
  for (let i = 0; i < TOTAL; i++) {
    const { method, path, headers, body } = f.request(key);
    const res = await fetch(`${s.url}${path}`, { method, headers, body: body ?? null });
    await res.arrayBuffer();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    if (res.status >= 500) failures.push(`${method} ${path} ${res.status} ${body?.slice(0, 200)}`);
  }
  console.log(
    `fuzz statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`,
  );
  expect(failures).toEqual([]);
  expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(TOTAL);
  // a mix of outcomes was exercised, not just one rejection path
  for (const code of [200, 202, 400, 401, 404]) expect(statuses.get(code) ?? 0).toBeGreaterThan(0);
  const health = await fetch(`${s.url}/healthz`);
  expect(health.status).toBe(200);
}, 120_000);
