/**
 * What each metric is, its scale and direction. Every score this package produces is described here,
 * so tables, the API and the pages can sort and label without guessing.
 * @module
 */

export interface MetricInfo {
  name: string;
  description: string;
  /** True for every similarity / accuracy metric here (none is a loss). */
  higherIsBetter: boolean;
  /** [min, max] of a per-item value (method5/7 BLEU can exceed 1 slightly, as in nltk). */
  range: readonly [number, number];
}

const m = (name: string, description: string, max = 1): MetricInfo => ({
  name,
  description,
  higherIsBetter: true,
  range: [0, max],
});

/** Per-item metric names used by `scoreTask` and `faun score-pairs`. */
export const METRICS: Readonly<Record<string, MetricInfo>> = Object.fromEntries(
  [
    m('bleu', 'nltk sentence BLEU, smoothing method1, whitespace tokens (QA default)'),
    m('rouge1', 'ROUGE-1 F-measure (rouge-score 0.1.2, no stemming)'),
    m('rougeL', 'ROUGE-L F-measure (rouge-score 0.1.2, no stemming)'),
    m('editsim', 'Indel ratio 2·LCS/(|a|+|b|) on code points (rapidfuzz fuzz.ratio / 100)'),
    m('em', 'FL: the whole answer is the gold path (strict)'),
    m('em_lenient', 'FL: the first existing path mentioned is the gold path'),
    m('top1', 'FL: gold path ranked first among mentioned existing paths'),
    m('top3', 'FL: gold path among the first 3 mentioned existing paths'),
    m('top5', 'FL: gold path among the first 5 mentioned existing paths'),
    m('mrr', 'FL: reciprocal rank of the gold path among mentioned existing paths'),
    m('codebleu_patch', 'CE: CodeBLEU of the predicted SEARCH/REPLACE text against the gold blocks'),
    m('apply_rate', 'CE: 1 when the prediction has edits and every edit applies to the file'),
    m('codebleu_file', 'CE: CodeBLEU of the edited file against the gold file_after'),
    m('file_em', 'CE: the edited file equals file_after exactly'),
    m('nltk_m1', 'nltk sentence BLEU, method1'),
    m('nltk_m4', 'nltk sentence BLEU, method4'),
    m('sacre_sent', 'sacrebleu sentence BLEU (13a, exp smoothing, effective order), in [0, 1]'),
    m('cxg_smooth', 'CodeXGLUE smooth_bleu of one sentence, in [0, 1]'),
    m('rouge1_f', 'ROUGE-1 F'),
    m('rougeL_f', 'ROUGE-L F'),
    m('rouge1_f_stem', 'ROUGE-1 F with nltk Porter stemming'),
    m('rougeL_f_stem', 'ROUGE-L F with nltk Porter stemming'),
    m('indel_ratio', 'Indel ratio ×100 (rapidfuzz fuzz.ratio)', 100),
    m('fuzz_ratio_lev', 'fuzzywuzzy fuzz.ratio with python-Levenshtein (integer)', 100),
    m('fuzz_ratio_difflib', 'fuzzywuzzy fuzz.ratio with difflib (integer)', 100),
    m('lev_sim', '1 − Levenshtein / max length'),
    m('em_strip', 'exact match after strip()'),
    m('em_split', 'exact match of split() tokens'),
    m('codebleu', 'CodeBLEU (codebleu 0.7.1)'),
    m('ngram_match_score', 'CodeBLEU n-gram component'),
    m('weighted_ngram_match_score', 'CodeBLEU weighted n-gram component'),
    m('syntax_match_score', 'CodeBLEU syntax component'),
    m('dataflow_match_score', 'CodeBLEU dataflow component'),
  ].map((x) => [x.name, x]),
);
