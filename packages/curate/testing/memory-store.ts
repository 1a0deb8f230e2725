/** An in-memory {@link CurateStore} for tests (`@faun/curate/testing`). */
import type {
  Comment,
  CrossRef,
  FixPair,
  FunnelRow,
  IssueEvent,
  PrFile,
  RawEntry,
  TaskItem,
} from '@faun/schema';
import type { RepoData } from '../src/funnel.ts';
import type { CurateStore } from '../src/store.ts';

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
