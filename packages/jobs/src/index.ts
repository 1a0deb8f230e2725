/**
 * @faun/jobs — the job queue: an in-process queue by default, BullMQ on Redis when REDIS_URL is set;
 * the work kinds (`score`, `verify`) and the result messages workers post back.
 * @module
 */
export { RedisQueue, type RedisQueueOptions } from './bullmq.ts';
export {
  defaultWorkDeps,
  executionItem,
  executionOutcome,
  loadScoreTask,
  type ScoreTaskFn,
  scoreChunk,
  textOutcome,
  type VerifyConfig,
  verifyOne,
} from './handlers.ts';
export {
  ItemOutcome,
  ItemResult,
  type ItemResultInput,
  RESULTS_QUEUE,
  ResultMessage,
  ScoreJobData,
  TASK_OUTCOMES,
  VerifyJobData,
  WORK_QUEUE,
} from './kinds.ts';
export { MemoryQueue } from './memory.ts';
export { probeRedis, redactRedisUrl } from './probe.ts';
export { type OpenQueueOptions, openQueue } from './queue.ts';
export * from './types.ts';
export {
  createWorkHandler,
  errorResults,
  forwardFinalFailures,
  type ScoreFn,
  type VerifyFn,
  type WorkDeps,
} from './worker.ts';
