/**
 * Where the crawler writes: the small slice of `@faun/store` it needs. One {@link CrawlSink.ingest} is
 * one transaction (a page's rows plus the stream's next cursor), so a crash loses nothing and
 * duplicates nothing. {@link MemorySink} implements it in memory for tests.
 */
import { sha256 } from '@faun/kit';
import {
  type Comment,
  type CrossRef,
  type IssueEvent,
  type PrFile,
  type RawEntry,
  stableStringify,
} from '@faun/schema';

export interface Checkpoint {
  repo: string;
  stream: string;
  /** Where to continue (a URL or a GraphQL cursor or an index); null = from the start. */
  cursor: string | null;
  done: boolean;
  updated_at: string;
  requests?: number;
  items?: number;
}

export interface PrFilesRow {
  repo: string;
  number: number;
  files: PrFile[];
}

/** Repository metadata (`GET /repos/{o}/{r}`), as @faun/store keeps it. */
export interface RepoRow {
  repo: string;
  default_branch: string | null;
  language?: string | null;
  stars?: number | null;
  github_id?: number | null;
  /** The name the crawl asked for when GitHub answered with another (a rename). */
  renamed_from?: string | null;
  fetched_at?: string | null;
}

export interface IngestBatch {
  repos?: RepoRow[];
  entries?: RawEntry[];
  comments?: Comment[];
  events?: IssueEvent[];
  crossrefs?: CrossRef[];
  prFiles?: PrFilesRow[];
  checkpoint?: Checkpoint;
}

export interface CrawlSink {
  /** Upserts rows and the checkpoint in one transaction. */
  ingest(batch: IngestBatch): Promise<void>;
  checkpoint(repo: string, stream: string): Promise<Checkpoint | null>;
  /** Every entry of a repository, streamed. */
  entries(filter: { repo: string }): AsyncIterable<RawEntry>;
}

/** In-memory sink with the store's upsert keys and a canonical content hash. */
export class MemorySink implements CrawlSink {
  readonly entryRows = new Map<string, RawEntry>();
  readonly commentRows = new Map<string, Comment>();
  readonly eventRows = new Map<string, IssueEvent>();
  readonly crossrefRows = new Map<string, CrossRef>();
  readonly fileRows = new Map<string, PrFilesRow>();
  readonly checkpoints = new Map<string, Checkpoint>();
  readonly repoRows = new Map<string, RepoRow>();
  ingests = 0;

  async ingest(b: IngestBatch): Promise<void> {
    this.ingests++;
    for (const e of b.entries ?? []) this.entryRows.set(`${e.repo}#${e.number}`, structuredClone(e));
    for (const c of b.comments ?? []) this.commentRows.set(`${c.repo}#${c.id}`, c);
    for (const e of b.events ?? []) this.eventRows.set(`${e.repo}#${e.id}`, e);
    for (const x of b.crossrefs ?? [])
      this.crossrefRows.set(
        `${x.target_repo}#${x.target_number}<${x.source_repo}#${x.source_number}:${x.via}`,
        x,
      );
    for (const f of b.prFiles ?? []) this.fileRows.set(`${f.repo}#${f.number}`, f);
    for (const r of b.repos ?? []) this.repoRows.set(r.repo, { ...r, fetched_at: null });
    if (b.checkpoint)
      this.checkpoints.set(`${b.checkpoint.repo}|${b.checkpoint.stream}`, { ...b.checkpoint });
  }

  async checkpoint(repo: string, stream: string): Promise<Checkpoint | null> {
    return this.checkpoints.get(`${repo}|${stream}`) ?? null;
  }

  async *entries(filter: { repo: string }): AsyncIterable<RawEntry> {
    for (const e of [...this.entryRows.values()].filter((x) => x.repo === filter.repo))
      yield structuredClone(e);
  }

  counts(): Record<string, number> {
    return {
      entries: this.entryRows.size,
      comments: this.commentRows.size,
      events: this.eventRows.size,
      crossrefs: this.crossrefRows.size,
      prFiles: this.fileRows.size,
    };
  }

  /** sha256 over every row, sorted by key (checkpoints excluded). */
  contentHash(): string {
    const sorted = (m: Map<string, unknown>) =>
      [...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map((x) => x[1]);
    return sha256(
      stableStringify({
        entries: sorted(this.entryRows),
        comments: sorted(this.commentRows),
        events: sorted(this.eventRows),
        crossrefs: sorted(this.crossrefRows),
        prFiles: sorted(this.fileRows),
        repos: sorted(this.repoRows),
      }),
    );
  }
}
