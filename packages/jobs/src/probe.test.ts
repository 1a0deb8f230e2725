import { expect, test } from 'bun:test';
import { createServer } from 'node:net';
import { probeRedis, redactRedisUrl } from './probe.ts';

test('probeRedis reports a refused connection within seconds', async () => {
  const t0 = Date.now();
  const why = await probeRedis('redis://127.0.0.1:1', 3000);
  expect(why).toContain('ECONNREFUSED');
  expect(Date.now() - t0).toBeLessThan(4000);
});

test('probeRedis times out on a server that never answers', async () => {
  const sockets: import('node:net').Socket[] = [];
  const srv = createServer((s) => sockets.push(s)); // accepts, never replies
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  try {
    const t0 = Date.now();
    const why = await probeRedis(`redis://127.0.0.1:${port}`, 500);
    expect(why).not.toBeNull();
    expect(Date.now() - t0).toBeLessThan(2000);
  } finally {
    for (const s of sockets) s.destroy();
    srv.close();
  }
});

test('redactRedisUrl hides credentials', () => {
  expect(redactRedisUrl('redis://user:secret@host:6379/0')).toBe('redis://***@host:6379/0');
});
