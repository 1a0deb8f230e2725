/**
 * End-to-end `faun predict` against a scripted OpenAI-compatible server on loopback: retries on
 * 429/500/timeouts, the on-disk cache, per-item errors, and resume after the process is killed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@faun/kit';
import { type FlItem, writeJsonlAtomic } from '@faun/schema';
import { testFlItem } from '@faun/schema/testing';
import { type FakeReply, type FakeServer, startFakeOpenAi } from '../../testing/fake-openai.ts';

const dir = mkdtempSync(join(tmpdir(), 'faun-predict-'));
const gold = (i: number) => `src/pkg/module_${i}.py`;

function items(n: number): FlItem[] {
  return Array.from({ length: n }, (_, i) =>
    testFlItem(i, {
      issue_title: `[[item-${i}]] crash in module ${i}`,
      issue_body: 'It breaks.',
      tree: Array.from({ length: n }, (_, k) => gold(k)),
      gold_path: gold(i),
    }),
  );
}

const readPreds = (p: string) =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; output: string; error: string | null; usage: unknown });

function cli(args: string[], cacheDir: string) {
  return Bun.spawn(['bun', join(REPO_ROOT, 'apps/cli/src/main.ts'), 'predict', ...args], {
    cwd: dir,
    env: { ...process.env, FAUN_CACHE_DIR: cacheDir, CI: '1', FAUN_CONFIG: '' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
}

async function run(args: string[], cacheDir: string) {
  const p = cli(args, cacheDir);
  const [code, out, err] = await Promise.all([
    p.exited,
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
  ]);
  return { code, out, err };
}

let server: FakeServer;
let script: (key: string, attempt: number) => FakeReply;
const answer = (key: string): FakeReply => ({ kind: 'ok', text: gold(Number(key.split('-')[1])) });

beforeAll(async () => {
  await writeJsonlAtomic(join(dir, 'fl6.jsonl'), items(6));
  await writeJsonlAtomic(join(dir, 'fl8.jsonl'), items(8));
  server = startFakeOpenAi((k, a) => script(k, a));
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const common = (dataset: string, out: string) => [
  '--task',
  'fl',
  '--dataset',
  join(dir, dataset),
  '--model',
  'openai:fake-model',
  '--base-url',
  server.url,
  '--out',
  join(dir, out),
  '--log-dir',
  join(dir, 'logs'),
  '--retry-base-ms',
  '50',
];

describe('faun predict against a fake OpenAI-compatible server', () => {
  test('retries 429 (honouring retry-after), 500 and timeouts; then a second run is served from cache', async () => {
    script = (key, attempt) => {
      if (attempt === 0 && key === 'item-1') return { kind: 'error', status: 429, retryAfter: '1' };
      if (attempt === 0 && key === 'item-2') return { kind: 'error', status: 500 };
      if (attempt === 0 && key === 'item-3') return { kind: 'hang', ms: 2500 };
      return answer(key);
    };
    const cache = join(dir, 'cache-a');
    const before = server.log.length;
    const r = await run(
      [...common('fl6.jsonl', 'a.jsonl'), '--timeout', '1', '--max-retries', '3', '-j', '2'],
      cache,
    );
    expect(r.code).toBe(0);
    const reqs = server.log.slice(before);
    expect(reqs.length).toBe(9); // 6 items + one retry each for items 1, 2, 3
    const item1 = reqs.filter((q) => q.key === 'item-1');
    expect(item1.length).toBe(2);
    expect(item1[1]!.at - item1[0]!.at).toBeGreaterThanOrEqual(950);
    expect(reqs[0]!.body.model).toBe('fake-model');
    expect(reqs[0]!.body.temperature).toBe(0.2); // the FAUN-Eval default
    const preds = readPreds(join(dir, 'a.jsonl'));
    expect(preds.map((p) => p.id)).toEqual(items(6).map((i) => i.id));
    expect(preds.map((p) => p.output)).toEqual(items(6).map((i) => i.gold_path));
    expect(preds.every((p) => p.error === null && p.usage !== null)).toBe(true);
    // The fake server reports 100 prompt + 10 completion tokens per answer; failed attempts report none.
    expect(r.out).toContain('tokens: 600 prompt + 60 completion');
    expect(r.out).toContain('6 generated, 0 resumed, 0 errors');

    const again = server.log.length;
    const r2 = await run([...common('fl6.jsonl', 'a2.jsonl'), '--timeout', '1'], cache);
    expect(r2.code).toBe(0);
    expect(server.log.length - again).toBe(0);
    expect(readPreds(join(dir, 'a2.jsonl')).map((p) => p.output)).toEqual(items(6).map((i) => i.gold_path));
    expect(r2.out).toContain('6 from cache');
  }, 60_000);

  test('--max-retries 0 sends each item once, records the error, and a re-run retries only that item', async () => {
    script = (key, attempt) =>
      key === 'item-2' && attempt === 0 ? { kind: 'error', status: 500 } : answer(key);
    const cache = join(dir, 'cache-b');
    // Fresh attempt counters for this scenario: use a fresh server.
    await server.stop();
    server = startFakeOpenAi((k, a) => script(k, a));
    const r = await run([...common('fl6.jsonl', 'b.jsonl'), '--max-retries', '0'], cache);
    expect(r.code).toBe(1);
    expect(server.log.length).toBe(6);
    const preds = readPreds(join(dir, 'b.jsonl'));
    expect(preds.length).toBe(6);
    const failed = preds.find((p) => p.id === 'o/r#2')!;
    expect(failed.error).toContain('HTTP 500');
    expect(failed.output).toBe('');
    const r2 = await run([...common('fl6.jsonl', 'b.jsonl'), '--max-retries', '0'], cache);
    expect(r2.code).toBe(0);
    expect(server.log.slice(6).map((q) => q.key)).toEqual(['item-2']);
    expect(readPreds(join(dir, 'b.jsonl')).every((p) => p.error === null)).toBe(true);
  }, 60_000);
});

/**
 * A fresh server answering every item after `delayMs`, and `faun predict` started on it in the background
 * (one at a time, no cache) writing `<name>.jsonl`, its cache in `cache-<name>`.
 */
async function slowPredict(name: string, delayMs: number) {
  await server.stop();
  server = startFakeOpenAi((k, a) => script(k, a));
  script = (key) => ({ ...(answer(key) as { kind: 'ok'; text: string }), delayMs });
  const out = join(dir, `${name}.jsonl`);
  const args = [...common('fl8.jsonl', `${name}.jsonl`), '-j', '1', '--no-cache'];
  return { out, args, child: cli(args, join(dir, `cache-${name}`)) };
}

describe('faun predict resumes after a kill', () => {
  test('a run killed midway resumes without resending finished items', async () => {
    const { out, args, child } = await slowPredict('c', 250);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (existsSync(out) && readPreds(out).length >= 3) break;
      await Bun.sleep(20);
    }
    child.kill('SIGKILL');
    await child.exited;
    const finished = new Set(
      readPreds(out)
        .filter((p) => p.error === null)
        .map((p) => p.id),
    );
    expect(finished.size).toBeGreaterThanOrEqual(3);
    expect(finished.size).toBeLessThan(8);
    const firstRun = server.log.length;
    const r = await run(args, join(dir, 'cache-c'));
    expect(r.code).toBe(0);
    const resent = server.log.slice(firstRun).map((q) => `o/r#${q.key.split('-')[1]}`);
    expect(resent.filter((id) => finished.has(id))).toEqual([]);
    expect(new Set(resent).size).toBe(resent.length);
    expect([...finished, ...resent].sort()).toEqual(
      items(8)
        .map((i) => i.id)
        .sort(),
    );
    const preds = readPreds(out);
    expect(preds.map((p) => p.id)).toEqual(items(8).map((i) => i.id));
    expect(preds.map((p) => p.output)).toEqual(items(8).map((i) => i.gold_path));
  }, 60_000);

  test('the first Ctrl+C stops cleanly, saves finished items and prints the resume command', async () => {
    const { out, args, child } = await slowPredict('d', 200);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && !(existsSync(out) && readPreds(out).length >= 2)) await Bun.sleep(20);
    child.kill('SIGINT');
    const [code, stdout, stderr] = await Promise.all([
      child.exited,
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
    ]);
    expect(code).toBe(130);
    // Started as `bun …/apps/cli/src/main.ts` outside the workspace: the resume command says so.
    expect(stderr).toContain(`resume with: bun ${join(REPO_ROOT, 'apps/cli/src/main.ts')} predict --task fl`);
    expect(stdout).toContain('items not run; resume with:');
    const saved = readPreds(out);
    // Everything that was sent (including the call in flight at Ctrl+C) finished and was saved.
    expect(saved.length).toBe(server.log.length);
    expect(saved.map((p) => p.id)).toEqual(
      items(8)
        .slice(0, saved.length)
        .map((i) => i.id),
    );
    const r = await run(args, join(dir, 'cache-d'));
    expect(r.code).toBe(0);
    expect(server.log.length).toBe(8);
    expect(readPreds(out).map((p) => p.output)).toEqual(items(8).map((i) => i.gold_path));
  }, 60_000);
});
