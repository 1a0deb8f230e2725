/**
 * @faun/metrics — the pure metric core (no file system, network or runtime-specific API; runs in Bun,
 * Node and browsers): BLEU variants, ROUGE, edit similarity, exact match, the FL path matcher,
 * SEARCH/REPLACE edits, bootstrap intervals, task scoring, and CodeBLEU.
 *
 * @example
 * ```ts
 * import { bleu, rouge1AndL, editSim, scoreTask } from '@faun/metrics';
 * bleu('the cat sat', 'the cat sat down'); // nltk sentence BLEU, method1
 * ```
 * @module
 */
export {
  bleu,
  type NltkBleuOptions,
  type NltkSmoothing,
  nltkCorpusBleu,
  nltkSentenceBleu,
} from './bleu/nltk.ts';
export { type SacreBleuOptions, sacreCorpusBleu, sacreSentenceBleu, tokenize13a } from './bleu/sacre.ts';
export { nistNormalize, smoothBleu, splitPuncts } from './bleu/smooth.ts';
export {
  type BootstrapOptions,
  bootstrapCi,
  bootstrapCiMany,
  type ConfidenceInterval,
  mulberry32,
  pairedBootstrapP,
  quantileSorted,
} from './bootstrap.ts';
export * from './codebleu/index.ts';
export { difflibRatio } from './distance/difflib.ts';
export { lcsLength, levenshtein } from './distance/lcs.ts';
export { type ApplyResult, applySearchReplace, type EditFailure, type MatchKind } from './edit/apply.ts';
export {
  checkSearchReplace,
  type DerivedEdits,
  deriveSearchReplace,
  verifySearchReplace,
} from './edit/derive.ts';
export {
  formatSearchReplace,
  isMarkerLine,
  type ParsedEdits,
  type ParseProblem,
  parseSearchReplace,
  type SearchReplaceBlock,
} from './edit/search-replace.ts';
export { editSim, fuzzRatio, indelRatio, levenshteinDistance, levenshteinSim } from './editsim.ts';
export { type ExactMatchMode, exactMatch } from './em.ts';
export {
  extractPaths,
  lenientPathMatch,
  normalizePath,
  pathCandidates,
  pathSet,
  rankOf,
  reciprocalRank,
  strictPathCandidates,
  strictPathMatch,
  topK,
} from './fl/paths.ts';
export { PAIR_METRICS, PAIR_VARIANTS, type PairMetric, scorePair } from './pairs.ts';
export {
  codePoints,
  fsum,
  isPyWhitespace,
  PY_WS_CLASS,
  pyLen,
  pyRstrip,
  pySplit,
  pyStrip,
  roundHalfEven,
} from './py.ts';
export {
  compareBetter,
  formatMetric,
  METRICS,
  type MetricInfo,
  metricFloor,
  metricInfo,
  metricLabel,
  metricShortLabel,
  orderMetrics,
  PRIMARY_METRICS,
  primaryMetricOf,
} from './registry.ts';
export { porterStem } from './rouge/porter.ts';
export {
  type RougeOptions,
  type RougeScore,
  rouge1AndL,
  rougeL,
  rougeN,
  rougeTokenize,
} from './rouge/rouge.ts';
export { scoreCe, scoreFl, scoreQa } from './score/items.ts';
export { type AggregateScore, type ScoreTaskOptions, scoreTask, type TaskScore } from './score/task.ts';
export { mean, wilsonInterval } from './stats.ts';
