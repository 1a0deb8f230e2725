/** The virtual clock: time passes only through sleeps, in wake-up order, and holds still while told to. */
import { expect, test } from 'bun:test';
import { VirtualClock } from './clock.ts';

test('VirtualClock: sleepers wake in time order at their exact times; an hour passes at once', async () => {
  const clock = new VirtualClock(0);
  const woke: string[] = [];
  const t0 = performance.now();
  await Promise.all([
    clock.sleep(3_600_000).then(() => woke.push(`b@${clock.now()}`)),
    clock.sleep(60_000).then(async () => {
      woke.push(`a@${clock.now()}`);
      await clock.sleep(60_000);
      woke.push(`c@${clock.now()}`);
    }),
  ]);
  expect(woke).toEqual(['a@60000', 'c@120000', 'b@3600000']);
  expect(performance.now() - t0).toBeLessThan(1_000);
});

test('VirtualClock: holds still while hold() is true; an aborted sleep resolves without moving time', async () => {
  let hold = true;
  const clock = new VirtualClock(1_000, () => hold);
  let woke = false;
  const p = clock.sleep(5_000).then(() => {
    woke = true;
  });
  await new Promise((r) => setTimeout(r, 30));
  expect(woke).toBe(false);
  expect(clock.now()).toBe(1_000);
  hold = false;
  await p;
  expect(clock.now()).toBe(6_000);
  const ac = new AbortController();
  const q = clock.sleep(10_000, ac.signal);
  ac.abort();
  await q;
  expect(clock.now()).toBe(6_000);
});
