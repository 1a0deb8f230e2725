/**
 * 500 event streams held open at once leave /healthz under 50 ms at p99 (the caps themselves:
 * sse-caps.int.test.ts). The streams are plain sockets: Bun's fetch stalls for seconds beyond ~256 open
 * requests, which would measure the client, not the server.
 */
// alone: a latency bound; other suites' load on the machine would be measured with it
import { expect, test } from 'bun:test';
import { connect, type Socket } from 'node:net';
import { blockedRun } from './testkit.ts';

interface Held {
  status: number;
  close: () => void;
}

/**
 * Opens an event stream on a raw HTTP/1.1 socket and resolves once the response head and the first bytes of
 * the body (the first event) arrived, or the whole answer of a refused stream; `close()` ends it.
 */
function open(url: string, path: string, token: string): Promise<Held> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(Number(port), hostname);
    let got = '';
    const done = (status: number) => {
      socket.removeAllListeners('data');
      resolve({ status, close: () => socket.destroy() });
    };
    socket.on('connect', () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\nauthorization: Bearer ${token}\r\naccept: text/event-stream\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk: Buffer) => {
      got += chunk.toString('latin1');
      const head = got.indexOf('\r\n\r\n');
      if (head < 0) return;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(got)?.[1] ?? 0);
      if (status !== 200) {
        socket.destroy();
        done(status);
      } else if (got.length > head + 4) done(200);
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`stream closed before its first event: ${got.slice(0, 200)}`)));
  });
}

test('500 streams held: /healthz p99 under 50 ms', async () => {
  const { s, id, release } = await blockedRun({ ssePerKey: 20, sseTotal: 1000 });
  const held: Held[] = [];
  try {
    const keys = await Promise.all(Array.from({ length: 25 }, (_, i) => s.newKey({ name: `k${i}` })));
    for (let i = 0; i < 500; i += 50)
      held.push(
        ...(await Promise.all(
          Array.from({ length: 50 }, (_, j) => open(s.url, `/v1/runs/${id}/events`, keys[(i + j) % 25]!)),
        )),
      );
    expect(held.filter((h) => h.status !== 200).map((h) => h.status)).toEqual([]);
    expect(held.length).toBe(500);
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
