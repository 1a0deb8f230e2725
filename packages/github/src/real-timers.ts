/**
 * Short real-time timers still pending, for a {@link VirtualClock} that must not move while code is
 * on its way between two of its own sleeps. Libraries in the request path keep real timers even when
 * the clock is virtual (Bottleneck schedules every job with `setTimeout(…, 0)`); a clock that jumps
 * when the event loop looks quiet would otherwise wake the next sleeper before a request queued behind
 * such a timer reaches the server, and concurrent requests would run one after another in simulated
 * time. {@link trackRealTimers} wraps the global `setTimeout`/`clearTimeout` and counts the timers of
 * at most `maxMs` that have neither fired nor been cleared; longer ones (progress lines, heartbeats)
 * are not counted. Meant for simulations (benchmarks, tests): `restore()` puts the globals back.
 */
export interface RealTimers {
  /** Timers of ≤ maxMs scheduled and not yet fired or cleared. */
  pending(): number;
  /** Puts the original `setTimeout` / `clearTimeout` back. */
  restore(): void;
}

export function trackRealTimers(maxMs = 50): RealTimers {
  const g = globalThis as unknown as {
    setTimeout: (fn: (...a: unknown[]) => void, ms?: number, ...a: unknown[]) => unknown;
    clearTimeout: (h: unknown) => void;
  };
  const origSet = g.setTimeout;
  const origClear = g.clearTimeout;
  const live = new Set<unknown>();
  const wrappedSet = (fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]): unknown => {
    if (typeof fn !== 'function' || (ms ?? 0) > maxMs) return origSet(fn, ms, ...args);
    const h = origSet(
      (...a: unknown[]) => {
        live.delete(h);
        fn(...a);
      },
      ms,
      ...args,
    );
    live.add(h);
    return h;
  };
  const wrappedClear = (h: unknown): void => {
    live.delete(h);
    origClear(h);
  };
  g.setTimeout = wrappedSet;
  g.clearTimeout = wrappedClear;
  return {
    pending: () => live.size,
    restore: () => {
      if (g.setTimeout === wrappedSet) g.setTimeout = origSet;
      if (g.clearTimeout === wrappedClear) g.clearTimeout = origClear;
      live.clear();
    },
  };
}
