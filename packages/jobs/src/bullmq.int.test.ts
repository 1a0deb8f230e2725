import { afterAll, beforeAll, expect, test } from 'bun:test';
import { ensureRedis, type ServiceHandle } from '@faun/services';
import { RedisQueue } from './bullmq.ts';
import { PermanentJobError } from './types.ts';

let redis: ServiceHandle;
beforeAll(async () => {
  redis = await ensureRedis();
}, 60_000);
afterAll(async () => {
  await redis?.stop();
});

test('jobs run once each, infra failures are retried, permanent ones are not, progress is reported', async () => {
  const q = new RedisQueue(`t-${Date.now()}`, { url: redis.url, lockMs: 2000 });
  expect(await q.ping()).toBe(true);
  const tries = new Map<string, number>();
  const progress: unknown[] = [];
  q.on((e) => {
    if (e.type === 'progress') progress.push(e.value);
  });
  await q.process(
    async (job) => {
      const n = (job.data as { n: number }).n;
      tries.set(String(n), (tries.get(String(n)) ?? 0) + 1);
      if (n === 3 && job.attempt < 2) throw new Error('transient');
      if (n === 4) throw new PermanentJobError('bad');
      await job.progress(50);
      return n * 2;
    },
    { concurrency: 4 },
  );
  await q.enqueueMany(
    Array.from({ length: 10 }, (_, n) => ({ name: 'x', id: `j:${n}`, data: { n }, backoffMs: 10 })),
  );
  await q.enqueue({ name: 'x', id: 'j:1', data: { n: 1 } }); // duplicate id: ignored
  await q.drained();
  expect(tries.get('3')).toBe(2);
  expect(tries.get('4')).toBe(1);
  expect([...tries.values()].reduce((a, b) => a + b, 0)).toBe(11);
  expect(await q.counts()).toMatchObject({ completed: 9, failed: 1, waiting: 0, active: 0 });
  expect(progress.length).toBe(9);
  await q.close();
}, 30_000);

test('ping is false when Redis is unreachable', async () => {
  const q = new RedisQueue('t-down', { url: 'redis://127.0.0.1:1' });
  expect(await q.ping()).toBe(false);
  await q.close().catch(() => {});
}, 10_000);

test('cancelGroup removes the waiting jobs of a group; the other groups run', async () => {
  const q = new RedisQueue(`t-cancel-${Date.now()}`, { url: redis.url, lockMs: 2000 });
  const ran: string[] = [];
  await q.enqueueMany(
    Array.from({ length: 6 }, (_, n) => ({
      name: 'x',
      id: `c:${n}`,
      group: n % 2 ? 'odd' : 'even',
      data: { n },
    })),
  );
  expect(await q.cancelGroup('odd')).toBe(3);
  await q.process(async (job) => {
    ran.push(String((job.data as { n: number }).n));
  });
  await q.drained();
  expect(ran.sort()).toEqual(['0', '2', '4']);
  await q.close();
}, 30_000);
