/** `withLimiter`: at most `concurrency` calls of the wrapped provider in flight at once (FIFO queue). */
import type { ModelProvider } from '../types.ts';

export function withLimiter(inner: ModelProvider, concurrency: number): ModelProvider {
  const max = Math.max(1, Math.floor(concurrency));
  let active = 0;
  const queue: (() => void)[] = [];
  const acquire = () =>
    new Promise<void>((resolve) => {
      if (active < max) {
        active++;
        resolve();
      } else queue.push(resolve);
    });
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active--;
  };
  return {
    id: inner.id,
    cacheScope: inner.cacheScope,
    async generate(req, opts) {
      await acquire();
      try {
        return await inner.generate(req, opts);
      } finally {
        release();
      }
    },
  };
}
