/**
 * Token buckets for rate limiting, one per key (or client address). The map is bounded: past `maxEntries`
 * the least recently used bucket is dropped (it refills as if new), so a flood of addresses cannot grow
 * memory or wipe every other bucket at once.
 */

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  /** The most recently used key (the last of the map). */
  private last: string | undefined;

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly maxEntries = 100_000,
  ) {}

  get size(): number {
    return this.buckets.size;
  }

  /** The bucket of `key` refilled to now (moved to the most recently used end). */
  private bucket(key: string, ratePerSec: number, burst: number): Bucket {
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: burst, at: t };
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 1000) * ratePerSec);
    b.at = t;
    if (key !== this.last) {
      // moved to the most recently used end (already there when the same key asks again)
      this.buckets.delete(key);
      this.buckets.set(key, b);
      this.last = key;
    }
    while (this.buckets.size > this.maxEntries) this.buckets.delete(this.buckets.keys().next().value!);
    return b;
  }

  /**
   * Takes one token from `key`'s bucket (refilled at `ratePerSec`, capped at `burst`). Returns 0 when
   * allowed, else the seconds to wait before a token is available.
   */
  take(key: string, ratePerSec: number, burst: number): number {
    const b = this.bucket(key, ratePerSec, burst);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return ratePerSec > 0 ? (1 - b.tokens) / ratePerSec : 60;
  }

  /** Seconds until `key` has a token again, without taking one (0: it has one now). */
  peek(key: string, ratePerSec: number, burst: number): number {
    const b = this.bucket(key, ratePerSec, burst);
    if (b.tokens >= 1) return 0;
    return ratePerSec > 0 ? (1 - b.tokens) / ratePerSec : 60;
  }
}
