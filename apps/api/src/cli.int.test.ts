/**
 * The CLI side: `faun score` and `POST /v1/score/fl` give the same numbers for the same inputs, and
 * `faun serve keys create|list|revoke` manage keys the server accepts and rejects.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { flItems, flPredictions, qaItems, startTestServer, type TestServer } from './testkit.ts';

const CLI = resolve(import.meta.dir, '../../cli/src/main.ts');
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'faun-api-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function faun(args: string[]) {
  const p = Bun.spawnSync(['bun', CLI, ...args], {
    cwd: dir,
    stderr: 'pipe',
    env: { ...process.env, FAUN_NO_SHARED: '1' },
  });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;

test('POST /v1/score/{fl,qa} returns what `faun score` prints for the same inputs', async () => {
  const s = await startTestServer({ db: 'memory://' });
  try {
    const fl = flItems(9);
    const qa = qaItems(4);
    const cases = [
      { task: 'fl', items: fl, preds: flPredictions(fl, (i) => i % 3 !== 1) },
      {
        task: 'qa',
        items: qa,
        preds: qa.map((it, i) => ({
          v: 1,
          id: it.id,
          task: 'qa',
          model: 'm',
          output: i % 2 ? it.answer : 'Restart the service.',
        })),
      },
    ];
    for (const c of cases) {
      writeFileSync(join(dir, `${c.task}.jsonl`), jsonl(c.items));
      writeFileSync(join(dir, `${c.task}-preds.jsonl`), jsonl(c.preds));
      const out = join(dir, `${c.task}-scores.jsonl`);
      const r = faun([
        'score',
        '--task',
        c.task,
        '--dataset',
        `${c.task}.jsonl`,
        '--predictions',
        `${c.task}-preds.jsonl`,
        '--seed',
        '7',
        '--out',
        out,
        '--json',
        '--log-dir',
        join(dir, 'logs'),
      ]);
      expect(r.stderr.includes('unexpected error')).toBe(false);
      expect(r.code).toBe(0);
      const cli = JSON.parse(r.stdout) as { aggregate: unknown; n_items: number; missing: unknown };
      const cliItems = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown);
      const res = await s.req(`/v1/score/${c.task}`, {
        method: 'POST',
        json: { items: c.items, predictions: c.preds, seed: 7 },
      });
      expect(res.status).toBe(200);
      const api = (await res.json()) as {
        aggregate: unknown;
        items: unknown[];
        n_items: number;
        missing: unknown;
      };
      expect(api.aggregate).toEqual(cli.aggregate);
      expect(api.n_items).toBe(cli.n_items);
      expect(api.missing).toEqual(cli.missing);
      expect(api.items).toEqual(cliItems);
    }
  } finally {
    await s.close();
  }
}, 60_000);

test('faun serve keys create / list / revoke', async () => {
  const db = join(dir, 'keys-db');
  const made = faun([
    'serve',
    'keys',
    'create',
    '--database',
    db,
    '--name',
    'ci',
    '--runs-per-day',
    '3',
    '--json',
  ]);
  expect(made.code).toBe(0);
  const { id, token } = JSON.parse(made.stdout) as { id: string; token: string };
  expect(token.startsWith(`faun_${id}_`)).toBe(true);
  const bad = faun(['serve', 'keys', 'create', '--database', db, '--name', 'x', '--items-per-day', '1e12']);
  expect(bad.code).toBe(2);
  const listed = faun(['serve', 'keys', 'list', '--database', db, '--json']);
  const list = JSON.parse(listed.stdout) as { id: string; name: string; runsPerDay: number; hash?: string }[];
  expect(list.map((k) => [k.id, k.name, k.runsPerDay])).toEqual([[id, 'ci', 3]]);
  expect(listed.stdout).not.toContain(token.slice(`faun_${id}_`.length));
  expect(list[0]!.hash).toBeUndefined();
  // the server accepts the key, then rejects it once revoked
  const check = async () => {
    const s: TestServer = await startTestServer({ db });
    try {
      return (
        await s.req('/v1/score/fl', { method: 'POST', json: { items: flItems(1), predictions: [] }, token })
      ).status;
    } finally {
      await s.close();
    }
  };
  expect(await check()).toBe(200);
  expect(faun(['serve', 'keys', 'revoke', id, '--database', db]).code).toBe(0);
  expect(faun(['serve', 'keys', 'revoke', 'nope', '--database', db]).code).toBe(2);
  expect(await check()).toBe(401);
}, 180_000);
