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
import { extractPaths, normalizePath, pathSet, strictPathMatch } from '../fl/paths.ts';
import { rouge1AndL } from '../rouge/rouge.ts';

export interface ItemResult {
  scores: Record<string, number>;
  answer: string | null;
  note: string | null;
}

/** QA: BLEU (nltk m1), ROUGE-L, ROUGE-1, EditSim of the output against the maintainer's answer. */
export function scoreQa(item: QaItem, output: string): ItemResult {
  const r = rouge1AndL(output, item.answer);
  return {
    scores: {
      bleu: bleu(output, item.answer),
      rougeL: r.rougeL,
      rouge1: r.rouge1,
      editsim: indelRatio(output, item.answer),
    },
    answer: output,
    note: null,
  };
}

/** FL: strict and lenient exact match, top-1/3/5 and reciprocal rank over the mentioned existing paths. */
export function scoreFl(item: FlItem, output: string): ItemResult {
  const tree = pathSet(item.tree);
  const ranked = extractPaths(output, tree);
  const first = ranked[0] ?? null;
  // what lenientPathMatch, topK and reciprocalRank compute, from one extraction and one rank
  const gold = normalizePath(item.gold_path);
  const rank = ranked.indexOf(gold) + 1;
  return {
    scores: {
      em: strictPathMatch(output, item.gold_path) ? 1 : 0,
      em_lenient: first !== null && first === gold ? 1 : 0,
      top1: rank > 0 && rank <= 1 ? 1 : 0,
      top3: rank > 0 && rank <= 3 ? 1 : 0,
      top5: rank > 0 && rank <= 5 ? 1 : 0,
      mrr: rank === 0 ? 0 : 1 / rank,
    },
    answer: first,
    note: ranked.length === 0 ? 'no path of the repository tree found in the output' : null,
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
  if (pred.blocks.length === 0) notes.push('no SEARCH/REPLACE block in the output');
  for (const f of applied.failures) notes.push(`block ${f.index + 1}: ${f.reason}`);
  if (CODE_LANGS.includes(item.language as CodeLang)) {
    const lang = item.language as CodeLang;
    scores.codebleu_patch = codebleu(gold.text, pred.text, lang).codebleu;
    scores.codebleu_file = codebleu(item.file_after, applied.result, lang).codebleu;
  } else notes.push(`CodeBLEU does not support language '${item.language}'`);
  return { scores, answer: pred.text || null, note: notes.length ? notes.join('; ') : null };
}
