/**
 * Per-item scoring of one task item against one model output (pure; CodeBLEU must be initialised for
 * CE items' languages).
 * @module
 */
import type { CeItem, FlItem, QaItem } from '@faun/schema';
import { bleu } from '../bleu/nltk.ts';
import { CODE_LANGS, type CodeLang, codebleu } from '../codebleu/index.ts';
import { applySearchReplace } from '../edit/apply.ts';
import { formatSearchReplace, parseSearchReplace } from '../edit/search-replace.ts';
import { indelRatio } from '../editsim.ts';
import { extractPaths, normalizePath, pathSet, strictPathCandidates } from '../fl/paths.ts';
import { metricFloor } from '../registry.ts';
import { rouge1AndL } from '../rouge/rouge.ts';

export interface ItemResult {
  scores: Record<string, number>;
  answer: string | null;
  note: string | null;
  /**
   * Nothing the task scores could be read from the output (a blank QA answer, no path of the tree in an
   * FL answer, no SEARCH/REPLACE block in a CE answer): every metric is its floor, so such an output never
   * ranks above a real but wrong answer.
   */
  unparsed: boolean;
}

/** `scores` with every value set to its metric's floor. */
function floored(scores: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(scores).map((k) => [k, metricFloor(k)]));
}

/** QA: BLEU (nltk m1), ROUGE-L, ROUGE-1, EditSim of the output against the maintainer's answer. */
export function scoreQa(item: QaItem, output: string): ItemResult {
  const r = rouge1AndL(output, item.answer);
  const scores = {
    bleu: bleu(output, item.answer),
    rougeL: r.rougeL,
    rouge1: r.rouge1,
    editsim: indelRatio(output, item.answer),
  };
  if (output.trim() === '')
    return { scores: floored(scores), answer: null, note: 'empty answer: unparsed', unparsed: true };
  return { scores, answer: output, note: null, unparsed: false };
}

/**
 * FL: strict and lenient exact match, top-1/3/5 and reciprocal rank over the mentioned existing paths.
 * The answer is what strict EM compares — the whole output read as one path — so EM is 1 exactly when
 * the answer shown equals the gold path; an output that is more than a path has no answer (the lenient
 * metrics use the first tree path it mentions, named in the note).
 */
export function scoreFl(item: FlItem, output: string): ItemResult {
  const tree = pathSet(item.tree);
  const ranked = extractPaths(output, tree);
  const first = ranked[0] ?? null;
  // what lenientPathMatch, topK and reciprocalRank compute, from one extraction and one rank
  const gold = normalizePath(item.gold_path);
  const rank = ranked.indexOf(gold) + 1;
  const strict = strictPathCandidates(output);
  const em = strict.includes(gold);
  const answer = em ? gold : (strict.find((c) => tree.has(c)) ?? strict.find((c) => !/\s/.test(c)) ?? null);
  const unparsed = answer === null && first === null;
  const note = unparsed
    ? 'no path of the repository tree found in the output: unparsed'
    : answer === null
      ? `the output is not a single path (strict EM needs one); first tree path mentioned: ${first}`
      : null;
  return {
    scores: {
      em: em ? 1 : 0,
      em_lenient: first !== null && first === gold ? 1 : 0,
      top1: rank > 0 && rank <= 1 ? 1 : 0,
      top3: rank > 0 && rank <= 3 ? 1 : 0,
      top5: rank > 0 && rank <= 5 ? 1 : 0,
      mrr: rank === 0 ? 0 : 1 / rank,
    },
    answer,
    note,
    unparsed,
  };
}

/** The canonical text of the blocks in `text`, without file paths (so path lines do not affect CodeBLEU). */
function canonical(text: string): { text: string; blocks: ReturnType<typeof parseSearchReplace>['blocks'] } {
  const { blocks } = parseSearchReplace(text);
  return { text: formatSearchReplace(blocks.map((b) => ({ ...b, path: null }))), blocks };
}

/**
 * CE: CodeBLEU of the predicted blocks against the gold blocks, whether the edits apply, CodeBLEU of the
 * edited file against `file_after`, and exact equality of the edited file.
 */
export function scoreCe(item: CeItem, output: string): ItemResult {
  const pred = canonical(output);
  const gold = canonical(item.gold_patch);
  const applied = applySearchReplace(item.file_before, pred.blocks);
  const applies = pred.blocks.length > 0 && applied.ok ? 1 : 0;
  const scores: Record<string, number> = {
    apply_rate: applies,
    file_em: applied.result === item.file_after ? 1 : 0,
  };
  const notes: string[] = [];
  const unparsed = pred.blocks.length === 0;
  for (const f of applied.failures) notes.push(`block ${f.index + 1}: ${f.reason}`);
  const supported = CODE_LANGS.includes(item.language as CodeLang);
  if (!supported) notes.push(`CodeBLEU does not support language '${item.language}'`);
  if (unparsed) {
    // CodeBLEU of an empty edit is not 0 (an empty dataflow counts as full credit): it would outrank a
    // real but wrong edit, so an output without a block scores the floor of every metric
    if (supported) Object.assign(scores, { codebleu_patch: 0, codebleu_file: 0 });
    notes.unshift('no SEARCH/REPLACE block in the output: unparsed');
    return { scores: floored(scores), answer: null, note: notes.join('; '), unparsed };
  }
  if (supported) {
    const lang = item.language as CodeLang;
    scores.codebleu_patch = codebleu(gold.text, pred.text, lang).codebleu;
    scores.codebleu_file = codebleu(item.file_after, applied.result, lang).codebleu;
  }
  return { scores, answer: pred.text || null, note: notes.length ? notes.join('; ') : null, unparsed };
}
