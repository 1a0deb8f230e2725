/**
 * The item list of a run page, as pure functions: one row per item (its result joined with the dataset
 * item's repository, language, issue length and creation date, and the prediction's output and usage),
 * filters read from the query string (outcome, unparsed, score range, repository, language, length,
 * free text over ids, inputs and outputs), sorting, and the query strings that keep filters across links
 * (sort headers, pager, previous/next on item pages, exports).
 */
import { lengthBucketOf } from '../service/stats.ts';

/** What the model call cost, from the prediction record (null when not recorded: older runs). */
export interface ItemUsage {
  tokensIn: number | null;
  /** The prompt's estimated tokens (characters / 4), recorded for every prediction. */
  tokensInEstimate: number | null;
  tokensOut: number | null;
  latencyMs: number | null;
  costUsd: number | null;
  cacheHit: boolean | null;
}

export interface ItemRow {
  id: string;
  outcome: string;
  scores: Record<string, number>;
  answer: string | null;
  error: string | null;
  durationMs: number;
  /** Task-specific result data (an execution result under `execution`). */
  data: Record<string, unknown>;
  /** Nothing scorable could be read from the output (scored as every metric's floor). */
  unparsed: boolean;
  repo: string;
  language: string;
  /** Characters of the issue text (title + body, or the problem statement). */
  length: number;
  /** The length histogram bucket of `length` (the dataset page's buckets). */
  bucket: string;
  /** The instance's creation date (`YYYY-MM-DD…`), when the dataset records one. */
  created: string | null;
  /** The raw model output (or patch), null without a prediction. */
  output: string | null;
  usage: ItemUsage;
  /** Lower-cased id, input text, output and answer: what the free-text search looks in. */
  text: string;
}

export interface ItemQuery {
  status?: string;
  metric?: string;
  min?: number;
  max?: number;
  repo?: string;
  lang?: string;
  len?: string;
  /** Free text, matched case-insensitively against ids, inputs and outputs. */
  q?: string;
  sort?: string;
  dir?: 'asc' | 'desc';
  page: number;
}

/** The outcome filter's extra value: items whose output could not be parsed. */
export const UNPARSED = 'unparsed';

const NAME = /^[A-Za-z0-9_.-]{1,40}$/;
const num = (v: string | undefined): number | undefined => {
  if (v === undefined || v.trim() === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
};
const text = (v: string | undefined): string | undefined =>
  v !== undefined && v !== '' && v.length <= 200 ? v : undefined;

/** Reads the filters of a run page; unusable values are dropped (a page never fails on its query). */
export function parseItemQuery(q: Record<string, string | undefined>): ItemQuery {
  const out: ItemQuery = { page: Math.max(1, Number.parseInt(q.page ?? '1', 10) || 1) };
  const status = text(q.status);
  if (status) out.status = status;
  if (q.metric && NAME.test(q.metric)) out.metric = q.metric;
  const min = num(q.min);
  const max = num(q.max);
  if (min !== undefined) out.min = min;
  if (max !== undefined) out.max = max;
  for (const k of ['repo', 'lang', 'len'] as const) {
    const v = text(q[k]);
    if (v) out[k] = v;
  }
  const search = text(q.q?.trim());
  if (search) out.q = search;
  if (q.sort && NAME.test(q.sort)) out.sort = q.sort;
  if (q.dir === 'asc' || q.dir === 'desc') out.dir = q.dir;
  return out;
}

/** True when `r` matches the free text `q` (every word, in any order). */
export function matchesText(haystack: string, q: string | undefined): boolean {
  if (!q) return true;
  return q
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => haystack.includes(w));
}

/** The rows that pass every filter of `q` (a score range applies to `q.metric`). */
export function filterItems(rows: ItemRow[], q: ItemQuery): ItemRow[] {
  return rows.filter((r) => {
    if (q.status === UNPARSED ? !r.unparsed : q.status && r.outcome !== q.status) return false;
    if (q.repo && r.repo !== q.repo) return false;
    if (q.lang && r.language !== q.lang) return false;
    if (q.len && r.bucket !== q.len) return false;
    if (q.metric && (q.min !== undefined || q.max !== undefined)) {
      const v = r.scores[q.metric];
      if (typeof v !== 'number') return false;
      if (q.min !== undefined && v < q.min) return false;
      if (q.max !== undefined && v > q.max) return false;
    }
    return matchesText(r.text, q.q);
  });
}

function key(r: ItemRow, col: string): string | number | null {
  switch (col) {
    case 'id':
      return r.id;
    case 'outcome':
      return r.outcome;
    case 'repo':
      return r.repo;
    case 'length':
      return r.length;
    case 'ms':
      return r.durationMs;
    case 'tokens_out':
      return r.usage.tokensOut;
    case 'latency':
      return r.usage.latencyMs;
    default:
      return typeof r.scores[col] === 'number' ? (r.scores[col] as number) : null;
  }
}

/** Sorted by `q.sort` (an item column or a metric; missing values last), ties and default by id. */
export function sortItems(rows: ItemRow[], q: ItemQuery): ItemRow[] {
  const col = q.sort ?? 'id';
  const sign = q.dir === 'desc' ? -1 : 1;
  return [...rows].sort((a, b) => {
    const ka = key(a, col);
    const kb = key(b, col);
    if (ka !== kb) {
      if (ka === null) return 1;
      if (kb === null) return -1;
      const c =
        typeof ka === 'number' && typeof kb === 'number' ? ka - kb : String(ka).localeCompare(String(kb));
      if (c !== 0) return sign * c;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

const KEYS = ['q', 'status', 'metric', 'min', 'max', 'repo', 'lang', 'len', 'sort', 'dir', 'page'] as const;

/** The query string of `q` with `change` applied (`undefined` drops a key); page 1 is left out. */
export function queryString(q: ItemQuery, change: Partial<Record<keyof ItemQuery, unknown>> = {}): string {
  const merged: Record<string, unknown> = { ...q, ...change };
  const p = new URLSearchParams();
  for (const k of KEYS) {
    const v = merged[k];
    if (v === undefined || v === null || v === '' || (k === 'page' && v === 1)) continue;
    p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The usage fields of a prediction record (all null without one, or for fields older runs lack). */
export function usageOf(pred: Record<string, unknown> | null | undefined): ItemUsage {
  const u = (pred?.usage ?? null) as Record<string, unknown> | null;
  return {
    tokensIn: numOrNull(u?.prompt_tokens),
    tokensInEstimate: numOrNull(pred?.input_tokens),
    tokensOut: numOrNull(u?.completion_tokens),
    latencyMs: numOrNull(pred?.latency_ms),
    costUsd: numOrNull(pred?.cost_usd),
    cacheHit: typeof pred?.cache_hit === 'boolean' ? pred.cache_hit : null,
  };
}

/** The output a prediction record carries: a text answer, or an execution run's patch. */
export function outputOf(pred: Record<string, unknown> | null | undefined): string | null {
  if (!pred) return null;
  return typeof pred.model_patch === 'string' ? pred.model_patch : String(pred.output ?? '');
}

/** One item row from a result, its dataset item (absent when the dataset is gone) and its prediction. */
export function itemRow(
  r: {
    itemId: string;
    outcome: string;
    scores: unknown;
    answer: string | null;
    error: string | null;
    durationMs: number;
    data?: unknown;
  },
  it: { repo: string; language: string; length: number; created?: string | null; input?: string } | undefined,
  pred: Record<string, unknown> | null = null,
): ItemRow {
  const length = it?.length ?? 0;
  const data = (r.data ?? {}) as Record<string, unknown>;
  const output = outputOf(pred);
  return {
    id: r.itemId,
    outcome: r.outcome,
    scores: (r.scores ?? {}) as Record<string, number>,
    answer: r.answer,
    error: r.error,
    durationMs: r.durationMs,
    data,
    unparsed: data.unparsed === true,
    repo: it?.repo ?? '',
    language: it?.language ?? '',
    length,
    bucket: it ? lengthBucketOf(length) : '',
    created: it?.created ?? null,
    output,
    usage: usageOf(pred),
    text: [r.itemId, it?.input ?? '', output ?? '', r.answer ?? ''].join('\n').toLowerCase(),
  };
}

/** Per-run totals of the usage columns: sums, the mean latency, cache hits, and how many items record each. */
export function usageTotals(rows: ItemRow[]) {
  const sum = (f: (u: ItemUsage) => number | null) => {
    const vals = rows.map((r) => f(r.usage)).filter((v): v is number => v !== null);
    return { total: vals.reduce((a, b) => a + b, 0), n: vals.length };
  };
  const latency = sum((u) => u.latencyMs);
  return {
    tokensIn: sum((u) => u.tokensIn),
    tokensInEstimate: sum((u) => u.tokensInEstimate),
    tokensOut: sum((u) => u.tokensOut),
    costUsd: sum((u) => u.costUsd),
    latencyMeanMs: latency.n ? latency.total / latency.n : null,
    latencyN: latency.n,
    cacheHits: rows.filter((r) => r.usage.cacheHit === true).length,
    cacheKnown: rows.filter((r) => r.usage.cacheHit !== null).length,
  };
}
