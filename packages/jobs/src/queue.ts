/** Opens a queue: BullMQ on Redis when a Redis URL is given (or REDIS_URL is set), otherwise in-process. */
import { RedisQueue } from './bullmq.ts';
import { MemoryQueue } from './memory.ts';
import type { Queue } from './types.ts';

export interface OpenQueueOptions {
  /** Redis URL; defaults to $REDIS_URL; absent → in-process queue. */
  redisUrl?: string | null;
  lockMs?: number;
}

export function openQueue(name: string, opts: OpenQueueOptions = {}): Queue {
  const url = opts.redisUrl === undefined ? process.env.REDIS_URL : opts.redisUrl;
  if (url) return new RedisQueue(name, { url, ...(opts.lockMs ? { lockMs: opts.lockMs } : {}) });
  return new MemoryQueue(name);
}
