/**
 * Seeded, stateless randomness for the fake corpus: every value is a pure function of a key
 * (seed, repo, block, salt), so any entry can be generated on its own, in any order, at any scale.
 */

/** 32-bit FNV-1a over a string. */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A small deterministic generator (mulberry32) seeded from a key. */
export class Rng {
  private state: number;
  constructor(key: string) {
    this.state = fnv1a(key) || 1;
  }
  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    const x = xs[Math.floor(this.next() * xs.length)];
    if (x === undefined) throw new Error('pick from an empty list');
    return x;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** Deterministic 40-hex "sha" for a key. */
export function fakeSha(key: string): string {
  let out = '';
  for (let i = 0; out.length < 40; i++) out += fnv1a(`${key}#${i}`).toString(16).padStart(8, '0');
  return out.slice(0, 40);
}
