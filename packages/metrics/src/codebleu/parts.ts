/**
 * CodeBLEU's components one by one (comment removal, n-gram parts, tree reading, subtree matching,
 * dataflow), for measuring where its time goes; `@faun/metrics/codebleu-parts`. Scoring goes through
 * `codebleu` / `corpusCodebleu` in the package index.
 */
export { corpusNgramMatch, corpusWeightedNgramMatch, sampleCounts } from './bleu.ts';
export { removeComments } from './comments.ts';
export { extractDataflow, matchDataflow, normalizeDataflow } from './dataflow.ts';
export { FIELD_PARENTS } from './dfg-langs.ts';
export { KEYWORDS } from './keywords.ts';
export { pySplit, pyStrip } from './pystr.ts';
export { countMatches } from './subtrees.ts';
export { flattenFlat, flattenTree } from './tree.ts';
export type { CodeLang } from './types.ts';
