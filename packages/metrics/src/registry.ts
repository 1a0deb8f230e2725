/**
 * What each metric is, how it is shown, its scale and direction, and each task's primary metric. Every
 * score this package produces is described here, so `faun score`, the API, the pages and the tables label,
 * sort and rank without a table of their own.
 * @module
 */

export interface MetricInfo {
  name: string;
  /** The display name (paper spelling; what a file-level CE score measures). */
  label: string;
  /** The name in a table column whose task already says what is compared (the paper's Table 4); default `label`. */
  short?: string;
  description: string;
  /** True for every similarity / accuracy metric here (none is a loss). */
  higherIsBetter: boolean;
  /** [min, max] of a per-item value (method5/7 BLEU can exceed 1 slightly, as in nltk). */
  range: readonly [number, number];
  /** Decimals shown for a value (per item and mean). */
  digits: number;
}

const m = (name: string, label: string, description: string, max = 1): MetricInfo => ({
  name,
  label,
  description,
  higherIsBetter: true,
  range: [0, max],
  digits: max === 1 ? 3 : 1,
});

/** Per-item metric names used by `scoreTask`, `faun score-pairs` and execution runs. */
export const METRICS: Readonly<Record<string, MetricInfo>> = Object.fromEntries(
  [
    m('bleu', 'BLEU', 'nltk sentence BLEU, smoothing method1, whitespace tokens (QA default)'),
    m('rouge1', 'ROUGE-1', 'ROUGE-1 F-measure (rouge-score 0.1.2, no stemming)'),
    m('rougeL', 'ROUGE-L', 'ROUGE-L F-measure (rouge-score 0.1.2, no stemming)'),
    m('editsim', 'EditSim', 'Indel ratio 2·LCS/(|a|+|b|) on code points (rapidfuzz fuzz.ratio / 100)'),
    m('em', 'EM', 'FL: the whole answer is the gold path (strict)'),
    m('em_lenient', 'EM (first path)', 'FL: the first existing path mentioned is the gold path'),
    m('top1', 'Top-1', 'FL: gold path ranked first among mentioned existing paths'),
    m('top3', 'Top-3', 'FL: gold path among the first 3 mentioned existing paths'),
    m('top5', 'Top-5', 'FL: gold path among the first 5 mentioned existing paths'),
    m('mrr', 'MRR', 'FL: reciprocal rank of the gold path among mentioned existing paths'),
    {
      ...m(
        'codebleu_patch',
        'CodeBLEU (edit text)',
        'CE: CodeBLEU of the predicted SEARCH/REPLACE text against the gold blocks',
      ),
      short: 'CodeBLEU',
    },
    m('apply_rate', 'edits apply', 'CE: 1 when the prediction has edits and every edit applies to the file'),
    m(
      'codebleu_file',
      'CodeBLEU (edited file)',
      'CE: CodeBLEU of the edited file against the gold file_after',
    ),
    m('file_em', 'file EM (edited file)', 'CE: the edited file equals file_after exactly'),
    m('resolved', 'resolved', 'execution: the patch makes FAIL_TO_PASS pass and keeps PASS_TO_PASS passing'),
    m('nltk_m1', 'BLEU (nltk m1)', 'nltk sentence BLEU, method1'),
    m('nltk_m4', 'BLEU (nltk m4)', 'nltk sentence BLEU, method4'),
    m('sacre_sent', 'sacreBLEU', 'sacrebleu sentence BLEU (13a, exp smoothing, effective order), in [0, 1]'),
    m('cxg_smooth', 'smooth BLEU', 'CodeXGLUE smooth_bleu of one sentence, in [0, 1]'),
    m('rouge1_f', 'ROUGE-1 F', 'ROUGE-1 F'),
    m('rougeL_f', 'ROUGE-L F', 'ROUGE-L F'),
    m('rouge1_f_stem', 'ROUGE-1 F (stemmed)', 'ROUGE-1 F with nltk Porter stemming'),
    m('rougeL_f_stem', 'ROUGE-L F (stemmed)', 'ROUGE-L F with nltk Porter stemming'),
    m('indel_ratio', 'Indel ratio', 'Indel ratio ×100 (rapidfuzz fuzz.ratio)', 100),
    m(
      'fuzz_ratio_lev',
      'fuzz ratio (Levenshtein)',
      'fuzzywuzzy fuzz.ratio with python-Levenshtein (integer)',
      100,
    ),
    m('fuzz_ratio_difflib', 'fuzz ratio (difflib)', 'fuzzywuzzy fuzz.ratio with difflib (integer)', 100),
    m('lev_sim', 'Levenshtein similarity', '1 − Levenshtein / max length'),
    m('em_strip', 'EM (strip)', 'exact match after strip()'),
    m('em_split', 'EM (split)', 'exact match of split() tokens'),
    m('codebleu', 'CodeBLEU', 'CodeBLEU (codebleu 0.7.1)'),
    m('ngram_match_score', 'CodeBLEU n-gram', 'CodeBLEU n-gram component'),
    m('weighted_ngram_match_score', 'CodeBLEU weighted n-gram', 'CodeBLEU weighted n-gram component'),
    m('syntax_match_score', 'CodeBLEU syntax', 'CodeBLEU syntax component'),
    m('dataflow_match_score', 'CodeBLEU dataflow', 'CodeBLEU dataflow component'),
  ].map((x) => [x.name, x]),
);

/**
 * The metric each task is ranked by, in order of preference (the first one a run has): the paper's. CE is
 * CodeBLEU of the SEARCH/REPLACE edit text — file-level CodeBLEU is high for any small edit (even none),
 * so it is shown beside it only. Other spellings are accepted for imported reports.
 */
export const PRIMARY_METRICS: Readonly<Record<string, readonly string[]>> = {
  exec: ['resolved'],
  fl: ['em', 'exact_match', 'accuracy'],
  qa: ['rougeL', 'rouge_l', 'bleu'],
  ce: ['codebleu_patch', 'codebleu_file', 'apply_rate'],
};

/** The registry entry of `name`, or undefined for a name this package does not produce. */
export function metricInfo(name: string): MetricInfo | undefined {
  return Object.hasOwn(METRICS, name) ? METRICS[name] : undefined;
}

/** A metric's display name (the name itself when unknown). */
export function metricLabel(name: string): string {
  return metricInfo(name)?.label ?? name;
}

/** A metric's name in a table column under its task (`short`, else the label, else the name itself). */
export function metricShortLabel(name: string): string {
  const info = metricInfo(name);
  return info?.short ?? info?.label ?? name;
}

/**
 * The worst value of a metric: what an output that cannot be parsed scores, so it never ranks above a
 * real but wrong answer (0 for every metric here; the top of the range for a lower-is-better one).
 */
export function metricFloor(name: string): number {
  const info = metricInfo(name);
  if (!info) return 0;
  return info.higherIsBetter ? info.range[0] : info.range[1];
}

/** A value for display with the metric's decimals; '—' for a missing or non-finite value. */
export function formatMetric(name: string, v: number | null | undefined): string {
  return typeof v === 'number' && Number.isFinite(v) ? v.toFixed(metricInfo(name)?.digits ?? 3) : '—';
}

/** The primary metric of `task` among `available` (else the first of them by name), or null. */
export function primaryMetricOf(task: string, available: Iterable<string>): string | null {
  const names = [...new Set(available)].sort();
  return (PRIMARY_METRICS[task] ?? []).find((x) => names.includes(x)) ?? names[0] ?? null;
}

/** `names` with the task's primary metric first, the rest sorted. */
export function orderMetrics(task: string, names: Iterable<string>): string[] {
  const all = [...new Set(names)].sort();
  const primary = (PRIMARY_METRICS[task] ?? []).find((x) => all.includes(x));
  return primary ? [primary, ...all.filter((x) => x !== primary)] : all;
}

/** −1/0/1 comparing two values of `name` so that the better one sorts first. */
export function compareBetter(name: string, a: number, b: number): number {
  const sign = metricInfo(name)?.higherIsBetter === false ? 1 : -1;
  return a === b ? 0 : a < b ? -sign : sign;
}
