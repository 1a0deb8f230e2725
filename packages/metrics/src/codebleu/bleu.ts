/**
 * The two n-gram components of CodeBLEU: corpus BLEU with smoothing method1 (`codebleu/bleu.py`, equal to
 * nltk's `corpus_bleu`) and the keyword-weighted n-gram *recall* of `weighted_ngram_match.py`, quirks kept.
 */

const SEP = '\x1f'; // Python whitespace: never inside a whitespace-split token

/** Counts of the n-grams of `tokens` in first-occurrence order. */
export function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = n === 1 ? (tokens[i] as string) : tokens.slice(i, i + n).join(SEP);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Exactly rounded sum (Shewchuk), like Python's `math.fsum`. */
export function fsum(values: readonly number[]): number {
  const partials: number[] = [];
  for (let x of values) {
    let i = 0;
    for (let y of partials) {
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    partials.push(x);
  }
  return partials.reduce((a, b) => a + b, 0);
}

/** nltk `closest_ref_length`: the reference length closest to `hypLen`, ties to the shorter. */
function closestRefLength(refLens: readonly number[], hypLen: number): number {
  let best = refLens[0] ?? 0;
  for (const r of refLens) {
    const d = Math.abs(r - hypLen);
    const bd = Math.abs(best - hypLen);
    if (d < bd || (d === bd && r < best)) best = r;
  }
  return best;
}

function brevityPenalty(refLen: number, hypLen: number): number {
  if (hypLen > refLen) return 1;
  if (hypLen === 0) return 0;
  return Math.exp(1 - refLen / hypLen);
}

/** BLEU from summed numerators/denominators: 0 without unigram matches, else method1 and BP·exp(Σ w ln p). */
function combine(nums: number[], dens: number[], bp: number, weights: readonly number[]): number {
  if (nums[0] === 0) return 0;
  const terms = weights.map((w, i) => {
    const num = nums[i] as number;
    return w * Math.log((num === 0 ? 0.1 : num) / (dens[i] as number));
  });
  return bp * Math.exp(fsum(terms));
}

/** Tokenized sample: hypothesis tokens and one or more reference token lists. */
export interface TokenSample {
  hyp: readonly string[];
  refs: readonly (readonly string[])[];
}

const W4 = [0.25, 0.25, 0.25, 0.25] as const;

/** CodeBLEU's `bleu.corpus_bleu` (nltk corpus BLEU, method1, weights 0.25×4). */
export function corpusNgramMatch(samples: readonly TokenSample[]): number {
  const nums = [0, 0, 0, 0];
  const dens = [0, 0, 0, 0];
  let hypLen = 0;
  let refLen = 0;
  for (const { hyp, refs } of samples) {
    for (let n = 1; n <= 4; n++) {
      const counts = ngramCounts(hyp, n);
      const maxRef = new Map<string, number>();
      for (const ref of refs) {
        const rc = ngramCounts(ref, n);
        for (const g of counts.keys()) maxRef.set(g, Math.max(maxRef.get(g) ?? 0, rc.get(g) ?? 0));
      }
      let num = 0;
      let total = 0;
      for (const [g, c] of counts) {
        num += Math.min(c, maxRef.get(g) ?? 0);
        total += c;
      }
      nums[n - 1] = (nums[n - 1] as number) + num;
      dens[n - 1] = (dens[n - 1] as number) + Math.max(1, total);
    }
    hypLen += hyp.length;
    refLen += closestRefLength(
      refs.map((r) => r.length),
      hyp.length,
    );
  }
  return combine(nums, dens, brevityPenalty(refLen, hypLen), W4);
}

/**
 * CodeBLEU's `weighted_ngram_match.corpus_bleu`: a recall over each reference (references add up), unigrams
 * weighted 1 for keywords and 0.2 otherwise, `max(1, ·)` denominators per reference, and a brevity penalty
 * whose reference length is 2 per sample (the reference passes `[tokens, weights]` pairs) unless
 * `fixBrevity` is set.
 */
export function corpusWeightedNgramMatch(
  samples: readonly TokenSample[],
  keywords: ReadonlySet<string>,
  fixBrevity = false,
): number {
  const nums = [0, 0, 0, 0];
  const dens = [0, 0, 0, 0];
  let hypLen = 0;
  let refLen = 0;
  for (const { hyp, refs } of samples) {
    for (let n = 1; n <= 4; n++) {
      const counts = ngramCounts(hyp, n);
      for (const ref of refs) {
        const rc = ngramCounts(ref, n);
        if (n === 1) {
          let num = 0;
          let den = 0;
          for (const [g, c] of rc) {
            const w = keywords.has(g) ? 1 : 0.2;
            num += Math.min(c, counts.get(g) ?? 0) * w;
            den += c * w;
          }
          nums[0] = (nums[0] as number) + num;
          dens[0] = (dens[0] as number) + Math.max(1, den);
        } else {
          let num = 0;
          let total = 0;
          for (const [g, c] of rc) {
            num += Math.min(c, counts.get(g) ?? 0);
            total += c;
          }
          nums[n - 1] = (nums[n - 1] as number) + num;
          dens[n - 1] = (dens[n - 1] as number) + Math.max(1, total);
        }
      }
    }
    hypLen += hyp.length;
    refLen += fixBrevity
      ? closestRefLength(
          refs.map((r) => r.length),
          hyp.length,
        )
      : 2;
  }
  return combine(nums, dens, brevityPenalty(refLen, hypLen), W4);
}
