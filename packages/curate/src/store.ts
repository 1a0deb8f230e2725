/**
 * The thin edge between curation and the DuckDB store: {@link CurateStore} is the part of
 * `@faun/store`'s API this package uses and {@link openStore} opens the real one (an in-memory
 * implementation for tests is `MemoryStore` in `@faun/curate/testing`).
 * @module
 */
import type { Comment, CrossRef, FixPair, IssueEvent, PrFile, RawEntry, TaskItem } from '@faun/schema';
import type { FunnelRow, RepoData } from './funnel.ts';
import { findLinks, isFixCandidate } from './pairing.ts';

/** A list the store may hand back as an array, a promise of one, or an async iterable. */
export type Many<T> = T[] | Promise<T[]> | AsyncIterable<T> | Iterable<T>;

/** The store operations curation needs (a subset of `@faun/store`'s `Store`). */
export interface CurateStore {
  entries(filter?: { repo?: string; kind?: 'issue' | 'pr' }): Many<RawEntry>;
  comments(repo: string, number?: number): Many<Comment>;
  events(repo: string, number?: number): Many<IssueEvent>;
  crossrefs(repo: string): Many<CrossRef>;
  prFiles(repo: string, number: number): Many<PrFile>;
  /** With `replace`, the stored pairs of the repositories in `pairs` are replaced (a fresh run). */
  putPairs(pairs: FixPair[], opts?: { replace?: boolean }): Promise<unknown> | unknown;
  pairs(): Many<FixPair>;
  putFunnel(rows: FunnelRow[]): Promise<unknown> | unknown;
  funnel(): Many<FunnelRow>;
  putTaskItems?(dataset: string, items: TaskItem[]): Promise<unknown> | unknown;
  all?(sql: string, params?: unknown[]): Promise<unknown>;
  close?(): Promise<unknown> | unknown;
}

/** Collects any {@link Many} into an array. */
export async function collect<T>(m: Many<T>): Promise<T[]> {
  const v = await m;
  if (Array.isArray(v)) return v;
  const out: T[] = [];
  for await (const x of v as AsyncIterable<T>) out.push(x);
  return out;
}

/** Opens the DuckDB store at `path` through `@faun/store` (loaded on first use). */
export async function openStore(path: string): Promise<CurateStore> {
  const { Store } = await import('@faun/store');
  const store: CurateStore = await Store.open(path);
  return store;
}

/** The distinct repositories of the stored entries, sorted. */
export async function storeRepos(store: CurateStore): Promise<string[]> {
  const set = new Set<string>();
  for (const e of await collect(store.entries())) set.add(e.repo);
  return [...set].sort();
}

/**
 * Loads one repository's records; PR files are fetched only for the PRs of candidate fix pairs (the
 * only ones the file filters look at).
 */
export async function loadRepo(store: CurateStore, repo: string): Promise<RepoData> {
  const entries = await collect(store.entries({ repo }));
  const [comments, events, crossrefs] = await Promise.all([
    collect(store.comments(repo)),
    collect(store.events(repo)),
    collect(store.crossrefs(repo)),
  ]);
  const prFiles = new Map<number, PrFile[]>();
  const prs = [
    ...new Set(
      findLinks(repo, entries, crossrefs)
        .filter(isFixCandidate)
        .map((l) => l.pr),
    ),
  ];
  for (const n of prs.sort((a, b) => a - b)) {
    const files = await collect(store.prFiles(repo, n));
    if (files.length) prFiles.set(n, files);
  }
  return { repo, entries, comments, events, crossrefs, prFiles };
}
