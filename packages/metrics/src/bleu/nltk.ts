/**
 * nltk 3.8 `corpus_bleu` / `sentence_bleu` with `SmoothingFunction` methods 0–5 and 7, quirks kept:
 * the unigram-zero early return, precisions that are still 0 after smoothing are dropped, denominators
 * are `max(1, count)`, method4/7 use the corpus hypothesis length, method5 can exceed 1.
 * @module
 */
import { FLOAT_MIN, fsum, pySplit } from '../py.ts';
import { splitAndIntern } from './intern.ts';
import { clippedAllOrders, closestRefLength, type Interned, internTokens } from './ngrams.ts';

/** nltk `SmoothingFunction().method<N>`; method6 is not supported (it asserts on real data). */
export type NltkSmoothing = 0 | 1 | 2 | 3 | 4 | 5 | 7;

export interface NltkBleuOptions {
  /** N-gram weights; default (0.25, 0.25, 0.25, 0.25). */
  weights?: readonly number[];
  /** Smoothing method; default 0 (nltk's default). The project default for QA is 1 (see `bleu`). */
  smoothing?: NltkSmoothing;
  /** `SmoothingFunction(epsilon, alpha, k)` parameters: defaults 0.1, 5, 5. */
  epsilon?: number;
  k?: number;
}

const DEFAULT_WEIGHTS = [0.25, 0.25, 0.25, 0.25] as const;

interface SentenceStats {
  num: number[];
  den: number[];
  hypLen: number;
  refLen: number;
}

function sentenceStats(refs: readonly (readonly string[])[], hyp: readonly string[], maxN: number) {
  return statsOf(internTokens(hyp, refs), maxN);
}

function statsOf(it: Interned, maxN: number): SentenceStats {
  const { matches, totals } = clippedAllOrders(it.hyp, it.refs, maxN, it.base);
  const num = matches;
  const den = totals.map((t) => Math.max(1, t));
  const stats: SentenceStats = {
    num,
    den,
    hypLen: it.hyp.length,
    refLen: closestRefLength(
      it.refs.map((r) => r.length),
      it.hyp.length,
    ),
  };
  return stats;
}

/**
 * nltk `corpus_bleu(list_of_references, hypotheses, weights, smoothing_function)` on token lists.
 * Returns a number in [0, 1] (method5/7 may exceed 1, as in nltk).
 */
export function nltkCorpusBleu(
  listOfReferences: readonly (readonly (readonly string[])[])[],
  hypotheses: readonly (readonly string[])[],
  opts: NltkBleuOptions = {},
): number {
  if (listOfReferences.length !== hypotheses.length)
    throw new Error('nltkCorpusBleu: the number of hypotheses and their reference sets must be the same');
  const maxN = (opts.weights ?? DEFAULT_WEIGHTS).length;
  return fromStats(
    hypotheses.map((h, s) => sentenceStats(listOfReferences[s]!, h, maxN)),
    listOfReferences[listOfReferences.length - 1] ?? [],
    hypotheses[hypotheses.length - 1] ?? [],
    opts,
  );
}

function fromStats(
  all: SentenceStats[],
  lastRefs: readonly (readonly string[])[],
  lastHyp: readonly string[],
  opts: NltkBleuOptions,
): number {
  const weights = opts.weights ?? DEFAULT_WEIGHTS;
  const maxN = weights.length;
  const num = new Array<number>(maxN).fill(0);
  const den = new Array<number>(maxN).fill(0);
  let hypLengths = 0;
  let refLengths = 0;
  for (const st of all) {
    for (let i = 0; i < maxN; i++) {
      num[i]! += st.num[i]!;
      den[i]! += st.den[i]!;
    }
    hypLengths += st.hypLen;
    refLengths += st.refLen;
  }
  const bp = hypLengths > refLengths ? 1 : hypLengths === 0 ? 0 : Math.exp(1 - refLengths / hypLengths);
  if (num[0] === 0) return 0;
  const p = smooth(opts, num, den, hypLengths, lastRefs, lastHyp);
  const terms: number[] = [];
  for (let i = 0; i < maxN; i++) {
    const pi = p[i]!;
    if (pi > 0) terms.push(weights[i]! * Math.log(pi));
  }
  return bp * Math.exp(fsum(terms));
}

/** nltk `sentence_bleu(references, hypothesis, ...)` = `corpus_bleu([references], [hypothesis], ...)`. */
export function nltkSentenceBleu(
  references: readonly (readonly string[])[],
  hypothesis: readonly string[],
  opts: NltkBleuOptions = {},
): number {
  return nltkCorpusBleu([references], [hypothesis], opts);
}

function smooth(
  opts: NltkBleuOptions,
  num: number[],
  den: number[],
  hypLen: number,
  lastRefs: readonly (readonly string[])[],
  lastHyp: readonly string[],
): number[] {
  const method = opts.smoothing ?? 0;
  const eps = opts.epsilon ?? 0.1;
  const k = opts.k ?? 5;
  const p = num.map((n, i) => n / den[i]!);
  const len = hypLen || lastHyp.length;
  switch (method) {
    case 0:
      return p.map((v, i) => (num[i] === 0 ? FLOAT_MIN : v));
    case 1:
      return p.map((v, i) => (num[i] === 0 ? (num[i]! + eps) / den[i]! : v));
    case 2:
      return p.map((v, i) => (i === 0 ? v : (num[i]! + 1) / (den[i]! + 1)));
    case 3: {
      let inc = 1;
      return p.map((v, i) => (num[i] === 0 ? 1 / (2 ** inc++ * den[i]!) : v));
    }
    case 4:
      return method4(p, num, den, len, k);
    case 5:
      return method5(p, lastRefs, lastHyp);
    case 7:
      return method5(method4(p, num, den, len, k), lastRefs, lastHyp);
    default:
      throw new Error(`unknown nltk smoothing method ${String(method)}; use 0-5 or 7`);
  }
}

function method4(p: number[], num: number[], den: number[], hypLen: number, k: number): number[] {
  let inc = 1;
  return p.map((v, i) => {
    if (num[i] === 0 && hypLen > 1) {
      const numerator = 1 / ((2 ** inc * k) / Math.log(hypLen));
      inc++;
      return numerator / den[i]!;
    }
    return v;
  });
}

function method5(p: number[], refs: readonly (readonly string[])[], hyp: readonly string[]): number[] {
  const st = sentenceStats(refs, hyp, 5);
  const plus = [...p, st.num[4]! / st.den[4]!];
  const out = [...p];
  let prev = (p[0] ?? 0) + 1;
  for (let i = 0; i < p.length; i++) {
    out[i] = (prev + p[i]! + plus[i + 1]!) / 3;
    prev = out[i]!;
  }
  return out;
}

/**
 * The project's default text BLEU: nltk sentence BLEU with smoothing method1 on whitespace tokens
 * (`str.split()`), one reference or several.
 */
export function bleu(hyp: string, ref: string | readonly string[], opts: NltkBleuOptions = {}): number {
  const refs = typeof ref === 'string' ? [ref] : ref;
  const o: NltkBleuOptions = { smoothing: 1, ...opts };
  const method = o.smoothing;
  if (method === 5 || method === 7)
    return nltkSentenceBleu(
      refs.map((r) => pySplit(r)),
      pySplit(hyp),
      o,
    );
  // Fast path: tokenise and intern in one pass (method5/7 need the token lists, above).
  const { ids, base } = splitAndIntern([hyp, ...refs]);
  const it: Interned = { hyp: ids[0]!, refs: ids.slice(1), base };
  return fromStats([statsOf(it, (o.weights ?? DEFAULT_WEIGHTS).length)], [], [], o);
}
