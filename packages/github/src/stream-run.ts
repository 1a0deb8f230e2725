/** One stream's run: counts, and the ordered, pipelined writes of pages with their checkpoints. */
import type { CrawlOptions, StreamProgress } from './crawler.ts';
import type { Checkpoint, IngestBatch } from './sink.ts';

function now(o: CrawlOptions): string {
  return new Date(o.client.clock.now()).toISOString();
}

export class StreamRun {
  items: number;
  requests: number;
  constructor(
    readonly o: CrawlOptions,
    readonly repo: string,
    readonly stream: string,
    readonly cp: Checkpoint | null,
  ) {
    this.items = cp?.items ?? 0;
    this.requests = cp?.requests ?? 0;
  }
  private pending: Promise<void> = Promise.resolve();
  /**
   * Queues the page's rows and checkpoint as one sink transaction. Waits for the previous page's
   * transaction first, so the next page is fetched while this one is written and checkpoints stay in
   * order. `step` calls {@link drain} at the end of the stream.
   */
  async save(
    batch: IngestBatch,
    cursor: string | null,
    done: boolean,
    items: number,
    extra: Partial<StreamProgress> = {},
  ) {
    await this.pending;
    this.items += items;
    const progress: StreamProgress = {
      repo: this.repo,
      stream: this.stream,
      items: this.items,
      requests: this.requests,
      done,
      ...extra,
    };
    const p = this.o.sink
      .ingest({
        ...batch,
        checkpoint: {
          repo: this.repo,
          stream: this.stream,
          cursor,
          done,
          updated_at: now(this.o),
          requests: this.requests,
          items: this.items,
        },
      })
      .then(() => this.o.onProgress?.(progress));
    p.catch(() => {});
    this.pending = p;
  }
  /** Waits for the last queued transaction. */
  drain(): Promise<void> {
    return this.pending;
  }
}
