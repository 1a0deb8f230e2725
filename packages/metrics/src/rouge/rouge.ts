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

/**
 * The unstemmed rouge-score tokens of each text as interned ids, without building token strings:
 * lowercase (full Unicode, as Python), then every run of [a-z0-9] is a token.
 */
function rougeTokenIds(texts: readonly string[]): { ids: Int32Array[]; vocab: number } {
  const lower = texts.map((t) => t.toLowerCase());
  let chars = 0;
  for (const t of lower) chars += t.length;
  let cap = 16;
  while (cap < chars + 16) cap <<= 1;
  const mask = cap - 1;
  const table = new Int32Array(cap);
  const tokText = new Int32Array((chars >>> 1) + 2 + texts.length);
  const tokStart = new Int32Array(tokText.length);
  const tokEnd = new Int32Array(tokText.length);
  let vocab = 0;
  const isTok = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
  const ids = lower.map((s, ti) => {
    const out = new Int32Array((s.length >>> 1) + 1);
    let n = 0;
    let i = 0;
    while (i < s.length) {
      while (i < s.length && !isTok(s.charCodeAt(i))) i++;
      if (i >= s.length) break;
      const start = i;
      let h = 0x811c9dc5;
      while (i < s.length) {
        const c = s.charCodeAt(i);
        if (!isTok(c)) break;
        h = Math.imul(h ^ c, 0x01000193);
        i++;
      }
      let slot = (h ^ (h >>> 15)) & mask;
      for (;;) {
        const cand = table[slot]!;
        if (cand === 0) {
          table[slot] = ++vocab;
          tokText[vocab] = ti;
          tokStart[vocab] = start;
          tokEnd[vocab] = i;
          out[n++] = vocab - 1;
          break;
        }
        const cs = tokStart[cand]!;
        if (tokEnd[cand]! - cs === i - start) {
          const other = lower[tokText[cand]!]!;
          let k = 0;
          while (k < i - start && other.charCodeAt(cs + k) === s.charCodeAt(start + k)) k++;
          if (k === i - start) {
            out[n++] = cand - 1;
            break;
          }
        }
        slot = (slot + 1) & mask;
      }
    }
    return out.subarray(0, n);
  });
  return { ids, vocab };
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

/** ROUGE-1 and ROUGE-L F of one target, from token ids (one interning pass, count arrays, bit-parallel LCS). */
function rouge1AndLIds(target: Int32Array, pred: Int32Array, vocab: number): [number, number] {
  if (target.length === 0 || pred.length === 0) return [0, 0];
  const counts = new Int32Array(vocab);
  for (let i = 0; i < target.length; i++) counts[target[i]!]!++;
  let inter = 0;
  for (let i = 0; i < pred.length; i++) {
    const id = pred[i]!;
    if (counts[id]! > 0) {
      counts[id]!--;
      inter++;
    }
  }
  const r1 = fmeasure(inter / pred.length, inter / target.length);
  const lcs = lcsLength(target, pred);
  return [r1, fmeasure(lcs / pred.length, lcs / target.length)];
}

/** ROUGE-1 and ROUGE-L F-measures with one tokenisation of each text (faster than two calls). */
export function rouge1AndL(
  hyp: string,
  ref: string | readonly string[],
  opts: RougeOptions = {},
): { rouge1: number; rougeL: number } {
  const refs = refsOf(ref);
  let all: Int32Array[];
  let vocab: number;
  if (opts.stem) {
    const dict = new Map<string, number>();
    all = [hyp, ...refs].map((text) => {
      const toks = rougeTokenize(text, opts);
      const out = new Int32Array(toks.length);
      for (let i = 0; i < toks.length; i++) {
        let id = dict.get(toks[i]!);
        if (id === undefined) dict.set(toks[i]!, (id = dict.size));
        out[i] = id;
      }
      return out;
    });
    vocab = dict.size;
  } else ({ ids: all, vocab } = rougeTokenIds([hyp, ...refs]));
  const p = all[0]!;
  let r1 = refs.length ? -1 : 0;
  let rl = refs.length ? -1 : 0;
  for (const t of all.slice(1)) {
    const [a, b] = rouge1AndLIds(t, p, vocab);
    if (a > r1) r1 = a;
    if (b > rl) rl = b;
  }
  return { rouge1: r1, rougeL: rl };
}
