/**
 * Seeded, stateless randomness for the fake corpus: every value is a pure function of a key
 * (seed, repo, block, salt), so any entry can be generated on its own, in any order, at any scale.
 */
import { mulberry32 } from '@faun/kit/random';

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
  private readonly draw: () => number;
  constructor(key: string) {
    this.draw = mulberry32(fnv1a(key) || 1);
  }
  /** Uniform in [0, 1). */
  next(): number {
    return this.draw();
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
