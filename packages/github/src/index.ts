/**
 * @faun/github — the octokit client configured for long crawls, the crawl planner with per-page
 * checkpoints, and the records it produces. The fake GitHub server is in `@faun/github/testing`.
 * @module
 */
export { type AppAuthOptions, appFromEnv, appTokens } from './app-auth.ts';
export {
  API_VERSION,
  type ClientCounters,
  type ClientOptions,
  createClient,
  type GitHubClient,
} from './client.ts';
export { type Clock, parseClock, realClock, SimClock, VirtualClock } from './clock.ts';
export {
  type CrawlOptions,
  type CrawlSummary,
  crawl,
  type Gap,
  type StreamProgress,
} from './crawler.ts';
export { type CachedAnswer, type EtagCache, MemoryEtagCache } from './etag.ts';
export { identifyTokens, identitySummary } from './identity.ts';
export { fetchIssue, type IssueLookup } from './issue.ts';
export { type RealTimers, trackRealTimers } from './real-timers.ts';
export * from './records.ts';
export { parseRepos, type RepoMeta, resolveRepos } from './repos.ts';
export {
  type Checkpoint,
  type CrawlSink,
  type IngestBatch,
  MemorySink,
  type PrFilesRow,
  type RepoRow,
} from './sink.ts';
export {
  type DetailTask,
  type SurvivorEntry,
  type SurvivorRule,
  survivorEntry,
  survivorTasks,
} from './survivors.ts';
export {
  type BudgetView,
  type Resource,
  staticTokens,
  TokenPool,
  type TokenProvider,
  type TokenSource,
  tokensFromEnv,
} from './tokens.ts';
