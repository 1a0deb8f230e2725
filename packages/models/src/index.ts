/**
 * @faun/models — model providers behind one small interface, versioned prompts, output parsers, and
 * the prediction runner with cache, retries, limits and resume.
 * @module
 */
export * from './buckets.ts';
export * from './cost.ts';
export * from './errors.ts';
export * from './parse/fl.ts';
export * from './parse/inspect.ts';
export * from './parse/qa.ts';
export * from './prompts/build.ts';
export { PROMPT_VERSIONS } from './prompts/templates.ts';
export { createBaselineProvider, createEchoProvider, createMockProvider } from './providers/baseline.ts';
export {
  bm25Rank,
  type ContentSource,
  checkoutContents,
  createBm25Provider,
  tokenize,
} from './providers/bm25.ts';
export {
  COMPATIBLE_SERVICES,
  createOpenAiProvider,
  normalizeBaseUrl,
  resolveEndpoint,
} from './providers/openai.ts';
export { createReplayProvider, replayModelName } from './providers/replay.ts';
export * from './registry.ts';
export { loadDataset, loadPredictions } from './runner/dataset.ts';
export * from './runner/predict.ts';
export * from './tokens.ts';
export type * from './types.ts';
export * from './wrap/cache.ts';
export * from './wrap/limiter.ts';
export * from './wrap/retry.ts';
