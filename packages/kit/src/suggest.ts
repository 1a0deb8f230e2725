/** "Did you mean …?" suggestions by Levenshtein distance. */
import { levenshtein } from './distance.ts';

export function suggest(input: string, candidates: readonly string[], max = 3): string[] {
  const scored = candidates
    .map((c) => ({ c, d: distance(input.toLowerCase(), c.toLowerCase()) }))
    .filter(({ c, d }) => d <= Math.max(2, Math.floor(c.length / 3)))
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c));
  return scored.slice(0, max).map((s) => s.c);
}

/** Levenshtein distance of two strings, by code point (the bit-parallel one of `./distance.ts`). */
function distance(a: string, b: string): number {
  const points = (s: string) => Int32Array.from(s, (c) => c.codePointAt(0) ?? 0);
  return levenshtein(points(a), points(b));
}

export function didYouMean(input: string, candidates: readonly string[]): string {
  const s = suggest(input, candidates);
  return s.length ? ` Did you mean ${s.map((x) => `'${x}'`).join(' or ')}?` : '';
}
