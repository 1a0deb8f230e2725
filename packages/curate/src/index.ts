/**
 * @faun/curate — issue ↔ PR pairing, the FAUN-Eval filters and funnel, the semantic check with human
 * review, the QA / FL / CE task builders and the SWE-bench import.
 * @module
 */

export type { BotConfig } from './bots.ts';
export { botConfigFrom, DEFAULT_BOT_CONFIG, DEFAULT_BOT_PATTERN, humanParticipants, isBot } from './bots.ts';
export { type BuiltItems, buildFromStore } from './build.ts';
export { type CurateOptions, type CurateResult, curateStore } from './curate.ts';
export { type DatasetCard, lengthStats, renderCard, writeDataset } from './dataset.ts';
export {
  deriveBlocks,
  type EditBlock,
  formatBlocks,
  parseBlocks,
  verifyBlocks,
} from './edits.ts';
export { DEFAULT_FILTERS, type FilterConfig, isNonFunctional } from './filters.ts';
export {
  type CuratedPair,
  curateRepo,
  type FunnelRow,
  type Removed,
  type RepoData,
  STEPS,
  type StepName,
  UNDECIDED,
  type Undecided,
  type Verdict,
} from './funnel.ts';
export { formatFunnel, totalRows } from './funnel-table.ts';
export { stripNonProse } from './markdown.ts';
export { type Agreement, agreement, findLinks, isFixCandidate, type LinkCandidate } from './pairing.ts';
export { closingIssueNumbers, extractRefs, type Ref } from './refs.ts';
export {
  applyReview,
  cohensKappa,
  KEEP_RULES,
  type KeepRule,
  readReview,
  reviewRows,
  toCsv,
} from './review.ts';
export {
  type Generate,
  parseVerdict,
  type SemanticLabel,
  semanticCheck,
  semanticPrompt,
} from './semantic.ts';
export { GitHubApiSource, LocalGitSource, type RepoSource } from './source.ts';
export { type CurateStore, openStore } from './store.ts';
export { importRow, normalizeRow } from './swebench.ts';
export { buildCe, buildFl, buildQa, languageOf, pruneTree } from './tasks.ts';
