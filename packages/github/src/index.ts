/**
 * @faun/github — the octokit client configured for long crawls, the crawl planner with per-page
 * checkpoints, and the records it produces. The fake GitHub server is in `@faun/github/testing`.
 * @module
 */
export { API_VERSION, type ClientOptions, createClient, type GitHubClient } from './client.ts';
export { type Clock, parseClock, realClock, SimClock } from './clock.ts';
export {
  type CrawlOptions,
  type CrawlSummary,
  crawl,
  type StreamProgress,
} from './crawler.ts';
export { type CachedAnswer, type EtagCache, FileEtagCache, MemoryEtagCache } from './etag.ts';
export { fetchIssue, type IssueLookup } from './issue.ts';
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
  tokensFromEnv,
} from './tokens.ts';
