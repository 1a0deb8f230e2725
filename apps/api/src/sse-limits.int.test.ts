/**
 * Held-open event streams cannot starve the server: they are capped per key and in total (429 beyond a cap,
 * the slot given back when a stream closes), and 500 streams held at once leave /healthz under 50 ms.
 */
import { expect, test } from 'bun:test';
import { blockedRun, type TestServer } from './testkit.ts';

/** Opens an event stream and waits for its first event; `close()` ends it. */
async function open(s: TestServer, id: string, token?: string) {
  const ctl = new AbortController();
  const res = await s.req(`/v1/runs/${id}/events`, { signal: ctl.signal, ...(token ? { token } : {}) });
  if (res.status !== 200) return { status: res.status, body: await res.text(), close: () => {} };
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  await reader.read();
  return { status: 200, body: '', close: () => ctl.abort() };
}

test('streams are capped per key and in total; a closed stream gives its slot back', async () => {
  const { s, id, release } = await blockedRun({ ssePerKey: 2, sseTotal: 3 });
  try {
    const other = await s.newKey({ name: 'other' });
    const a = [await open(s, id), await open(s, id)];
    expect(a.map((x) => x.status)).toEqual([200, 200]);
    const third = await open(s, id);
    expect(third.status).toBe(429);
    expect(third.body).toContain('too many event streams open for this key (at most 2)');
    expect((await open(s, id, other)).status).toBe(200);
    const full = await open(s, id, await s.newKey({ name: 'third' }));
    expect(full.status).toBe(429);
    expect(full.body).toContain('maximum of 3 event streams');
    a[0]!.close();
    await Bun.sleep(300);
    expect((await open(s, id)).status).toBe(200);
  } finally {
    release();
    await s.close();
  }
}, 60_000);

test('500 streams held: /healthz p99 under 50 ms', async () => {
  const { s, id, release } = await blockedRun({ ssePerKey: 20, sseTotal: 1000 });
  const held: Array<{ status: number; close: () => void }> = [];
  try {
    const keys = await Promise.all(Array.from({ length: 25 }, (_, i) => s.newKey({ name: `k${i}` })));
    for (let i = 0; i < 500; i += 50)
      held.push(
        ...(await Promise.all(Array.from({ length: 50 }, (_, j) => open(s, id, keys[(i + j) % 25])))),
      );
    expect(held.filter((h) => h.status !== 200)).toEqual([]);
    await Bun.sleep(1000); // a few poll ticks with every stream waiting
    const times: number[] = [];
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      const r = await fetch(`${s.url}/healthz`);
      await r.arrayBuffer();
      times.push(performance.now() - t0);
      await Bun.sleep(10);
    }
    times.sort((x, y) => x - y);
    const p99 = times[98]!;
    console.log(`healthz with 500 streams held: p50 ${times[50]!.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
    expect(p99).toBeLessThan(50);
  } finally {
    for (const h of held) h.close();
    release();
    await s.close();
  }
}, 300_000);
