/**
 * Scoring stays off the event loop: while 20 bootstrap-heavy scoring requests run, health checks answer
 * with a median under 25 ms and a bounded p95; the p99 (target 50 ms) is printed, not asserted.
 */
// alone: a latency bound; other suites' load on the machine would be measured with it
import { expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './db/open.ts';
import { createKey } from './service/keys.ts';
import { flItems, flPredictions } from './testkit.ts';

/** /healthz round trips every 10 ms while `busy()` is true (at least `min` of them). */
async function probe(url: string, busy: () => boolean, min = 0): Promise<number[]> {
  const out: number[] = [];
  while (busy() || out.length < min) {
    const t = performance.now();
    await (await fetch(`${url}/healthz`)).arrayBuffer();
    out.push(performance.now() - t);
    await Bun.sleep(10);
  }
  return out;
}

const p99 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.99))]!;

const CHILD = `
import { startServer } from ${JSON.stringify(join(import.meta.dir, 'server.ts'))};
const threads = process.argv[3] === undefined ? {} : { scoreThreads: Number(process.argv[3]) };
const h = await startServer({ port: 0, db: process.argv[2], datasetsDir: null, redisUrl: null, log: () => {}, config: threads });
process.stdout.write('URL ' + h.url + '\\n');
`;

test('/healthz median < 25 ms and p95 bounded while 20 bootstrap-heavy scoring requests run (p99 printed)', async () => {
  const root = mkdtempSync(join(tmpdir(), 'faun-api-scoreload-'));
  const db = join(root, 'db');
  const d = await openDatabase(db);
  const { token } = await createKey(d.db, { name: 'load', ratePerSec: 1000, burst: 1000 });
  await d.close();
  writeFileSync(join(root, 'child.ts'), CHILD);
  // the server in its own process: its event loop does server work only
  const p = Bun.spawn(
    [
      'bun',
      join(root, 'child.ts'),
      db,
      ...(process.env.FAUN_TEST_SCORE_THREADS ? [process.env.FAUN_TEST_SCORE_THREADS] : []),
    ],
    { stdout: 'pipe', stderr: 'inherit' },
  );
  try {
    const reader = (p.stdout as ReadableStream<Uint8Array>).getReader();
    let out = '';
    while (!out.includes('\n')) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`the server did not start: ${out}`);
      out += new TextDecoder().decode(value);
    }
    const url = /URL (\S+)/.exec(out)![1]!;
    const items = flItems(50).map((it) => ({ ...it, issue_body: 'short' }));
    const preds = flPredictions(items, (i) => i % 2 === 0);
    // each takes ~100 ms of CPU (bootstrap over 50 items): on the event loop they would stall everything
    const body = JSON.stringify({ items, predictions: preds, bootstrap: 10_000, seed: 1 });
    const post = (b: string) =>
      fetch(`${url}/v1/score/fl`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: b,
      });
    expect((await post(JSON.stringify({ items, predictions: preds, bootstrap: 100 }))).status).toBe(200);
    // the machine's own noise, without scoring: on a saturated machine 50 ms is out of reach for anyone
    const quiet = p99(await probe(url, () => false, 100));
    // the load comes from a third process, so neither its sockets nor its work delay the probes
    writeFileSync(join(root, 'body.json'), body);
    // 20 clients, each posting again as soon as it is answered, for at least 2 s: the probes always see
    // a full load, however fast this machine scores
    writeFileSync(
      join(root, 'load.ts'),
      `const body = await Bun.file(${JSON.stringify(join(root, 'body.json'))}).text();
const until = Date.now() + 2000;
const one = () => fetch(${JSON.stringify(`${url}/v1/score/fl`)}, {
  method: 'POST', headers: { authorization: 'Bearer ${token}', 'content-type': 'application/json' }, body })
  .then(async (r) => [r.status, ((await r.json()).aggregate?.em?.mean)]);
const client = async () => { const got = []; do got.push(await one()); while (Date.now() < until); return got; };
const rs = (await Promise.all(Array.from({ length: 20 }, client))).flat();
process.stdout.write(JSON.stringify(rs));`,
    );
    const load = Bun.spawn(['bun', join(root, 'load.ts')], { stdout: 'pipe', stderr: 'inherit' });
    let running = true;
    const answers = new Response(load.stdout).text().finally(() => {
      running = false;
    });
    await Bun.sleep(300); // the load process starts and sends its requests
    const busy = await probe(url, () => running);
    const got = JSON.parse(await answers) as [number, number][];
    expect(got.length).toBeGreaterThanOrEqual(20);
    expect(got.filter((g) => g[0] !== 200)).toEqual([]);
    for (const g of got) expect(g[1]).toBeCloseTo(0.5, 10);
    const loaded = p99(busy);
    const median = [...busy].sort((a, b) => a - b)[busy.length >> 1]!;
    console.log(
      `healthz during scoring: p50 ${median.toFixed(1)} ms, p99 ${loaded.toFixed(1)} ms (${busy.length} probes); idle p99 ${quiet.toFixed(1)} ms`,
    );
    expect(busy.length).toBeGreaterThan(20);
    // scoring on the event loop keeps it busy for ~2 s in 100 ms slices: most probes would wait for one
    // (inline scoring: p50 ~80 ms and one probe of ~3 s here). The p99 target of 50 ms is printed above;
    // it is asserted loosely because on a saturated shared machine the idle p99 alone can exceed it.
    expect(median).toBeLessThan(25);
    const p95 = [...busy].sort((a, b) => a - b)[Math.floor(busy.length * 0.95)]!;
    expect(p95).toBeLessThan(Math.max(250, 3 * quiet));
  } finally {
    p.kill('SIGKILL');
    await p.exited;
    rmSync(root, { recursive: true, force: true });
  }
}, 180_000);
