/**
 * Progress streams of long runs stay open: the server sends a heartbeat comment while nothing changes,
 * so a stream outlives the connection idle timeout (the engine's default closed it after ~10 s).
 */
import { expect, test } from 'bun:test';
import { blockedRun } from './testkit.ts';

test('an event stream stays open 60 s with heartbeats, then ends with the run', async () => {
  const { s, id, release } = await blockedRun({ idleTimeoutS: 20 });
  try {
    const res = await s.req(`/v1/runs/${id}/events`);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    let ended = false;
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      ended = true;
    })().catch(() => {
      ended = true;
    });
    await Bun.sleep(60_000);
    expect(ended).toBe(false);
    expect(text).toContain('event: progress');
    expect(text.split(': heartbeat').length - 1).toBeGreaterThanOrEqual(4);
    release();
    await reading;
    expect(text).toMatch(/event: done\ndata: \{[^\n]*"status":"done"/);
  } finally {
    release();
    await s.close();
  }
}, 120_000);
