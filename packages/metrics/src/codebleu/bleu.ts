/**
 * The two n-gram components of CodeBLEU: corpus BLEU with smoothing method1 (`codebleu/bleu.py`, equal to
 * nltk's `corpus_bleu`) and the keyword-weighted n-gram *recall* of `weighted_ngram_match.py`, quirks kept.
 */

const SEP = '\x1f'; // Python whitespace: never inside a whitespace-split token

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

/** N-gram counts (n = 1..4) of one token list; keys are numbers when the vocabulary is small. */
type Counts4 = [
  Map<string, number>,
  Map<number | string, number>,
  Map<number | string, number>,
  Map<number | string, number>,
];

/** Counts of a sample's hypothesis and references, computed once and shared by both n-gram components. */
interface SampleCounts {
  hyp: Counts4;
  refs: Counts4[];
  hypLen: number;
  refLens: number[];
}

function countsOf(tokens: readonly string[], ids: Map<string, number>, big: boolean): Counts4 {
  const id = new Int32Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    let v = ids.get(t);
    if (v === undefined) {
      v = ids.size;
      ids.set(t, v);
    }
    id[i] = v;
  }
  const uni = new Map<string, number>();
  for (const t of tokens) uni.set(t, (uni.get(t) ?? 0) + 1);
  const out: Counts4 = [uni, new Map(), new Map(), new Map()];
  for (let n = 2; n <= 4; n++) {
    const m = out[n - 1] as Map<number | string, number>;
    for (let i = 0; i + n <= tokens.length; i++) {
      let key: number | string;
      if (big) key = tokens.slice(i, i + n).join(SEP);
      else {
        key = 0;
        for (let j = 0; j < n; j++) key = key * 8192 + (id[i + j] as number);
      }
      m.set(key, (m.get(key) ?? 0) + 1);
    }
  }
  return out;
}

/** Precomputes the n-gram counts of every sample (token ids per sample keep 4-gram keys exact numbers). */
export function sampleCounts(samples: readonly TokenSample[]): SampleCounts[] {
  return samples.map(({ hyp, refs }) => {
    const ids = new Map<string, number>();
    let vocab = hyp.length;
    for (const r of refs) vocab += r.length;
    const big = vocab >= 8192;
    return {
      hyp: countsOf(hyp, ids, big),
      refs: refs.map((r) => countsOf(r, ids, big)),
      hypLen: hyp.length,
      refLens: refs.map((r) => r.length),
    };
  });
}

const W4 = [0.25, 0.25, 0.25, 0.25] as const;

/** CodeBLEU's `bleu.corpus_bleu` (nltk corpus BLEU, method1, weights 0.25×4). */
export function corpusNgramMatch(samples: readonly SampleCounts[]): number {
  const nums = [0, 0, 0, 0];
  const dens = [0, 0, 0, 0];
  let hypLen = 0;
  let refLen = 0;
  for (const s of samples) {
    for (let n = 1; n <= 4; n++) {
      const counts = s.hyp[n - 1] as Map<number | string, number>;
      let num = 0;
      let total = 0;
      for (const [g, c] of counts) {
        let max = 0;
        for (const r of s.refs) {
          const rc = (r[n - 1] as Map<number | string, number>).get(g) ?? 0;
          if (rc > max) max = rc;
        }
        num += Math.min(c, max);
        total += c;
      }
      nums[n - 1] = (nums[n - 1] as number) + num;
      dens[n - 1] = (dens[n - 1] as number) + Math.max(1, total);
    }
    hypLen += s.hypLen;
    refLen += closestRefLength(s.refLens, s.hypLen);
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
  samples: readonly SampleCounts[],
  keywords: ReadonlySet<string>,
  fixBrevity = false,
): number {
  const nums = [0, 0, 0, 0];
  const dens = [0, 0, 0, 0];
  let hypLen = 0;
  let refLen = 0;
  for (const s of samples) {
    for (const ref of s.refs) {
      const hu = s.hyp[0];
      let num = 0;
      let den = 0;
      for (const [g, c] of ref[0]) {
        const w = keywords.has(g) ? 1 : 0.2;
        num += Math.min(c, hu.get(g) ?? 0) * w;
        den += c * w;
      }
      nums[0] = (nums[0] as number) + num;
      dens[0] = (dens[0] as number) + Math.max(1, den);
      for (let n = 2; n <= 4; n++) {
        const hc = s.hyp[n - 1] as Map<number | string, number>;
        let m = 0;
        let total = 0;
        for (const [g, c] of ref[n - 1] as Map<number | string, number>) {
          m += Math.min(c, hc.get(g) ?? 0);
          total += c;
        }
        nums[n - 1] = (nums[n - 1] as number) + m;
        dens[n - 1] = (dens[n - 1] as number) + Math.max(1, total);
      }
    }
    hypLen += s.hypLen;
    refLen += fixBrevity ? closestRefLength(s.refLens, s.hypLen) : 2;
  }
  return combine(nums, dens, brevityPenalty(refLen, hypLen), W4);
}
