/**
 * Python `difflib.SequenceMatcher(None, a, b).ratio()` (autojunk on): Ratcliff–Obershelp matching
 * blocks, with b's "popular" elements (more than len(b)//100 + 1 occurrences when len(b) ≥ 200)
 * excluded from match seeds. This is fuzzywuzzy's backend when python-Levenshtein is absent.
 * @module
 */

function matchedCount(a: Int32Array, b: Int32Array): number {
  const b2j = new Map<number, number[]>();
  for (let j = 0; j < b.length; j++) {
    const c = b[j]!;
    const l = b2j.get(c);
    if (l) l.push(j);
    else b2j.set(c, [j]);
  }
  if (b.length >= 200) {
    const ntest = Math.floor(b.length / 100) + 1;
    for (const [c, idx] of [...b2j]) if (idx.length > ntest) b2j.delete(c);
  }
  const longest = (alo: number, ahi: number, blo: number, bhi: number): [number, number, number] => {
    let besti = alo;
    let bestj = blo;
    let bestsize = 0;
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of b2j.get(a[i]!) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestsize) {
          besti = i - k + 1;
          bestj = j - k + 1;
          bestsize = k;
        }
      }
      j2len = next;
    }
    // No junk set (isjunk is None): extend over equal elements, popular ones included.
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) {
      besti--;
      bestj--;
      bestsize++;
    }
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize])
      bestsize++;
    return [besti, bestj, bestsize];
  };
  let matched = 0;
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  while (queue.length) {
    const [alo, ahi, blo, bhi] = queue.pop()!;
    const [i, j, k] = longest(alo, ahi, blo, bhi);
    if (k) {
      matched += k;
      if (alo < i && blo < j) queue.push([alo, i, blo, j]);
      if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
    }
  }
  return matched;
}

/** `difflib.SequenceMatcher(None, a, b).ratio()` on code-point sequences. */
export function difflibRatio(a: Int32Array, b: Int32Array): number {
  const total = a.length + b.length;
  return total === 0 ? 1 : (2 * matchedCount(a, b)) / total;
}
