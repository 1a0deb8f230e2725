/** Pending short real timers hold a virtual clock, so work queued behind them starts at the right time. */
import { afterEach, expect, test } from 'bun:test';
import { VirtualClock } from './clock.ts';
import { type RealTimers, trackRealTimers } from './real-timers.ts';

let timers: RealTimers | null = null;
afterEach(() => {
  timers?.restore();
  timers = null;
});

/** A sleeps 100 ms now; B sleeps 100 ms after a 5 ms real timer (as a request queued in Bottleneck). */
async function race(clock: VirtualClock): Promise<number[]> {
  const ends: number[] = [];
  await Promise.all([
    clock.sleep(100).then(() => ends.push(clock.now())),
    new Promise<void>((resolve) =>
      setTimeout(() => {
        clock
          .sleep(100)
          .then(() => ends.push(clock.now()))
          .then(() => resolve());
      }, 5),
    ),
  ]);
  return ends;
}

test('a request queued behind a short real timer overlaps the one in flight (both end at 100)', async () => {
  timers = trackRealTimers();
  const t = timers;
  expect(await race(new VirtualClock(0, () => t.pending() > 0))).toEqual([100, 100]);
});

test('counts short timers until they fire or are cleared; long ones and restore() leave no trace', async () => {
  timers = trackRealTimers(50);
  const a = setTimeout(() => {}, 1);
  const b = setTimeout(() => {}, 10);
  const long = setTimeout(() => {}, 60_000);
  expect(timers.pending()).toBe(2);
  clearTimeout(b);
  expect(timers.pending()).toBe(1);
  await new Promise((r) => setTimeout(r, 20));
  expect(timers.pending()).toBe(0);
  clearTimeout(long);
  clearTimeout(a);
  const before = globalThis.setTimeout;
  timers.restore();
  expect(globalThis.setTimeout).not.toBe(before);
  setTimeout(() => {}, 1);
  expect(timers.pending()).toBe(0);
});
