/**
 * `withRetry`: retries retryable failures (429, 5xx, timeouts, network errors) with exponential
 * back-off and full jitter, waiting at least as long as the server's `retry-after` asks.
 * `maxRetries: 0` means exactly one attempt.
 */
import { ProviderError } from '../errors.ts';
import type { ModelProvider } from '../types.ts';

export interface RetryOptions {
  maxRetries: number;
  /** First back-off step (default 1000 ms); attempt n waits up to base·2ⁿ. */
  baseDelayMs?: number;
  /** Cap on a computed back-off (default 60 s); a server's retry-after is honoured up to 10 minutes. */
  maxDelayMs?: number;
  /** Called before each wait (for progress / logs). */
  onRetry?: (info: { attempt: number; delayMs: number; error: ProviderError }) => void;
  random?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

const MAX_RETRY_AFTER_MS = 600_000;

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The wait before retry number `attempt` (0-based): jittered exponential, at least retry-after. */
export function retryDelay(
  attempt: number,
  error: ProviderError,
  o: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'random'> = {},
): number {
  const base = o.baseDelayMs ?? 1000;
  const cap = o.maxDelayMs ?? 60_000;
  const rnd = o.random ?? Math.random;
  const backoff = Math.min(cap, base * 2 ** attempt) * (0.5 + rnd() / 2);
  const server = error.retryAfterMs === null ? 0 : Math.min(error.retryAfterMs, MAX_RETRY_AFTER_MS);
  return Math.max(backoff, server);
}

export function withRetry(inner: ModelProvider, o: RetryOptions): ModelProvider {
  const sleep = o.sleep ?? abortableSleep;
  return {
    id: inner.id,
    cacheScope: inner.cacheScope,
    async generate(req, opts) {
      for (let attempt = 0; ; attempt++) {
        try {
          return await inner.generate(req, opts);
        } catch (e) {
          if (!(e instanceof ProviderError) || !e.retryable || attempt >= o.maxRetries || opts.signal.aborted)
            throw e;
          const delayMs = retryDelay(attempt, e, o);
          o.onRetry?.({ attempt: attempt + 1, delayMs, error: e });
          await sleep(delayMs, opts.signal);
        }
      }
    },
  };
}
