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
