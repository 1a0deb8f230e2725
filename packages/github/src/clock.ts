/**
 * Time as the crawler and the fake GitHub see it. The real clock is wall time; a {@link SimClock} runs
 * `scale` times faster than wall time from an anchor, so a one-hour rate-limit reset can pass in a
 * second. Two processes built from the same spec (`anchorRealMs,anchorSimMs,scale`) agree on the time.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` milliseconds of this clock's time (or when `signal` aborts). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** How many clock milliseconds pass per wall-clock millisecond (1 for the real clock). */
  readonly scale: number;
}

function wallSleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Wall-clock time. */
export const realClock: Clock = {
  now: () => Date.now(),
  sleep: wallSleep,
  scale: 1,
};

/** A clock running `scale`× faster than wall time, anchored so that `anchorReal` ↦ `anchorSim`. */
export class SimClock implements Clock {
  constructor(
    readonly scale: number,
    readonly anchorReal: number = Date.now(),
    readonly anchorSim: number = Date.now(),
  ) {
    if (!(scale > 0)) throw new Error(`clock scale must be > 0, got ${scale}`);
  }
  now(): number {
    return Math.floor(this.anchorSim + (Date.now() - this.anchorReal) * this.scale);
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return wallSleep(Math.ceil(ms / this.scale), signal);
  }
  /** `anchorReal,anchorSim,scale`, parsed back by {@link parseClock}. */
  spec(): string {
    return `${this.anchorReal},${this.anchorSim},${this.scale}`;
  }
}

/**
 * A discrete-event clock for simulations: time does not pass by itself, only through sleeps. When the
 * process has nothing else to do (no pending callbacks, `hold()` false), the clock jumps to the earliest
 * sleeper's wake-up time and wakes it. Work between sleeps (CPU, in-process I/O) takes no clock time,
 * so an hour-long crawl simulates as fast as its code runs. Real-time timers elsewhere (Bottleneck,
 * plugin-retry) see `scale` = Infinity and wait 0 ms.
 */
export class VirtualClock implements Clock {
  readonly scale = Number.POSITIVE_INFINITY;
  private t: number;
  private seq = 0;
  private readonly sleepers: { at: number; seq: number; wake: () => void }[] = [];
  private scheduled = false;
  private idleTicks = 0;

  constructor(
    start = Date.parse('2026-01-01T00:00:00Z'),
    /** While true, the clock does not move (e.g. a store write is in progress). */
    private readonly hold: () => boolean = () => false,
  ) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const s = { at: this.t + ms, seq: ++this.seq, wake: () => {} };
      const done = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        const i = this.sleepers.indexOf(s);
        if (i >= 0) this.sleepers.splice(i, 1);
        done();
      };
      s.wake = done;
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sleepers.push(s);
      this.idleTicks = 0;
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.tick);
  }

  private readonly tick = (): void => {
    this.scheduled = false;
    if (this.sleepers.length === 0) return;
    if (this.hold()) {
      this.idleTicks = 0;
      this.scheduled = true;
      setTimeout(this.tick, 0);
      return;
    }
    // Three quiet turns of the event loop in a row: whatever the last wake-up started has settled.
    if (++this.idleTicks < 3) {
      this.schedule();
      return;
    }
    this.idleTicks = 0;
    let k = 0;
    for (let i = 1; i < this.sleepers.length; i++) {
      const a = this.sleepers[i];
      const b = this.sleepers[k];
      if (a && b && (a.at < b.at || (a.at === b.at && a.seq < b.seq))) k = i;
    }
    const [next] = this.sleepers.splice(k, 1);
    if (next) {
      this.t = Math.max(this.t, next.at);
      next.wake();
    }
    this.schedule();
  };
}

/** Parses a clock spec: `real`, a bare scale (`3600`), or `anchorReal,anchorSim,scale`. */
export function parseClock(spec: string | undefined | null): Clock {
  if (!spec || spec === 'real') return realClock;
  const parts = spec.split(',').map(Number);
  if (parts.some((x) => !Number.isFinite(x)))
    throw new Error(`bad clock spec "${spec}": expected "real", a scale, or "anchorReal,anchorSim,scale"`);
  if (parts.length === 1) return new SimClock(parts[0] ?? 1);
  if (parts.length === 3) return new SimClock(parts[2] ?? 1, parts[0], parts[1]);
  throw new Error(`bad clock spec "${spec}": expected "real", a scale, or "anchorReal,anchorSim,scale"`);
}
