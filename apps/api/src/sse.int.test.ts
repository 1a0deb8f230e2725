/**
 * Progress streams of long runs stay open: the server sends a heartbeat comment while nothing changes,
 * so a stream outlives the connection idle timeout (the engine's default closed it after ~10 s). The
 * defaults (idle 30 s, heartbeat 10 s) scaled down: idle 8 s, heartbeat 2 s, held three idle timeouts. (With
 * an idle timeout of 4 s the engine closed streams after ~3.5 s whatever was written: its timer ticks are coarse.)
 */
import { expect, test } from 'bun:test';
import { blockedRun } from './testkit.ts';

const IDLE_S = 8;
const HELD_MS = 3 * IDLE_S * 1000;

test('an event stream stays open three idle timeouts with heartbeats, then ends with the run', async () => {
  const { s, id, release } = await blockedRun({ idleTimeoutS: IDLE_S, sseHeartbeatMs: 2000 });
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
    await Bun.sleep(HELD_MS);
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
}, 60_000);
