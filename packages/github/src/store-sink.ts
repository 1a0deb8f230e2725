/** Adapts `@faun/store` to the crawler's {@link CrawlSink}. */

import type { RawEntry } from '@faun/schema';
import type { Store } from '@faun/store';
import type { CrawlSink } from './sink.ts';

export function storeSink(store: Store): CrawlSink {
  return {
    ingest: (b) => store.ingest(b),
    checkpoint: (repo, stream) => store.checkpoint(repo, stream),
    entries: async (filter) => {
      const out: RawEntry[] = [];
      for await (const e of store.entries(filter)) out.push(e);
      return out;
    },
  };
}
