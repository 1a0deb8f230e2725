/**
 * ROUGE-1 / ROUGE-L F-measure as rouge-score 0.1.2: its tokenizer (lowercase, non-[a-z0-9] → space,
 * optional nltk Porter stemming of tokens longer than 3), `score(target, prediction)` with the target
 * first, multi-reference = the target with the highest F (first on ties).
 * @module
 */
import { lcsLength } from '../distance/lcs.ts';
import { porterStem } from './porter.ts';

export interface RougeOptions {
  /** Porter-stem tokens longer than 3 characters (rouge-score `use_stemmer`); default false. */
  stem?: boolean;
}

export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
}

const NON_ALNUM = /[^a-z0-9]+/g;
const SPACES = /\s+/;
const VALID = /^[a-z0-9]+$/;

/** rouge-score `tokenize.tokenize(text, stemmer)`. */
export function rougeTokenize(text: string, opts: RougeOptions = {}): string[] {
  const t = text.toLowerCase().replace(NON_ALNUM, ' ');
  let toks = t.split(SPACES);
  if (opts.stem) toks = toks.map((x) => (x.length > 3 ? porterStem(x) : x));
  return toks.filter((x) => VALID.test(x));
}

const fmeasure = (p: number, r: number) => (p + r > 0 ? (2 * p * r) / (p + r) : 0);

function rougeNTokens(target: string[], pred: string[], n: number): RougeScore {
  const count = (toks: string[]) => {
    const m = new Map<string, number>();
    for (let i = 0; i + n <= toks.length; i++) {
      const g = n === 1 ? toks[i]! : toks.slice(i, i + n).join(' ');
      m.set(g, (m.get(g) ?? 0) + 1);
    }
    return m;
  };
  const t = count(target);
  const p = count(pred);
  let inter = 0;
  for (const [g, c] of t) {
    const pc = p.get(g);
    if (pc !== undefined) inter += Math.min(c, pc);
  }
  const tc = Math.max(target.length - n + 1, 0);
  const pcount = Math.max(pred.length - n + 1, 0);
  const precision = inter / Math.max(pcount, 1);
  const recall = inter / Math.max(tc, 1);
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

function rougeLTokens(target: string[], pred: string[]): RougeScore {
  if (target.length === 0 || pred.length === 0) return { precision: 0, recall: 0, fmeasure: 0 };
  const dict = new Map<string, number>();
  const ids = (toks: string[]) => {
    const out = new Int32Array(toks.length);
    toks.forEach((t, i) => {
      let id = dict.get(t);
      if (id === undefined) dict.set(t, (id = dict.size));
      out[i] = id;
    });
    return out;
  };
  const lcs = lcsLength(ids(target), ids(pred));
  const precision = lcs / pred.length;
  const recall = lcs / target.length;
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

function best(scores: RougeScore[]): RougeScore {
  let b = scores[0] ?? { precision: 0, recall: 0, fmeasure: 0 };
  for (const s of scores) if (s.fmeasure > b.fmeasure) b = s;
  return b;
}

const refsOf = (ref: string | readonly string[]) => (typeof ref === 'string' ? [ref] : ref);

/** ROUGE-N (default N = 1) of `hyp` against `ref` (or the best of several references). */
export function rougeN(hyp: string, ref: string | readonly string[], n = 1, opts: RougeOptions = {}) {
  const p = rougeTokenize(hyp, opts);
  return best(refsOf(ref).map((r) => rougeNTokens(rougeTokenize(r, opts), p, n)));
}

/** ROUGE-L (sentence-level LCS) of `hyp` against `ref` (or the best of several references). */
export function rougeL(hyp: string, ref: string | readonly string[], opts: RougeOptions = {}): RougeScore {
  const p = rougeTokenize(hyp, opts);
  return best(refsOf(ref).map((r) => rougeLTokens(rougeTokenize(r, opts), p)));
}

/** ROUGE-1 and ROUGE-L F-measures with one tokenisation of each text (faster than two calls). */
export function rouge1AndL(
  hyp: string,
  ref: string | readonly string[],
  opts: RougeOptions = {},
): { rouge1: number; rougeL: number } {
  const p = rougeTokenize(hyp, opts);
  const targets = refsOf(ref).map((r) => rougeTokenize(r, opts));
  return {
    rouge1: best(targets.map((t) => rougeNTokens(t, p, 1))).fmeasure,
    rougeL: best(targets.map((t) => rougeLTokens(t, p))).fmeasure,
  };
}

/** Arithmetic mean of values (0 for an empty list) — the corpus ROUGE value (not HF's bootstrap mid). */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}
