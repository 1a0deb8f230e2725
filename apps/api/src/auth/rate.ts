/** Per-key request rate limiting: one token bucket per key (or client address for anonymous reads). */

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /**
   * Takes one token from `key`'s bucket (refilled at `ratePerSec`, capped at `burst`). Returns 0 when
   * allowed, else the seconds to wait before a token is available.
   */
  take(key: string, ratePerSec: number, burst: number): number {
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: burst, at: t };
    b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 1000) * ratePerSec);
    b.at = t;
    this.buckets.set(key, b);
    if (this.buckets.size > 100_000) this.buckets.clear();
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return ratePerSec > 0 ? (1 - b.tokens) / ratePerSec : 60;
  }
}
