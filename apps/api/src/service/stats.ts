/**
 * Dataset statistics: per-repository counts and the length distribution of the issue text, from the
 * dataset's items; the curation funnel of that dataset — from the card `faun build` wrote beside it
 * (when the card lists this very file), else from the DuckDB store (`--store`) restricted to the
 * dataset's repositories — ending at the dataset's own item count; store counts from the store.
 */
import { basename, dirname, join } from 'node:path';
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
  /**
   * The curation funnel of this dataset's repositories, then the build's own drops and the dataset's
   * items; null without a card or a store.
   */
  funnel: FunnelStep[] | null;
  /** Where the funnel comes from: the dataset's card (`card.json`), the store, or nowhere. */
  funnel_source: 'card' | 'store' | null;
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
  funnelRows: FunnelRow[];
  counts: Record<string, number>;
  prs: Map<string, number>;
}

/** What `faun build` wrote about the datasets of one folder (`card.json`). */
export interface BuildCard {
  files?: Record<string, { sha256?: string }>;
  funnel?: FunnelRow[];
  counts?: Record<string, number>;
  /** Task → reason → pairs the build could not turn into an item. */
  skipped?: Record<string, Record<string, number>>;
}

/**
 * The funnel of one dataset: the curation steps summed over the dataset's repositories only, then each
 * of the build's reasons for dropping a pair, then the dataset's items.
 */
export function datasetFunnel(
  rows: FunnelRow[],
  repos: Set<string>,
  d: { task: string; items: number; skipped?: Record<string, number> },
): FunnelStep[] {
  const steps = aggregateFunnel(rows.filter((r) => repos.has(r.repo)));
  let last = steps.at(-1)?.count;
  for (const [reason, n] of Object.entries(d.skipped ?? {}).sort()) {
    if (last === undefined) break;
    last -= n;
    steps.push({ step: `${d.task}: ${reason}`, count: last });
  }
  steps.push({ step: `${d.task} items in this dataset`, count: d.items });
  return steps;
}

/** The card beside a dataset file, when it describes this very file (same sha256); else null. */
export async function cardFor(path: string, sha: string): Promise<BuildCard | null> {
  try {
    const card = (await Bun.file(join(dirname(path), 'card.json')).json()) as BuildCard;
    return card.files?.[basename(path)]?.sha256 === sha && Array.isArray(card.funnel) ? card : null;
  } catch {
    return null;
  }
}

const storeFigures = async (path: string, open: (path: string) => Promise<StoreLike>): Promise<Figures> => {
  const st = await open(path);
  try {
    const pairs = (await st.pairs?.()) ?? [];
    return {
      funnelRows: await st.funnel(),
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
      const card = await cardFor(info.path, info.sha256);
      const fig = card ? null : await figures();
      const rows = card?.funnel ?? fig?.funnelRows ?? null;
      const funnel = !rows
        ? null
        : rows.length === 0
          ? []
          : datasetFunnel(rows, new Set(repos.keys()), {
              task: info.task,
              items: ds.items.length,
              ...(card?.skipped?.[info.task] ? { skipped: card.skipped[info.task] } : {}),
            });
      const counts = fig?.counts ?? (storePath ? ((await figures())?.counts ?? null) : null);
      return {
        name,
        task: info.task,
        items: ds.items.length,
        per_repo: [...repos]
          .map(([repo, items]) => ({ repo, items }))
          .sort((a, b) => b.items - a.items || a.repo.localeCompare(b.repo)),
        length: lengthHistogram(lengths),
        funnel,
        funnel_source: card ? 'card' : rows ? 'store' : null,
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
