/** "Did you mean …?" suggestions by Levenshtein distance. */
export function suggest(input: string, candidates: readonly string[], max = 3): string[] {
  const scored = candidates
    .map((c) => ({ c, d: distance(input.toLowerCase(), c.toLowerCase()) }))
    .filter(({ c, d }) => d <= Math.max(2, Math.floor(c.length / 3)))
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c));
  return scored.slice(0, max).map((s) => s.c);
}

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

export function didYouMean(input: string, candidates: readonly string[]): string {
  const s = suggest(input, candidates);
  return s.length ? ` Did you mean ${s.map((x) => `'${x}'`).join(' or ')}?` : '';
}
