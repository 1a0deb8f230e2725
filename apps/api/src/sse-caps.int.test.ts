/**
 * Held-open event streams are capped per key and in total: 429 beyond a cap, the slot given back when a
 * stream closes.
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
