/**
 * Event streams of runs share one poller: every stream open on any run waits for the next tick, and a tick
 * reads every watched run in one query — so a thousand streams cost what one does. Streams are capped per
 * owner (API key, or client address for anonymous reads) and in total: a stream beyond a cap is refused
 * (HTTP 429), never queued, so held-open streams cannot starve the server.
 */

export interface WatchLimits {
  /** Streams one owner may hold open at once. */
  perOwner: number;
  /** Streams the server holds open at once. */
  total: number;
  /** How often watched runs are read, ms. */
  intervalMs: number;
}

export const DEFAULT_WATCH_LIMITS: WatchLimits = { perOwner: 20, total: 1000, intervalMs: 250 };

export type Refusal = { refused: 'owner' | 'total'; limit: number };

export class RunWatch<Row> {
  private readonly held = new Map<string, number>();
  private total = 0;
  private readonly waiting = new Map<string, Array<(row: Row | undefined) => void>>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    /** Reads the given runs (one query); absent ids are runs that no longer exist. */
    private readonly load: (ids: string[]) => Promise<Map<string, Row>>,
    readonly limits: WatchLimits = DEFAULT_WATCH_LIMITS,
  ) {}

  /** Streams open now (all owners). */
  get open(): number {
    return this.total;
  }

  /** Takes a stream slot for `owner`; the returned function gives it back (once). */
  acquire(owner: string): (() => void) | Refusal {
    const mine = this.held.get(owner) ?? 0;
    if (mine >= this.limits.perOwner) return { refused: 'owner', limit: this.limits.perOwner };
    if (this.total >= this.limits.total) return { refused: 'total', limit: this.limits.total };
    this.held.set(owner, mine + 1);
    this.total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const n = (this.held.get(owner) ?? 1) - 1;
      if (n > 0) this.held.set(owner, n);
      else this.held.delete(owner);
    };
  }

  /** The run as read at the next tick (undefined when it no longer exists). */
  next(id: string): Promise<Row | undefined> {
    return new Promise((resolve) => {
      const list = this.waiting.get(id);
      if (list) list.push(resolve);
      else this.waiting.set(id, [resolve]);
      this.timer ??= setTimeout(() => void this.tick(), this.limits.intervalMs);
    });
  }

  private async tick(): Promise<void> {
    const batch = new Map(this.waiting);
    this.waiting.clear();
    this.timer = null;
    let rows = new Map<string, Row>();
    try {
      rows = await this.load([...batch.keys()]);
    } catch {
      // a failed read answers "not found" to nobody: the waiters try again at the next tick
      for (const [id, list] of batch) for (const r of list) void this.next(id).then(r);
      return;
    }
    for (const [id, list] of batch) for (const r of list) r(rows.get(id));
  }
}
