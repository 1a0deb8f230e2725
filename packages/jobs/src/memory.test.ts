import { describe, expect, test } from 'bun:test';
import { MemoryQueue } from './memory.ts';
import { PermanentJobError, type QueueEvent } from './types.ts';

describe('MemoryQueue', () => {
  test('never runs more than `concurrency` jobs at once and runs each once', async () => {
    const q = new MemoryQueue('t');
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    await q.process(
      async (job) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 2));
        seen.push((job.data as { n: number }).n);
        running--;
        return null;
      },
      { concurrency: 3 },
    );
    await q.enqueueMany(Array.from({ length: 20 }, (_, n) => ({ name: 'x', data: { n } })));
    await q.drained();
    expect(peak).toBe(3);
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, n) => n));
    await q.close();
  });

  test('retries infrastructure failures with backoff, not permanent ones', async () => {
    const q = new MemoryQueue('t');
    const tries: Record<string, number> = {};
    const events: QueueEvent[] = [];
    q.on((e) => events.push(e));
    await q.process(async (job) => {
      tries[job.id] = (tries[job.id] ?? 0) + 1;
      if (job.id === 'flaky' && job.attempt < 3) throw new Error('daemon gone');
      if (job.id === 'bad') throw new PermanentJobError('bad input');
      return 'ok';
    });
    await q.enqueue({ name: 'x', id: 'flaky', data: {}, backoffMs: 1 });
    await q.enqueue({ name: 'x', id: 'bad', data: {}, backoffMs: 1 });
    await q.drained();
    expect(tries).toEqual({ flaky: 3, bad: 1 });
    expect(events.filter((e) => e.type === 'completed').map((e) => e.id)).toEqual(['flaky']);
    const finals = events.filter((e) => e.type === 'failed' && e.final).map((e) => e.id);
    expect(finals).toEqual(['bad']);
    expect(await q.counts()).toMatchObject({ completed: 1, failed: 1, waiting: 0, active: 0 });
  });

  test('an id already enqueued is not enqueued again', async () => {
    const q = new MemoryQueue('t');
    let runs = 0;
    await q.enqueue({ name: 'x', id: 'a', data: {} });
    await q.enqueue({ name: 'x', id: 'a', data: {} });
    await q.process(async () => {
      runs++;
    });
    await q.drained();
    expect(runs).toBe(1);
  });
});
