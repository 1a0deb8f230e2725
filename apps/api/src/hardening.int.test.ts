/**
 * Hardening: security headers on every response, failed authentications rate-limited per address,
 * page numbers validated (400, not 500), JSON envelopes for malformed bodies, database files private.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './db/open.ts';
import { createKey } from './service/keys.ts';
import { startTestServer, type TestServer } from './testkit.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ serve: { config: { authFailuresPerMin: 5 } } });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

test('every response carries the security headers: pages, API, errors', async () => {
  const answers = await Promise.all([
    s.req('/leaderboard', { token: null }),
    s.req('/runs', { token: null }),
    s.req('/docs', { token: null }),
    s.req('/v1/datasets', { token: null }),
    s.req('/no/such/page', { token: null }),
    s.req('/v1/runs', { method: 'POST', token: null }),
  ]);
  expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 404, 401]);
  for (const r of answers) {
    const csp = r.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'unsafe-inline'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
  }
});

test('page numbers are small whole numbers: 1e308, -1, 1.5 and words are 400s with the envelope', async () => {
  for (const path of ['/runs?page=1e308', '/v1/runs?page=1e308', '/v1/runs?per_page=1.5', '/runs?page=abc']) {
    const r = await s.req(path, { token: null });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
  }
  expect((await s.req('/v1/runs?page=2&per_page=10', { token: null })).status).toBe(200);
});

test('malformed and truncated JSON bodies are 400s with the envelope', async () => {
  for (const body of ['{"dataset": ', '[', 'nope', '{"a":"\\u12"}']) {
    const r = await s.req('/v1/runs', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
  }
});

test('failed authentications from one address are rate-limited', async () => {
  const codes: number[] = [];
  for (let i = 0; i < 12; i++) {
    const r = await s.req('/v1/datasets', { token: `faun_000000000000_${'A'.repeat(20 + i)}` });
    codes.push(r.status);
  }
  expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
  expect(codes.slice(6)).toEqual([429, 429, 429, 429, 429, 429]);
  const r = await s.req('/v1/datasets', { token: 'faun_000000000000_AAAAAAAAAAAAAAAAAAAA' });
  expect(r.status).toBe(429);
  expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  // a valid key from the same address is not locked out by someone else's guessing
  expect((await s.req('/v1/datasets')).status).toBe(200);
});

test('database files are created private: folders 0700, files 0600', async () => {
  const root = mkdtempSync(join(tmpdir(), 'faun-api-modes-'));
  try {
    const dir = join(root, 'db');
    const d = await openDatabase(dir);
    await createKey(d.db, { name: 'x' });
    await d.close();
    const bad: string[] = [];
    const walk = (p: string) => {
      const st = statSync(p);
      const mode = st.mode & 0o777;
      if (st.isDirectory()) {
        if (mode !== 0o700) bad.push(`${p} ${mode.toString(8)}`);
        for (const e of readdirSync(p)) walk(join(p, e));
      } else if (mode & 0o077) bad.push(`${p} ${mode.toString(8)}`);
    };
    walk(dir);
    expect(bad).toEqual([]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}, 60_000);
