/**
 * The item list of a run page, as pure functions: one row per item (its result joined with the dataset
 * item's repository, language and issue length), filters read from the query string, sorting, and the
 * query strings that keep filters across links (sort headers, pager, previous/next on item pages).
 */
import { lengthBucketOf } from '../service/stats.ts';

export interface ItemRow {
  id: string;
  outcome: string;
  scores: Record<string, number>;
  answer: string | null;
  error: string | null;
  durationMs: number;
  /** Task-specific result data (an execution result under `execution`). */
  data: Record<string, unknown>;
  repo: string;
  language: string;
  /** Characters of the issue text (title + body, or the problem statement). */
  length: number;
  /** The length histogram bucket of `length` (the dataset page's buckets). */
  bucket: string;
}

export interface ItemQuery {
  status?: string;
  metric?: string;
  min?: number;
  max?: number;
  repo?: string;
  lang?: string;
  len?: string;
  sort?: string;
  dir?: 'asc' | 'desc';
  page: number;
}

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
  const repo = text(q.repo);
  const lang = text(q.lang);
  const len = text(q.len);
  if (repo) out.repo = repo;
  if (lang) out.lang = lang;
  if (len) out.len = len;
  if (q.sort && NAME.test(q.sort)) out.sort = q.sort;
  if (q.dir === 'asc' || q.dir === 'desc') out.dir = q.dir;
  return out;
}

/** The rows that pass every filter of `q` (a score range applies to `q.metric`). */
export function filterItems(rows: ItemRow[], q: ItemQuery): ItemRow[] {
  return rows.filter((r) => {
    if (q.status && r.outcome !== q.status) return false;
    if (q.repo && r.repo !== q.repo) return false;
    if (q.lang && r.language !== q.lang) return false;
    if (q.len && r.bucket !== q.len) return false;
    if (q.metric && (q.min !== undefined || q.max !== undefined)) {
      const v = r.scores[q.metric];
      if (typeof v !== 'number') return false;
      if (q.min !== undefined && v < q.min) return false;
      if (q.max !== undefined && v > q.max) return false;
    }
    return true;
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

/** The query string of `q` with `change` applied (`undefined` drops a key); page 1 is left out. */
export function queryString(q: ItemQuery, change: Partial<Record<keyof ItemQuery, unknown>> = {}): string {
  const merged: Record<string, unknown> = { ...q, ...change };
  const p = new URLSearchParams();
  for (const k of ['status', 'metric', 'min', 'max', 'repo', 'lang', 'len', 'sort', 'dir', 'page'] as const) {
    const v = merged[k];
    if (v === undefined || v === null || v === '' || (k === 'page' && v === 1)) continue;
    p.set(k, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : '';
}

/** One item row from a result and its dataset item (absent when the dataset is gone). */
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
  it: { repo: string; language: string; length: number } | undefined,
): ItemRow {
  const length = it?.length ?? 0;
  return {
    id: r.itemId,
    outcome: r.outcome,
    scores: (r.scores ?? {}) as Record<string, number>,
    answer: r.answer,
    error: r.error,
    durationMs: r.durationMs,
    data: (r.data ?? {}) as Record<string, unknown>,
    repo: it?.repo ?? '',
    language: it?.language ?? '',
    length,
    bucket: it ? lengthBucketOf(length) : '',
  };
}
