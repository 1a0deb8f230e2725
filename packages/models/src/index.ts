/**
 * @faun/models — model providers behind one small interface, versioned prompts, output parsers, and
 * the prediction runner with cache, retries, limits and resume. `faun predict` (./cli) is the main way
 * in; this surface is what other packages use: providers by `provider:name` spec with the on-disk cache
 * and retries (curation's semantic check), the prompt builder and the length buckets (paper tables).
 * Test doubles are in `@faun/models/testing`.
 * @module
 */
export { lengthBuckets } from './buckets.ts';
export { ablateItem, buildPrompt, promptSha256 } from './prompts/build.ts';
export { createProvider, type ProviderOptions } from './registry.ts';
export type { GenerateRequest, GenerateResult, ModelProvider } from './types.ts';
export { withCache } from './wrap/cache.ts';
export { withRetry } from './wrap/retry.ts';
