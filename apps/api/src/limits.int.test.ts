/**
 * Bounded inputs: a run body is refused by its size or shape before it is parsed into objects, so memory
 * stays proportional to the body limit; a run never holds more predictions than its dataset; model names
 * are length-limited and character-checked.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { FL_DATASET_SIZE, flItems, flPredictions, startTestServer, type TestServer } from './testkit.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const HEAD = '{"dataset":"fl-small","predictions":[';
const TAIL = '{}]}';

/** `n` empty objects as a run body, built in chunks. */
function* emptyItems(n: number, per = 100_000): Generator<Uint8Array> {
  const enc = new TextEncoder();
  yield enc.encode(HEAD);
  const chunk = enc.encode('{},'.repeat(per));
  for (let left = n - 1; left > 0; left -= per) yield left >= per ? chunk : enc.encode('{},'.repeat(left));
  yield enc.encode(TAIL);
}

function concat(parts: Iterable<Uint8Array>): Uint8Array<ArrayBuffer> {
  const list = [...parts];
  const out = new Uint8Array(list.reduce((a, p) => a + p.byteLength, 0));
  let at = 0;
  for (const p of list) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** Peak RSS growth (MB) while `fn` runs, sampled every 10 ms. */
async function peakGrowthMb<T>(fn: () => Promise<T>): Promise<{ value: T; mb: number }> {
  Bun.gc(true);
  const base = process.memoryUsage.rss();
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, mb: (peak - base) / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

const post = (body: BodyInit) =>
  fetch(`${s.url}/v1/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.key}`, 'content-type': 'application/json' },
    body,
  });

test('ten million `{}` items: a 4xx with the JSON envelope, RSS growth under 200 MB', async () => {
  const body = concat(emptyItems(10_000_000));
  expect(body.byteLength).toBeGreaterThan(28 << 20);
  const { value: r, mb } = await peakGrowthMb(() => post(body));
  expect(r.status).toBe(413);
  expect(((await r.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  expect(mb).toBeLessThan(200);
  // the same body streamed without a declared length
  const streamed = await peakGrowthMb(async () => {
    const it = emptyItems(10_000_000);
    const res = await post(
      new ReadableStream<Uint8Array>({
        pull(ctl) {
          const n = it.next();
          if (n.done) ctl.close();
          else ctl.enqueue(n.value);
        },
      }),
    );
    return { status: res.status, json: (await res.json()) as { error: { code: string } } };
  });
  expect(streamed.value.status).toBe(413);
  expect(streamed.value.json.error.code).toBe('payload_too_large');
  expect(streamed.mb).toBeLessThan(200);
}, 60_000);

test('a body under the byte limit with millions of values is refused by its shape, not parsed', async () => {
  const body = concat(emptyItems(4_000_000)); // 12 MB, under the 16 MiB limit
  const { value: r, mb } = await peakGrowthMb(() => post(body));
  expect(r.status).toBe(413);
  const e = (await r.json()) as { error: { code: string; message: string } };
  expect(e.error.message).toContain('predictions');
  expect(mb).toBeLessThan(200);
}, 60_000);

test('more predictions than the dataset has items is a 400 naming the dataset size', async () => {
  const preds = flPredictions(flItems(FL_DATASET_SIZE), () => true);
  const r = await s.req('/v1/runs', {
    method: 'POST',
    json: { dataset: 'fl-small', predictions: [...preds, ...preds.slice(0, 1)] },
  });
  expect(r.status).toBe(400);
  expect(((await r.json()) as { error: { message: string } }).error.message).toContain(
    `has ${FL_DATASET_SIZE} items`,
  );
});

test('model names are length-limited and character-checked, given or taken from the predictions', async () => {
  const preds = flPredictions(flItems(3), () => true);
  for (const model of ['x'.repeat(129), 'a b', '<script>', '../etc']) {
    const given = await s.req('/v1/runs', {
      method: 'POST',
      json: { dataset: 'fl-small', model, predictions: preds },
    });
    expect(given.status).toBe(400);
    const inside = await s.req('/v1/runs', {
      method: 'POST',
      json: { dataset: 'fl-small', predictions: preds.map((p) => ({ ...p, model })) },
    });
    expect(inside.status).toBe(400);
    expect(((await inside.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
  }
  const long = await s.req('/v1/runs', {
    method: 'POST',
    json: { dataset: 'd'.repeat(5000), predictions: preds },
  });
  expect(long.status).toBe(400);
});

test('a body over every route limit gets the JSON 413, not the engine bare one', async () => {
  const r = await fetch(`${s.url}/v1/datasets`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: new Uint8Array(70 << 20),
  });
  expect(r.status).toBe(413);
  expect(((await r.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
}, 30_000);
