/**
 * Dataset statistics: per-repository counts and the length distribution of the issue text, from the
 * dataset's items; the curation funnel and store counts from the DuckDB store (`--store`), when given.
 */
import type { FunnelRow } from '@faun/schema';
import type { RepoCounts } from '@faun/store';
import { ApiError } from '../errors.ts';
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
  /** `owner/repo#issue` → the number of the PR that fixed it (the store's pairs); null without a store. */
  fixingPrs(): Promise<Map<string, number> | null>;
  close(): Promise<void>;
}

const EDGES = [0, 250, 500, 1000, 2000, 4000, 8000];
const short = (n: number) => (n >= 1000 ? `${n / 1000}k` : String(n));

/** The histogram bucket label of one length (`0–250`, …, `8k+`). */
export function lengthBucketOf(n: number): string {
  let i = EDGES.length - 1;
  while (i > 0 && n < (EDGES[i] ?? 0)) i--;
  const lo = EDGES[i] ?? 0;
  const hi = EDGES[i + 1];
  return hi === undefined ? `${short(lo)}+` : `${short(lo)}–${short(hi)}`;
}

/** The bucket labels in order. */
export const LENGTH_BUCKETS: string[] = EDGES.map((e) => lengthBucketOf(e));

/** Histogram of lengths over fixed, human-readable buckets. */
export function lengthHistogram(lengths: number[]): DatasetStats['length'] {
  return EDGES.map((lo, i) => {
    const hi = EDGES[i + 1] ?? null;
    const items = lengths.filter((n) => n >= lo && (hi === null || n < hi)).length;
    return { bucket: hi === null ? `${short(lo)}+` : `${short(lo)}–${short(hi)}`, lo, hi, items };
  });
}

export interface StoreLike {
  funnel(): Promise<FunnelRow[]>;
  pairs?(): Promise<{ repo: string; issue: number; pr: number }[]>;
  counts(): Promise<RepoCounts[]>;
  close(): Promise<void>;
}

/**
 * The curation funnel over all repositories of the latest curation run in the store: the first step's
 * input, then each step's output summed over repositories.
 */
export function aggregateFunnel(rows: FunnelRow[]): FunnelStep[] {
  if (rows.length === 0) return [];
  const runs = [...new Set(rows.map((r) => r.run_id ?? ''))].sort();
  const latest = runs[runs.length - 1];
  const mine = rows.filter((r) => (r.run_id ?? '') === latest);
  const steps = new Map<number, { step: string; input: number; output: number }>();
  for (const r of mine) {
    const s = steps.get(r.order) ?? { step: r.step, input: 0, output: 0 };
    s.input += r.input;
    s.output += r.output;
    steps.set(r.order, s);
  }
  const ordered = [...steps.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
  const first = ordered[0];
  return first
    ? [
        { step: `input (${mine[0]?.unit ?? 'items'})`, count: first.input },
        ...ordered.map((s) => ({ step: s.step, count: s.output })),
      ]
    : [];
}

/** Store sizes summed over repositories (issues, PRs, comments, pairs…). */
export function sumCounts(rows: RepoCounts[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of rows)
    for (const [k, v] of Object.entries(r)) if (typeof v === 'number') out[k] = (out[k] ?? 0) + v;
  return out;
}

export interface StatsOptions {
  /** How long store figures are reused before the file is opened again, ms (default 2000). */
  cacheMs?: number;
  /** Opens the store read-only (tests); default `Store.open(path, { readOnly: true })`. */
  open?: (path: string) => Promise<StoreLike>;
}

interface Figures {
  funnel: FunnelStep[];
  counts: Record<string, number>;
  prs: Map<string, number>;
}

const storeFigures = async (path: string, open: (path: string) => Promise<StoreLike>): Promise<Figures> => {
  const st = await open(path);
  try {
    const pairs = (await st.pairs?.()) ?? [];
    return {
      funnel: aggregateFunnel(await st.funnel()),
      counts: sumCounts(await st.counts()),
      prs: new Map(pairs.map((p) => [`${p.repo}#${p.issue}`, p.pr])),
    };
  } finally {
    await st.close();
  }
};

/** A store error as an API error: 503 with Retry-After while another process writes the file. */
function storeError(path: string, e: Error): ApiError {
  if (/locked by|Could not set lock|Conflicting lock/i.test(e.message))
    return new ApiError(
      503,
      'store_busy',
      `the store ${path} is being written by another process; retry shortly`,
      { retry_after_s: 2 },
      { 'retry-after': '2' },
    );
  return new ApiError(503, 'store_unavailable', `cannot open the store ${path}: ${e.message}`);
}

/**
 * Stats from the dataset registry, plus the DuckDB store at `storePath` when given. The store is opened
 * read-only for one read and closed at once (figures are reused for `cacheMs`), so `faun curate` or
 * `faun build` can write it while the server runs.
 */
export function createStats(
  datasets: DatasetRegistry,
  storePath: string | null,
  o: StatsOptions = {},
): StatsSource {
  const cacheMs = o.cacheMs ?? 2000;
  const open =
    o.open ??
    ((path: string) =>
      import('@faun/store').then(({ Store }): Promise<StoreLike> => Store.open(path, { readOnly: true })));
  let cached: {
    at: number;
    value: Promise<Figures>;
  } | null = null;
  const figures = () => {
    if (!storePath) return Promise.resolve(null);
    if (!cached || performance.now() - cached.at > cacheMs) {
      const value = storeFigures(storePath, open);
      cached = { at: performance.now(), value };
      value.catch(() => {
        if (cached?.value === value) cached = null; // try again on the next request
      });
    }
    return cached.value.catch((e: Error) => {
      throw storeError(storePath, e);
    });
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
      const fig = await figures();
      const funnel = fig?.funnel ?? null;
      const counts = fig?.counts ?? null;
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
    async fixingPrs() {
      return (await figures())?.prs ?? null;
    },
    async close() {
      await cached?.value.catch(() => null);
    },
  };
}
