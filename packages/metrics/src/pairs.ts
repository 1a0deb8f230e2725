/**
 * Scoring one {hyp, ref} pair with a named metric family, producing the fields of the reference
 * vector files (`nltk_m1`, `rouge1_f`, `indel_ratio`, …). Used by `faun score-pairs` and the benchmark.
 * @module
 */
import { type NltkSmoothing, nltkSentenceBleu } from './bleu/nltk.ts';
import { sacreSentenceBleu } from './bleu/sacre.ts';
import { smoothBleu } from './bleu/smooth.ts';
import type { CodeLang } from './codebleu/index.ts';
import { CODEBLEU_FIELDS, codebleu } from './codebleu/index.ts';
import { fuzzRatio, indelRatio, levenshteinSim } from './editsim.ts';
import { exactMatch } from './em.ts';
import { pySplit } from './py.ts';
import { rouge1AndL, rougeL, rougeN } from './rouge/rouge.ts';

/** Metric families `score-pairs` accepts. */
export const PAIR_METRICS = [
  'bleu',
  'sacrebleu',
  'smooth-bleu',
  'rouge1',
  'rougeL',
  'editsim',
  'lev',
  'em',
  'codebleu',
  'all',
] as const;
export type PairMetric = (typeof PAIR_METRICS)[number];

/** Variants per family (`--variant`); the first is the default. */
export const PAIR_VARIANTS: Readonly<Record<string, readonly string[]>> = {
  bleu: ['m1', 'm0', 'm2', 'm3', 'm4', 'm5', 'm7'],
  rouge1: ['plain', 'stem'],
  rougeL: ['plain', 'stem'],
  editsim: ['indel', 'fuzz', 'difflib'],
  em: ['raw', 'strip', 'split'],
};

function nltk(hyp: string, ref: string, method: NltkSmoothing): number {
  return nltkSentenceBleu([pySplit(ref)], pySplit(hyp), { smoothing: method });
}

/** True when `metric` needs CodeBLEU for a line with (or without) a language. */
export function needsCodeBleu(metric: PairMetric, lang: string | undefined): boolean {
  return metric === 'codebleu' || (metric === 'all' && lang !== undefined);
}

/**
 * The vector-file fields of one pair. `lang` is required for `codebleu` (and used by `all` when
 * given); CodeBLEU must have been initialised for it. Scales follow the vector files: `indel_ratio`
 * and `fuzz_*` are 0–100, everything else 0–1.
 */
export function scorePair(
  metric: PairMetric,
  hyp: string,
  ref: string,
  opts: { variant?: string; lang?: CodeLang } = {},
): Record<string, number> {
  const v = opts.variant;
  const out: Record<string, number> = {};
  const all = metric === 'all';
  if (metric === 'bleu') {
    const method = Number((v ?? 'm1').slice(1)) as NltkSmoothing;
    out[`nltk_m${method}`] = nltk(hyp, ref, method);
  }
  if (all) {
    out.nltk_m1 = nltk(hyp, ref, 1);
    out.nltk_m4 = nltk(hyp, ref, 4);
  }
  if (all || metric === 'sacrebleu') out.sacre_sent = sacreSentenceBleu(hyp, ref);
  if (all || metric === 'smooth-bleu') out.cxg_smooth = smoothBleu(hyp, ref);
  if (all) {
    const plain = rouge1AndL(hyp, ref);
    const stem = rouge1AndL(hyp, ref, { stem: true });
    out.rouge1_f = plain.rouge1;
    out.rougeL_f = plain.rougeL;
    out.rouge1_f_stem = stem.rouge1;
    out.rougeL_f_stem = stem.rougeL;
  } else if (metric === 'rouge1' || metric === 'rougeL') {
    const stem = v === 'stem';
    const f = metric === 'rouge1' ? rougeN(hyp, ref, 1, { stem }) : rougeL(hyp, ref, { stem });
    out[`${metric}_f${stem ? '_stem' : ''}`] = f.fmeasure;
  }
  if (all || (metric === 'editsim' && (v ?? 'indel') === 'indel'))
    out.indel_ratio = 100 * indelRatio(hyp, ref);
  if (all || (metric === 'editsim' && v === 'fuzz')) out.fuzz_ratio_lev = fuzzRatio(hyp, ref);
  if (all || (metric === 'editsim' && v === 'difflib'))
    out.fuzz_ratio_difflib = fuzzRatio(hyp, ref, 'difflib');
  if (all || metric === 'lev') out.lev_sim = levenshteinSim(hyp, ref);
  if (all || (metric === 'em' && (v ?? 'raw') === 'raw')) out.em = exactMatch(hyp, ref);
  if (all || (metric === 'em' && v === 'strip')) out.em_strip = exactMatch(hyp, ref, 'strip');
  if (all || (metric === 'em' && v === 'split')) out.em_split = exactMatch(hyp, ref, 'split');
  if (opts.lang && needsCodeBleu(metric, opts.lang)) {
    const r = codebleu(ref, hyp, opts.lang);
    for (const k of CODEBLEU_FIELDS) out[k] = r[k];
  } else if (metric === 'codebleu')
    throw new Error('codebleu needs a language: give --lang or a "lang" field');
  return out;
}
