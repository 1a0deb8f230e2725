/** Adapts `@faun/store` to the crawler's {@link CrawlSink}. */
import type { Store } from '@faun/store';
import type { CrawlSink } from './sink.ts';

export function storeSink(store: Store): CrawlSink {
  return {
    ingest: (b) => store.ingest(b),
    checkpoint: (repo, stream) => store.checkpoint(repo, stream),
    entries: (filter) => store.entries(filter),
  };
}
