/**
 * Dataset statistics: per-repository counts and the length distribution of the issue text, from the
 * dataset's items; the curation funnel and store counts from the DuckDB store (`--store`), when given.
 */
import type { DatasetRegistry } from './datasets.ts';

export interface FunnelStep {
  step: string;
  count: number;
}

export interface DatasetStats {
  name: string;
  task: string;
  items: number;
  per_repo: { repo: string; items: number }[];
  length: { bucket: string; lo: number; hi: number | null; items: number }[];
  /** The curation funnel of the store the dataset was built from; null without a store. */
  funnel: FunnelStep[] | null;
  store_counts: Record<string, number> | null;
}

export interface StatsSource {
  stats(name: string): Promise<DatasetStats>;
  close(): Promise<void>;
}

const EDGES = [0, 250, 500, 1000, 2000, 4000, 8000];
const short = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));

/** Histogram of lengths over fixed, human-readable buckets. */
export function lengthHistogram(lengths: number[]): DatasetStats['length'] {
  return EDGES.map((lo, i) => {
    const hi = EDGES[i + 1] ?? null;
    const items = lengths.filter((n) => n >= lo && (hi === null || n < hi)).length;
    return { bucket: hi === null ? `${short(lo)}+` : `${short(lo)}–${short(hi)}`, lo, hi, items };
  });
}

interface StoreLike {
  funnel(): unknown;
  counts(): unknown;
  close?(): unknown;
}

/** Reads the funnel rows in the shapes a store may return: an array of {step|stage|name, count|n}. */
export function funnelOf(raw: unknown): FunnelStep[] | null {
  const list = Array.isArray(raw) ? raw : raw && typeof raw === 'object' ? Object.entries(raw) : null;
  if (!list) return null;
  const out: FunnelStep[] = [];
  for (const r of list) {
    if (Array.isArray(r) && typeof r[1] === 'number') out.push({ step: String(r[0]), count: r[1] });
    else if (r && typeof r === 'object') {
      const o = r as Record<string, unknown>;
      const step = o.step ?? o.stage ?? o.name ?? o.label;
      const count = o.count ?? o.n ?? o.remaining ?? o.kept;
      if (step !== undefined && typeof count === 'number') out.push({ step: String(step), count });
    }
  }
  return out;
}

/** Stats from the dataset registry, plus the DuckDB store at `storePath` when given. */
export function createStats(datasets: DatasetRegistry, storePath: string | null): StatsSource {
  let store: Promise<StoreLike | null> | null = null;
  const openStore = (): Promise<StoreLike | null> => {
    if (!storePath) return Promise.resolve(null);
    store ??= (async () => {
      const m = (await import('@faun/store')) as Record<string, unknown>;
      const S = m.Store as { open?: (p: string, o: { readOnly: boolean }) => Promise<StoreLike> } | undefined;
      if (!S?.open) return null;
      return S.open(storePath, { readOnly: true });
    })().catch(() => null);
    return store;
  };
  return {
    async stats(name) {
      const info = datasets.get(name);
      if (!info) throw new Error(`unknown dataset '${name}'`);
      const ds = await datasets.items(name);
      const repos = new Map<string, number>();
      const lengths: number[] = [];
      for (const it of ds.items) {
        repos.set(it.repo, (repos.get(it.repo) ?? 0) + 1);
        lengths.push(
          'instance_id' in it ? it.problem_statement.length : it.issue_title.length + it.issue_body.length,
        );
      }
      const s = await openStore();
      const funnel = s ? funnelOf(await s.funnel()) : null;
      const counts = s ? ((await s.counts()) as Record<string, number>) : null;
      return {
        name,
        task: info.task,
        items: ds.items.length,
        per_repo: [...repos]
          .map(([repo, items]) => ({ repo, items }))
          .sort((a, b) => b.items - a.items || a.repo.localeCompare(b.repo)),
        length: lengthHistogram(lengths),
        funnel,
        store_counts: counts,
      };
    },
    async close() {
      const s = await store;
      await s?.close?.();
    },
  };
}
