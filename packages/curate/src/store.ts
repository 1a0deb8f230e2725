/**
 * The thin edge between curation and the DuckDB store: {@link CurateStore} is the part of
 * `@faun/store`'s API this package uses, {@link openStore} opens the real one, and
 * {@link MemoryStore} is an in-memory implementation for tests and offline runs.
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

/** An in-memory {@link CurateStore} (tests, `faun demo`). */
export class MemoryStore implements CurateStore {
  entryList: RawEntry[] = [];
  commentList: Comment[] = [];
  eventList: IssueEvent[] = [];
  crossrefList: CrossRef[] = [];
  files = new Map<string, PrFile[]>();
  pairList: FixPair[] = [];
  funnelRows: FunnelRow[] = [];
  taskItems = new Map<string, TaskItem[]>();

  /** Adds a repository's records. */
  add(d: RepoData): this {
    this.entryList.push(...d.entries);
    this.commentList.push(...d.comments);
    this.eventList.push(...d.events);
    this.crossrefList.push(...d.crossrefs);
    for (const [n, f] of d.prFiles) this.files.set(`${d.repo}#${n}`, f);
    return this;
  }
  entries(f: { repo?: string; kind?: 'issue' | 'pr' } = {}): RawEntry[] {
    return this.entryList.filter((e) => (!f.repo || e.repo === f.repo) && (!f.kind || e.kind === f.kind));
  }
  comments(repo: string, number?: number): Comment[] {
    return this.commentList.filter((c) => c.repo === repo && (number === undefined || c.number === number));
  }
  events(repo: string, number?: number): IssueEvent[] {
    return this.eventList.filter((e) => e.repo === repo && (number === undefined || e.number === number));
  }
  crossrefs(repo: string): CrossRef[] {
    return this.crossrefList.filter((x) => x.target_repo === repo);
  }
  prFiles(repo: string, number: number): PrFile[] {
    return this.files.get(`${repo}#${number}`) ?? [];
  }
  putPairs(pairs: FixPair[], opts: { replace?: boolean } = {}): void {
    const repos = new Set(pairs.map((p) => p.repo));
    const kept = opts.replace ? this.pairList.filter((p) => !repos.has(p.repo)) : this.pairList;
    const key = (p: FixPair) => `${p.repo}#${p.issue}:${p.pr}`;
    const fresh = new Set(pairs.map(key));
    this.pairList = [...kept.filter((p) => !fresh.has(key(p))), ...pairs];
  }
  /** Removes the stored pairs of `repo` (what `DELETE FROM pairs WHERE repo = $1` does in DuckDB). */
  async all(sql: string, params: unknown[] = []): Promise<unknown[]> {
    if (/^DELETE FROM pairs WHERE repo = \$1$/.test(sql))
      this.pairList = this.pairList.filter((p) => p.repo !== params[0]);
    return [];
  }
  pairs(): FixPair[] {
    return this.pairList;
  }
  putFunnel(rows: FunnelRow[]): void {
    this.funnelRows = [...rows];
  }
  funnel(): FunnelRow[] {
    return this.funnelRows;
  }
  putTaskItems(dataset: string, items: TaskItem[]): void {
    this.taskItems.set(dataset, items);
  }
}
