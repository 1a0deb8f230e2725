/**
 * sacrebleu 2.6.0 BLEU: the `13a` tokenizer, `exp` smoothing, effective order for sentences, corpus
 * statistics summed. Scores are returned in [0, 1] (sacrebleu prints them ×100).
 * @module
 */
import { pyRstrip, pySplit } from '../py.ts';
import { clippedAllOrders, closestRefLength, internTokens } from './ngrams.ts';

/** The four mteval-v13a regexes (also used by CodeXGLUE's NIST `normalize`). */
export const MTEVAL_RULES: readonly [RegExp, string][] = [
  [/([{-~[-` -&(-+:-@/])/gu, ' $1 '],
  [/([^0-9])([.,])/gu, '$1 $2 '],
  [/([.,])([^0-9])/gu, ' $1 $2'],
  [/([0-9])(-)/gu, '$1 $2 '],
];

/** Applies the mteval regexes in order (each is a Python `re.sub`: non-overlapping, left to right). */
export function applyMtevalRules(line: string): string {
  let s = line;
  for (const [re, rep] of MTEVAL_RULES) s = s.replace(re, rep);
  return s;
}

/** sacrebleu `Tokenizer13a`: returns the tokens. */
export function tokenize13a(line: string): string[] {
  let s = line.replaceAll('<skipped>', '').replaceAll('-\n', '').replaceAll('\n', ' ');
  if (s.includes('&'))
    s = s.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>');
  return pySplit(applyMtevalRules(` ${s} `));
}

export interface SacreBleuOptions {
  /** Stop at the first order with no hypothesis n-grams (sacrebleu's default for sentences). */
  effectiveOrder?: boolean;
  maxOrder?: number;
  lowercase?: boolean;
}

interface Stats {
  sysLen: number;
  refLen: number;
  correct: number[];
  total: number[];
}

function stats(hyp: string, refs: readonly string[], maxOrder: number, lowercase: boolean): Stats {
  const prep = (s: string) => tokenize13a(pyRstrip(lowercase ? s.toLowerCase() : s));
  const h = prep(hyp);
  const rs = refs.map(prep);
  const it = internTokens(h, rs);
  const { matches: correct, totals: total } = clippedAllOrders(it.hyp, it.refs, maxOrder, it.base);
  return {
    sysLen: h.length,
    refLen: closestRefLength(
      rs.map((r) => r.length),
      h.length,
    ),
    correct,
    total,
  };
}

const myLog = (x: number) => (x === 0 ? -9999999999 : Math.log(x));

function computeBleu(s: Stats, maxOrder: number, effectiveOrder: boolean): number {
  if (!s.correct.some((c) => c > 0)) return 0;
  const precisions = new Array<number>(maxOrder).fill(0);
  let smoothMteval = 1;
  let effOrder = maxOrder;
  for (let n = 1; n <= maxOrder; n++) {
    const total = s.total[n - 1]!;
    if (total === 0) break;
    if (effectiveOrder) effOrder = n;
    const correct = s.correct[n - 1]!;
    if (correct === 0) {
      smoothMteval *= 2;
      precisions[n - 1] = 100 / (smoothMteval * total);
    } else precisions[n - 1] = (100 * correct) / total;
  }
  const bp = s.sysLen < s.refLen ? (s.sysLen > 0 ? Math.exp(1 - s.refLen / s.sysLen) : 0) : 1;
  let sum = 0;
  for (const p of precisions.slice(0, effOrder)) sum += myLog(p);
  return (bp * Math.exp(sum / effOrder)) / 100;
}

/** sacrebleu `sentence_bleu(hyp, refs)` (13a, exp smoothing, effective order) in [0, 1]. */
export function sacreSentenceBleu(
  hyp: string,
  refs: string | readonly string[],
  opts: SacreBleuOptions = {},
): number {
  const maxOrder = opts.maxOrder ?? 4;
  const r = typeof refs === 'string' ? [refs] : refs;
  return computeBleu(stats(hyp, r, maxOrder, opts.lowercase ?? false), maxOrder, opts.effectiveOrder ?? true);
}

/** sacrebleu `corpus_bleu(hyps, [refs...])`: statistics summed, no effective order; in [0, 1]. */
export function sacreCorpusBleu(
  hyps: readonly string[],
  refs: readonly (string | readonly string[])[],
  opts: SacreBleuOptions = {},
): number {
  if (hyps.length !== refs.length)
    throw new Error('sacreCorpusBleu: hyps and refs must have the same length');
  const maxOrder = opts.maxOrder ?? 4;
  const acc: Stats = {
    sysLen: 0,
    refLen: 0,
    correct: new Array(maxOrder).fill(0),
    total: new Array(maxOrder).fill(0),
  };
  hyps.forEach((h, i) => {
    const r = refs[i]!;
    const s = stats(h, typeof r === 'string' ? [r] : r, maxOrder, opts.lowercase ?? false);
    acc.sysLen += s.sysLen;
    acc.refLen += s.refLen;
    for (let n = 0; n < maxOrder; n++) {
      acc.correct[n]! += s.correct[n]!;
      acc.total[n]! += s.total[n]!;
    }
  });
  return computeBleu(acc, maxOrder, opts.effectiveOrder ?? false);
}
