/**
 * CSV and JSONL exports of exactly the rows a run page shows: the same filters, search and order (every
 * page of them, not just the visible one). One record per item: id, outcome, unparsed, repository,
 * language, each metric, the extracted answer, usage and the error.
 */
import type { ItemRow } from './items.ts';

export type ExportFormat = 'csv' | 'jsonl';

/** The record of one row (stable key order). */
export function exportRecord(r: ItemRow, metrics: string[]): Record<string, unknown> {
  const rec: Record<string, unknown> = {
    item_id: r.id,
    outcome: r.outcome,
    unparsed: r.unparsed,
    repo: r.repo,
    language: r.language,
  };
  for (const m of metrics) rec[m] = r.scores[m] ?? null;
  Object.assign(rec, {
    answer: r.answer,
    tokens_in: r.usage.tokensIn,
    tokens_out: r.usage.tokensOut,
    latency_ms: r.usage.latencyMs,
    cost_usd: r.usage.costUsd,
    cache_hit: r.usage.cacheHit,
    duration_ms: r.durationMs,
    error: r.error,
  });
  return rec;
}

/** A CSV field: quoted when it holds a comma, quote or line break (RFC 4180); empty for null. */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'string' ? v : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** The export body of `rows` in `format`. */
export function exportBody(rows: ItemRow[], metrics: string[], format: ExportFormat): string {
  const recs = rows.map((r) => exportRecord(r, metrics));
  if (format === 'jsonl') return recs.map((r) => `${JSON.stringify(r)}\n`).join('');
  const head = Object.keys(exportRecord({ ...EMPTY }, metrics));
  return [head, ...recs.map((r) => head.map((k) => r[k]))]
    .map((row) => `${row.map(csvField).join(',')}\r\n`)
    .join('');
}

const EMPTY: ItemRow = {
  id: '',
  outcome: '',
  scores: {},
  answer: null,
  error: null,
  durationMs: 0,
  data: {},
  unparsed: false,
  repo: '',
  language: '',
  length: 0,
  bucket: '',
  created: null,
  output: null,
  usage: {
    tokensIn: null,
    tokensInEstimate: null,
    tokensOut: null,
    latencyMs: null,
    costUsd: null,
    cacheHit: null,
  },
  text: '',
};
