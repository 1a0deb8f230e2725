/**
 * Load-driven secondary limits and GraphQL timeouts of the fake GitHub, per identity (the user or App
 * installation behind a token, not the token itself).
 *
 * GitHub's documented secondary limits (docs.github.com "Rate limits for the REST API", section "About
 * secondary rate limits"): at most 100 concurrent requests, shared by REST and GraphQL; at most 900
 * points per minute for REST and 2,000 for GraphQL; at most 90 s of CPU time per 60 s of real time, at
 * most 60 s of it for GraphQL ("you can roughly estimate the CPU time by measuring the total response
 * time"). A request answered with a secondary limit waits `retry-after` (60 s here); requests sent
 * during that wait are refused again (the docs warn that continuing may get the integration banned).
 *
 * Time in this model is each identity's **busy time**: a request's service time divided by the number
 * of that identity's requests in flight when it arrived (parallel requests share the wall clock). A
 * serial client therefore runs at a CPU/real ratio of {@link CPU_PER_SERVICE} (< 1, under both
 * limits); two or more requests kept in flight reach the 90 s / 60 s limit within a minute.
 *
 * GraphQL pages take time proportional to the nodes they ask for (`first` × nested `first`s, the
 * docs' node count), scaled by the repository's weight and by load. Past 10 s GitHub answers 502 "We
 * couldn't respond to your request in time" (docs "Rate limits and query limits for the GraphQL API",
 * section Timeouts; 502s on big repositories in cli/cli and apache/devlake reports), and since
 * 2025-07-21 a timeout is charged against the primary limit (GitHub changelog "Including timeouts in
 * primary rate limits"). The heaviest repositories answer `RESOURCE_LIMITS_EXCEEDED` with
 * `data.repository: null` instead (as reported in yoshi389111/github-profile-3d-contrib#163).
 */

/** CPU seconds charged per second of response time (the docs' response-time estimate, minus network). */
export const CPU_PER_SERVICE = 0.8;
export const TIMEOUT_MS = 10_000;
export interface LoadLimits {
  /** The limits' window of busy time (default 60,000 ms; tests shrink it with the limits). */
  windowMs: number;
  /** Concurrent requests per identity (default 100). */
  maxConcurrent: number;
  /** CPU ms per 60 s of busy time (default 90,000). */
  cpuMs: number;
  /** GraphQL CPU ms per 60 s (default 60,000). */
  graphqlCpuMs: number;
  /** REST points per minute (default 900). */
  restPoints: number;
  /** GraphQL points per minute (default 2,000). */
  graphqlPoints: number;
  /** `retry-after` of a load-driven secondary limit, seconds (default 60). */
  retryAfter: number;
}

export const DEFAULT_LIMITS: LoadLimits = {
  windowMs: 60_000,
  maxConcurrent: 100,
  cpuMs: 90_000,
  graphqlCpuMs: 60_000,
  restPoints: 900,
  graphqlPoints: 2_000,
  retryAfter: 60,
};

interface Sample {
  at: number;
  cpu: number;
  gql: boolean;
  points: number;
}

export interface IdentityLoad {
  identity: string;
  inflight: number;
  /** Busy time (ms): service time of this identity's requests, overlapping requests counted once. */
  busyMs: number;
  /** Total service time (ms) of this identity's requests. */
  serviceMs: number;
  /** Clock ms until which this identity is refused (after a secondary limit). */
  blockedUntil: number;
  /** Secondary limits answered (load-driven). */
  secondary: number;
  /** Busy-time penalty of the secondary limits (retry-after each). */
  penaltyMs: number;
  /** Requests, and peak concurrency seen. */
  requests: number;
  peakInflight: number;
  samples: Sample[];
}

export type LoadVerdict =
  | { ok: true; release: () => void }
  | { ok: false; reason: string; retryAfter: number };

/** REST service time (ms) for a page of `items` items. */
export function restServiceMs(items: number): number {
  return 120 + 3 * items;
}

/**
 * GraphQL service time (ms): 300 ms + 4 ms per node asked for, × repository weight, × (1 + 0.25 per
 * other request of the identity in flight).
 */
export function graphqlServiceMs(nodes: number, weight: number, inflight: number): number {
  return (300 + 4 * nodes) * weight * (1 + 0.25 * Math.max(0, inflight - 1));
}

export class LoadModel {
  readonly identities = new Map<string, IdentityLoad>();
  constructor(readonly limits: LoadLimits = DEFAULT_LIMITS) {}

  of(identity: string): IdentityLoad {
    let s = this.identities.get(identity);
    if (!s) {
      s = {
        identity,
        inflight: 0,
        busyMs: 0,
        serviceMs: 0,
        blockedUntil: 0,
        secondary: 0,
        penaltyMs: 0,
        requests: 0,
        peakInflight: 0,
        samples: [],
      };
      this.identities.set(identity, s);
    }
    return s;
  }

  /** A request arrives: counts it in flight, or refuses it while the identity is blocked or over 100. */
  arrive(identity: string, now: number): LoadVerdict {
    const s = this.of(identity);
    if (now < s.blockedUntil)
      return { ok: false, reason: 'blocked', retryAfter: Math.ceil((s.blockedUntil - now) / 1000) };
    if (s.inflight + 1 > this.limits.maxConcurrent) return this.refuse(s, now, 'concurrency');
    s.inflight++;
    s.requests++;
    s.peakInflight = Math.max(s.peakInflight, s.inflight);
    let done = false;
    return {
      ok: true,
      release: () => {
        if (!done) s.inflight--;
        done = true;
      },
    };
  }

  /**
   * Charges a served request's service time and points. Returns a refusal when the identity's CPU or
   * points in the last 60 s of its busy time exceed a limit (the request is answered with a secondary
   * limit instead of its data, as GitHub does).
   */
  charge(
    identity: string,
    now: number,
    serviceMs: number,
    gql: boolean,
    points: number,
    inflight: number,
  ): LoadVerdict | null {
    const s = this.of(identity);
    s.busyMs += serviceMs / Math.max(1, inflight);
    s.serviceMs += serviceMs;
    s.samples.push({ at: s.busyMs, cpu: serviceMs * CPU_PER_SERVICE, gql, points });
    const from = s.busyMs - this.limits.windowMs;
    let i = 0;
    while (i < s.samples.length && (s.samples[i]?.at ?? 0) <= from) i++;
    if (i > 0) s.samples.splice(0, i);
    let cpu = 0;
    let gqlCpu = 0;
    let rest = 0;
    let gqlPts = 0;
    for (const x of s.samples) {
      cpu += x.cpu;
      if (x.gql) {
        gqlCpu += x.cpu;
        gqlPts += x.points;
      } else rest += x.points;
    }
    const L = this.limits;
    if (cpu > L.cpuMs) return this.refuse(s, now, 'cpu');
    if (gqlCpu > L.graphqlCpuMs) return this.refuse(s, now, 'graphql cpu');
    if (rest > L.restPoints) return this.refuse(s, now, 'rest points');
    if (gqlPts > L.graphqlPoints) return this.refuse(s, now, 'graphql points');
    return null;
  }

  private refuse(s: IdentityLoad, now: number, reason: string): LoadVerdict {
    s.secondary++;
    s.blockedUntil = now + this.limits.retryAfter * 1000;
    s.penaltyMs += this.limits.retryAfter * 1000;
    // The minute that tripped the limit is over once the wait is served.
    s.samples = [];
    return { ok: false, reason, retryAfter: this.limits.retryAfter };
  }
}
