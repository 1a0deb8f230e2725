/** Scripted and periodic faults of the fake GitHub (spec §5): secondary limits, 5xx bursts, GraphQL errors. */

export interface ScriptedFault {
  /** Applies to requests whose path (with query) contains this string, or matches this pattern. */
  match: string | RegExp;
  status: 403 | 429 | 500 | 502 | 503 | 504;
  /** How many matching requests fail before the path succeeds again. */
  times: number;
  /** `retry-after` seconds (secondary limits); omitted → no header. */
  retryAfter?: number;
  /** 403/429: a secondary limit (default) or a primary-limit answer with remaining 0. */
  kind?: 'secondary' | 'primary';
}

export interface FaultOptions {
  /**
   * Load-driven behaviour (see load.ts): secondary limits from each identity's concurrency, CPU time
   * and points per minute; GraphQL pages time out (502) or exceed resource limits when they ask for
   * too many nodes on a heavy repository; nested connections come back empty while the identity has
   * other GraphQL requests in flight.
   */
  load?: boolean;
  /** Every Nth GraphQL page has one `null` node with a partial error (the retried page is whole). */
  nullNodeEvery?: number;
  /** Every Nth GraphQL page has its nested connections' nodes empty (with their true totalCount). */
  truncateNestedEvery?: number;
  /**
   * Every Nth counted request answers a secondary limit regardless of load (403 and 429 alternate;
   * every other one has no `retry-after`). Not in {@link ALL_FAULTS}: GitHub's secondary limits follow load.
   */
  secondaryEvery?: number;
  /** Every Nth counted request starts a burst of `serverErrorBurst` 5xx answers (500/502/503/504 rotate). */
  serverErrorEvery?: number;
  serverErrorBurst?: number;
  /** Every Nth GraphQL request answers "Something went wrong while executing your query" (HTTP 200). */
  graphqlErrorEvery?: number;
  /** One-off faults, consumed in order. */
  script?: ScriptedFault[];
}

/** Every fault on, at rates that keep a small crawl short. */
export const ALL_FAULTS: FaultOptions = {
  load: true,
  serverErrorEvery: 17,
  serverErrorBurst: 2,
  graphqlErrorEvery: 7,
  nullNodeEvery: 11,
  truncateNestedEvery: 13,
};

export type FaultAnswer =
  | { kind: 'secondary'; status: 403 | 429; retryAfter: number | null }
  | { kind: 'primary'; status: 403 | 429 }
  | { kind: 'server'; status: number }
  | { kind: 'graphql-error' };

/** Decides, per request, whether a fault answers it. Deterministic: counters, no randomness. */
export class FaultPlan {
  private count = 0;
  private gqlCount = 0;
  private burstLeft = 0;
  private burstStatus = 500;
  private secondaryN = 0;
  private readonly script: (ScriptedFault & { left: number })[];

  constructor(private readonly opts: FaultOptions = {}) {
    this.script = (opts.script ?? []).map((s) => ({ ...s, left: s.times }));
  }

  private gqlPages = 0;

  /** Page-level GraphQL faults for the next GraphQL page answered with data. */
  graphqlPage(): { nullNode?: number; truncateNested?: boolean } {
    const n = ++this.gqlPages;
    const o = this.opts;
    return {
      ...(o.nullNodeEvery && n % o.nullNodeEvery === 0 ? { nullNode: n } : {}),
      ...(o.truncateNestedEvery && n % o.truncateNestedEvery === 0 ? { truncateNested: true } : {}),
    };
  }

  get load(): boolean {
    return this.opts.load === true;
  }

  /** Adds one-off faults at run time. */
  add(f: ScriptedFault): void {
    this.script.push({ ...f, left: f.times });
  }

  next(pathAndQuery: string, isGraphql: boolean): FaultAnswer | null {
    for (const s of this.script) {
      if (s.left <= 0) continue;
      const hit = typeof s.match === 'string' ? pathAndQuery.includes(s.match) : s.match.test(pathAndQuery);
      if (!hit) continue;
      s.left--;
      if (s.status >= 500) return { kind: 'server', status: s.status };
      if (s.kind === 'primary') return { kind: 'primary', status: s.status as 403 | 429 };
      return { kind: 'secondary', status: s.status as 403 | 429, retryAfter: s.retryAfter ?? null };
    }
    if (this.burstLeft > 0) {
      this.burstLeft--;
      return { kind: 'server', status: this.burstStatus };
    }
    this.count++;
    const o = this.opts;
    if (o.serverErrorEvery && this.count % o.serverErrorEvery === 0) {
      const statuses = [500, 502, 503, 504];
      this.burstStatus = statuses[(this.count / o.serverErrorEvery) % 4] ?? 500;
      this.burstLeft = Math.max(0, (o.serverErrorBurst ?? 1) - 1);
      return { kind: 'server', status: this.burstStatus };
    }
    if (o.secondaryEvery && this.count % o.secondaryEvery === 0) {
      this.secondaryN++;
      return {
        kind: 'secondary',
        status: this.secondaryN % 2 ? 403 : 429,
        retryAfter: this.secondaryN % 4 < 2 ? 2 : null,
      };
    }
    if (isGraphql && o.graphqlErrorEvery) {
      this.gqlCount++;
      if (this.gqlCount % o.graphqlErrorEvery === 0) return { kind: 'graphql-error' };
    }
    return null;
  }
}
