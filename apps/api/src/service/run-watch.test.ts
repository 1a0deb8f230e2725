import { expect, test } from 'bun:test';
import { RunWatch } from './run-watch.ts';

test('streams are capped per owner and in total; a released slot can be taken again', () => {
  const w = new RunWatch(async () => new Map(), { perOwner: 2, total: 3, intervalMs: 5 });
  const a1 = w.acquire('a');
  const a2 = w.acquire('a');
  expect(typeof a1).toBe('function');
  expect(typeof a2).toBe('function');
  expect(w.acquire('a')).toEqual({ refused: 'owner', limit: 2 });
  const b1 = w.acquire('b');
  expect(typeof b1).toBe('function');
  expect(w.acquire('c')).toEqual({ refused: 'total', limit: 3 });
  (a1 as () => void)();
  (a1 as () => void)(); // twice is once
  expect(w.open).toBe(2);
  expect(typeof w.acquire('c')).toBe('function');
  expect(w.acquire('a')).toEqual({ refused: 'total', limit: 3 });
});

test('every waiter of a tick is answered by one read of all watched runs', async () => {
  const reads: string[][] = [];
  const w = new RunWatch<{ id: string }>(
    async (ids) => {
      reads.push([...ids].sort());
      return new Map(ids.filter((i) => i !== 'gone').map((i) => [i, { id: i }]));
    },
    { perOwner: 10, total: 10, intervalMs: 5 },
  );
  const got = await Promise.all([w.next('r1'), w.next('r1'), w.next('r2'), w.next('gone')]);
  expect(got).toEqual([{ id: 'r1' }, { id: 'r1' }, { id: 'r2' }, undefined]);
  expect(reads).toEqual([['gone', 'r1', 'r2']]);
});
