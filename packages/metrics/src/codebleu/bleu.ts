/**
 * The two n-gram components of CodeBLEU: corpus BLEU with smoothing method1 (`codebleu/bleu.py`, equal to
 * nltk's `corpus_bleu`) and the keyword-weighted n-gram *recall* of `weighted_ngram_match.py`, quirks kept.
 */

import { fsum } from '../py.ts';

const SEP = '\x1f'; // Python whitespace: never inside a whitespace-split token

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

/**
 * What both n-gram components need from one sample, computed once: for BLEU the clipped matches and the
 * hypothesis n-gram count per order; for the weighted recall, per reference, the weighted unigram sums (in
 * the reference's first-occurrence order, so float sums come out bit-identical) and the n ≥ 2 matches/totals.
 */
export interface SampleCounts {
  /** BLEU: Σ min(count, max reference count) and Σ count over hypothesis n-grams, n = 1..4. */
  clipped: number[];
  total: number[];
  /** Weighted recall per reference: [num1, den1, m2, t2, m3, t3, m4, t4]. */
  recall: number[][];
  hypLen: number;
  refLens: number[];
}

/** Token ids shared by the hypothesis and references of one sample. */
function toIds(tokens: readonly string[], ids: Map<string, number>): Int32Array {
  const out = new Int32Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    let v = ids.get(t);
    if (v === undefined) {
      v = ids.size;
      ids.set(t, v);
    }
    out[i] = v;
  }
  return out;
}

/** Sorted distinct n-gram keys (exact numbers: ids < 8192, n ≤ 4) and their counts. */
interface Grams {
  keys: Float64Array;
  counts: Int32Array;
  size: number;
}

function grams(id: Int32Array, n: number): Grams {
  const m = Math.max(0, id.length - n + 1);
  const all = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let key = 0;
    for (let j = 0; j < n; j++) key = key * 8192 + (id[i + j] as number);
    all[i] = key;
  }
  all.sort();
  const keys = new Float64Array(m);
  const counts = new Int32Array(m);
  let size = 0;
  for (let i = 0; i < m; i++) {
    if (size > 0 && keys[size - 1] === all[i]) counts[size - 1] = (counts[size - 1] as number) + 1;
    else {
      keys[size] = all[i] as number;
      counts[size++] = 1;
    }
  }
  return { keys, counts, size };
}

/** For each distinct key of `a`, its count in `b` (both sorted), written to `out`. */
function alignCounts(a: Grams, b: Grams, out: Int32Array): void {
  let j = 0;
  for (let i = 0; i < a.size; i++) {
    const k = a.keys[i] as number;
    while (j < b.size && (b.keys[j] as number) < k) j++;
    out[i] = j < b.size && b.keys[j] === k ? (b.counts[j] as number) : 0;
  }
}

function unigramCounts(id: Int32Array, vocab: number): Int32Array {
  const c = new Int32Array(vocab);
  for (let i = 0; i < id.length; i++) c[id[i] as number] = (c[id[i] as number] as number) + 1;
  return c;
}

function smallSample(
  hyp: readonly string[],
  refs: readonly (readonly string[])[],
  kw: ReadonlySet<string>,
): SampleCounts {
  const ids = new Map<string, number>();
  const hid = toIds(hyp, ids);
  const rids = refs.map((r) => toIds(r, ids));
  const vocab = ids.size;
  const hu = unigramCounts(hid, vocab);
  const rus = rids.map((r) => unigramCounts(r, vocab));
  const clipped = [0, 0, 0, 0];
  const total = [0, 0, 0, 0];
  // unigrams: each distinct hypothesis token once
  const seen = new Uint8Array(vocab);
  for (let i = 0; i < hid.length; i++) {
    const t = hid[i] as number;
    if (seen[t]) continue;
    seen[t] = 1;
    let max = 0;
    for (const ru of rus) if ((ru[t] as number) > max) max = ru[t] as number;
    clipped[0] = (clipped[0] as number) + Math.min(hu[t] as number, max);
  }
  total[0] = hid.length;
  const tokens = [...ids.keys()];
  const recall = rids.map((rid, r) => {
    const ru = rus[r] as Int32Array;
    const rseen = new Uint8Array(vocab);
    let num = 0;
    let den = 0;
    for (let i = 0; i < rid.length; i++) {
      const t = rid[i] as number;
      if (rseen[t]) continue;
      rseen[t] = 1;
      const c = ru[t] as number;
      const w = kw.has(tokens[t] as string) ? 1 : 0.2;
      num += Math.min(c, hu[t] as number) * w;
      den += c * w;
    }
    return [num, den, 0, 0, 0, 0, 0, 0];
  });
  for (let n = 2; n <= 4; n++) {
    const hg = grams(hid, n);
    const max = new Int32Array(hg.size);
    const tmp = new Int32Array(hg.size);
    rids.forEach((rid, r) => {
      const rg = grams(rid, n);
      alignCounts(hg, rg, tmp);
      for (let i = 0; i < hg.size; i++)
        if ((tmp[i] as number) > (max[i] as number)) max[i] = tmp[i] as number;
      // recall over the reference's n-grams: Σ min(ref count, hyp count)
      const back = new Int32Array(rg.size);
      alignCounts(rg, hg, back);
      let m = 0;
      for (let i = 0; i < rg.size; i++) m += Math.min(rg.counts[i] as number, back[i] as number);
      const rec = recall[r] as number[];
      rec[2 * n - 2] = m;
      rec[2 * n - 1] = Math.max(0, rid.length - n + 1);
    });
    let num = 0;
    for (let i = 0; i < hg.size; i++) num += Math.min(hg.counts[i] as number, max[i] as number);
    clipped[n - 1] = num;
    total[n - 1] = Math.max(0, hid.length - n + 1);
  }
  return { clipped, total, recall, hypLen: hyp.length, refLens: refs.map((r) => r.length) };
}

/** Map-based counts for samples whose vocabulary could overflow numeric keys. */
function mapCounts(tokens: readonly string[], n: number): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = n === 1 ? (tokens[i] as string) : tokens.slice(i, i + n).join(SEP);
    m.set(key, (m.get(key) ?? 0) + 1);
  }
  return m;
}

function bigSample(
  hyp: readonly string[],
  refs: readonly (readonly string[])[],
  kw: ReadonlySet<string>,
): SampleCounts {
  const clipped = [0, 0, 0, 0];
  const total = [0, 0, 0, 0];
  const recall = refs.map(() => [0, 0, 0, 0, 0, 0, 0, 0]);
  for (let n = 1; n <= 4; n++) {
    const hc = mapCounts(hyp, n);
    const rcs = refs.map((r) => mapCounts(r, n));
    for (const [g, c] of hc) {
      let max = 0;
      for (const rc of rcs) max = Math.max(max, rc.get(g) ?? 0);
      clipped[n - 1] = (clipped[n - 1] as number) + Math.min(c, max);
      total[n - 1] = (total[n - 1] as number) + c;
    }
    rcs.forEach((rc, r) => {
      const rec = recall[r] as number[];
      let num = 0;
      let den = 0;
      for (const [g, c] of rc) {
        const w = n > 1 ? 1 : kw.has(g) ? 1 : 0.2;
        num += Math.min(c, hc.get(g) ?? 0) * w;
        den += c * w;
      }
      rec[2 * n - 2] = num;
      rec[2 * n - 1] = den;
    });
  }
  return { clipped, total, recall, hypLen: hyp.length, refLens: refs.map((r) => r.length) };
}

/**
 * Precomputes what the two n-gram components need of every sample; `keywords` weigh the unigrams of the
 * weighted recall.
 */
export function sampleCounts(samples: readonly TokenSample[], keywords: ReadonlySet<string>): SampleCounts[] {
  return samples.map(({ hyp, refs }) => {
    let vocab = hyp.length;
    for (const r of refs) vocab += r.length;
    return vocab >= 8192 ? bigSample(hyp, refs, keywords) : smallSample(hyp, refs, keywords);
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
    for (let n = 0; n < 4; n++) {
      nums[n] = (nums[n] as number) + (s.clipped[n] as number);
      dens[n] = (dens[n] as number) + Math.max(1, s.total[n] as number);
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
export function corpusWeightedNgramMatch(samples: readonly SampleCounts[], fixBrevity = false): number {
  const nums = [0, 0, 0, 0];
  const dens = [0, 0, 0, 0];
  let hypLen = 0;
  let refLen = 0;
  for (const s of samples) {
    for (const rec of s.recall) {
      for (let n = 0; n < 4; n++) {
        nums[n] = (nums[n] as number) + (rec[2 * n] as number);
        dens[n] = (dens[n] as number) + Math.max(1, rec[2 * n + 1] as number);
      }
    }
    hypLen += s.hypLen;
    refLen += fixBrevity ? closestRefLength(s.refLens, s.hypLen) : 2;
  }
  return combine(nums, dens, brevityPenalty(refLen, hypLen), W4);
}
