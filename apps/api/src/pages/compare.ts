/**
 * The comparison page: 2–4 runs on one dataset. The paired bootstrap test of each run against the first
 * (the baseline), then the items side by side — each run's output, value and diff against the reference
 * in columns — filtered to where the runs disagree, where all failed, or where only one run solved the
 * item, and by free text; CSV / JSONL export of exactly those items. Without two runs it offers the
 * finished runs of the dataset to pick from (a GET form).
 */
import { metricLabel, orderMetrics } from '@faun/metrics';
import { desc, eq } from 'drizzle-orm';
import type { Services } from '../context.ts';
import { runs } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import {
  COMPARE_RESAMPLES,
  type CompareView,
  type Comparison,
  compareRuns,
  itemValue,
  minDiffering,
  parseView,
  type RunValues,
  solvedOf,
  viewRows,
} from './compare-core.ts';
import { sideBySideItem } from './compare-side.ts';
import { type DatasetItem, loadRuns, type RunRow, runRows } from './data.ts';
import { csvField } from './export.ts';
import { fmt, h, Safe } from './h.ts';
import { type ItemRow, matchesText } from './items.ts';
import { layout, scrollTable } from './layout.ts';

const PER_PAGE = 10;
/** Runs shown side by side at most. */
export const MAX_RUNS = 4;

export interface CompareQuery {
  runs: string[];
  dataset?: string | undefined;
  metric?: string | undefined;
  page?: string | undefined;
  show?: string | undefined;
  q?: string | undefined;
}

/** Run ids from `?runs=a&runs=b` or `?runs=a,b` (deduplicated, in order). */
export function runIdsOf(values: string[]): string[] {
  const ids = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  return [...new Set(ids)];
}

async function picker(
  s: Services,
  dataset: string | undefined,
  chosen: string[],
  note = '',
): Promise<string> {
  const list = await s.db.db
    .select()
    .from(runs)
    .where(dataset ? eq(runs.dataset, dataset) : undefined)
    .orderBy(desc(runs.createdAt))
    .limit(100);
  const done = list.filter((r) => r.status === 'done');
  const table = h`<table><thead><tr><th scope="col">Pick</th><th scope="col">Run</th><th scope="col">Dataset</th><th scope="col">Model</th><th scope="col">Created</th></tr></thead><tbody>${done.map(
    (r) =>
      h`<tr><td><input type="checkbox" name="runs" value="${r.id}" id="pick-${r.id}"${new Safe(chosen.includes(r.id) ? ' checked' : '')}></td><td><label for="pick-${r.id}"><code>${r.id}</code></label></td><td>${r.dataset}</td><td>${r.model}</td><td class="nowrap muted">${r.createdAt.toISOString().slice(0, 19).replace('T', ' ')}</td></tr>`,
  )}</tbody></table>`;
  const body = h`<h1>Compare runs</h1><p class="sub">Pick 2–${MAX_RUNS} finished runs on one dataset${dataset ? h` (<b>${dataset}</b>)` : ''}; the first one is the baseline.</p>
${note ? h`<div class="card error" id="note">${note}</div>` : ''}
<div class="card"><form method="get" action="/compare" id="pick">${
    done.length
      ? h`${scrollTable('runs to compare', table)}<p><button type="submit">Compare</button></p>`
      : h`<p class="muted">No finished runs${dataset ? ' on this dataset' : ''} yet.</p>`
  }</form></div>`;
  return layout('Compare runs', body, '/compare');
}

interface Loaded {
  list: RunRow[];
  task: string;
  items: Map<string, DatasetItem>;
  rows: Map<string, ItemRow>[];
  names: string[];
}

async function loadAll(s: Services, list: RunRow[]): Promise<Loaded> {
  const first = list[0]!;
  const task = first.kind === 'exec' ? 'exec' : first.task;
  const loaded = await Promise.all(list.map((r) => runRows(s, r)));
  const rows = loaded.map((l) => new Map(l.rows.map((r) => [r.id, r])));
  const names =
    task === 'exec'
      ? ['resolved']
      : orderMetrics(
          task,
          loaded.flatMap((l) => l.rows.flatMap((r) => Object.keys(r.scores))),
        );
  return { list, task, items: loaded[0]!.items, rows, names };
}

function compareOf(d: Loaded, metric: string): Comparison {
  const vals: RunValues[] = d.list.map((run, i) => ({
    id: run.id,
    model: run.model,
    items: new Map(
      [...d.rows[i]!.values()].map((r) => {
        const value = itemValue(d.task, metric, r);
        return [r.id, { outcome: r.outcome, value, solved: solvedOf(d.task, r, value) }];
      }),
    ),
  }));
  const itemIds = d.items.size ? [...d.items.keys()] : [...new Set(d.rows.flatMap((m) => [...m.keys()]))];
  const binary = d.task === 'exec' || (d.task === 'fl' && metric === 'em');
  return compareRuns(vals, itemIds, { binary });
}

function summary(d: Loaded, cmp: Comparison, metric: string): Safe {
  const need = minDiffering(0.05);
  const rows = d.list.map((r, i) => {
    const t = i === 0 ? null : cmp.tests[i - 1]!;
    const verdict = !t
      ? '—'
      : t.significant
        ? h`${fmt(t.p, 4)} <span class="sig">significant</span>`
        : t.differing < need
          ? h`${fmt(t.p, 4)} <span class="muted">n.s. — ${t.differing} differing items, a test needs ≥ ${need}</span>`
          : h`${fmt(t.p, 4)} <span class="muted">n.s.</span>`;
    const d0 = t
      ? h`<span class="${t.diff > 0 ? 'better' : t.diff < 0 ? 'worse' : 'muted'}">${t.diff > 0 ? '+' : ''}${fmt(t.diff)}</span>`
      : '—';
    return h`<tr><td><a href="/runs/${r.id}"><code>${r.id}</code></a></td><td>${r.model}${i === 0 ? h` <span class="muted">(baseline)</span>` : ''}</td><td class="num">${fmt(cmp.means[i])}</td><td class="num">${d0}</td><td class="num p-value">${verdict}</td></tr>`;
  });
  return scrollTable(
    'paired tests',
    h`<table id="summary"><thead><tr><th scope="col">Run</th><th scope="col">Model</th><th scope="col" class="num">${metricLabel(metric)} (mean)</th><th scope="col" class="num">Δ vs baseline</th><th scope="col" class="num">p (paired bootstrap)</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

function viewForm(d: Loaded, ids: string[], metric: string, view: CompareView, q: string | undefined): Safe {
  const opt = (v: string, label: string, on: boolean) =>
    h`<option value="${v}"${new Safe(on ? ' selected' : '')}>${label}</option>`;
  const shows = [
    opt('all', 'every item', view.kind === 'all'),
    opt('disagree', 'where they disagree', view.kind === 'disagree'),
    opt('all-failed', 'all failed', view.kind === 'all-failed'),
    ...d.list.map((r, i) =>
      opt(`only-${i}`, `only ${r.model} solved`, view.kind === 'only' && view.run === i),
    ),
  ];
  return h`<form class="filters" method="get" action="/compare" role="search" aria-label="Filter the items">${ids.map((id) => h`<input type="hidden" name="runs" value="${id}">`)}
<label>Show<select name="show">${shows}</select></label>
<label>Metric<select name="metric">${d.names.map((m) => opt(m, metricLabel(m), m === metric))}</select></label>
<label>Search ids, inputs, outputs<input type="search" name="q" value="${q ?? ''}" size="22"></label>
<button type="submit">Show</button> <a href="/compare?dataset=${encodeURIComponent(d.list[0]!.dataset)}&amp;${new Safe(ids.map((id) => `runs=${encodeURIComponent(id)}`).join('&amp;'))}">change runs</a></form>`;
}

/** The query string of the page with `change` applied (keeps runs, metric, view and search). */
function compareQs(ids: string[], o: Record<string, string | number | undefined>): string {
  const p = new URLSearchParams();
  for (const id of ids) p.append('runs', id);
  for (const [k, v] of Object.entries(o))
    if (v !== undefined && v !== '' && !(k === 'page' && v === 1)) p.set(k, String(v));
  return `?${p}`;
}

/** The runs, the comparison and the filtered rows of a comparison query (shared with the exports). */
export async function comparison(s: Services, q: CompareQuery) {
  const ids = runIdsOf(q.runs);
  if (ids.length > MAX_RUNS)
    throw new ApiError(
      400,
      'too_many_runs',
      `compare at most ${MAX_RUNS} runs side by side (got ${ids.length})`,
    );
  const list = await loadRuns(s, ids);
  const first = list[0]!;
  const other = list.find((r) => r.dataset !== first.dataset || r.task !== first.task);
  if (other)
    throw new ApiError(
      400,
      'different_datasets',
      `runs compare only on one dataset: '${first.id}' is on ${first.dataset} (${first.task}), '${other.id}' on ${other.dataset} (${other.task})`,
    );
  const d = await loadAll(s, list);
  const metric = q.metric && d.names.includes(q.metric) ? q.metric : (d.names[0] ?? 'em');
  const cmp = compareOf(d, metric);
  const view = parseView(q.show, list.length);
  const text = (id: string) => d.rows.map((m) => m.get(id)?.text ?? '').join('\n');
  const shown = viewRows(cmp, view).filter((r) => matchesText(text(r.id), q.q));
  return { ids, d, metric, cmp, view, shown };
}

export async function comparePage(s: Services, q: CompareQuery): Promise<string> {
  const ids = runIdsOf(q.runs);
  if (ids.length < 2 || ids.length > MAX_RUNS) {
    const first = ids.length ? (await loadRuns(s, ids.slice(0, 1)))[0] : undefined;
    const note =
      ids.length > MAX_RUNS ? `Side by side takes at most ${MAX_RUNS} runs; pick up to ${MAX_RUNS}.` : '';
    return picker(s, q.dataset ?? first?.dataset, ids, note);
  }
  const { d, metric, cmp, view, shown } = await comparison(s, q);
  const first = d.list[0]!;
  const page = Math.max(
    1,
    Math.min(Number.parseInt(q.page ?? '1', 10) || 1, Math.ceil(shown.length / PER_PAGE) || 1),
  );
  const slice = shown.slice((page - 1) * PER_PAGE, page * PER_PAGE);
  const keep = { metric, show: q.show, q: q.q };
  const binary = d.task === 'exec' || d.task === 'fl';
  const body = h`<h1>Compare runs</h1>
<p class="sub">${d.list.length} runs on <a href="/datasets/${encodeURIComponent(first.dataset)}">${first.dataset}</a> · ${first.task} · ${cmp.rows.length} items · per-item ${metricLabel(metric)}${binary ? ' (1 = right, 0 = wrong)' : ''}</p>
${viewForm(d, ids, metric, view, q.q)}
<div class="card"><h2>Paired bootstrap test against the baseline</h2>${summary(d, cmp, metric)}
<p class="muted">Two-sided p-value of the mean per-item difference, ${COMPARE_RESAMPLES} paired resamples of the items (fixed seed); significant at p &lt; 0.05 when at least ${minDiffering(0.05)} items differ. Items without a result count 0. Solved: ${d.task === 'qa' ? `${metricLabel(metric)} ≥ 0.5 (QA has no pass mark)` : d.task === 'ce' ? 'the edited file equals the gold file' : 'the item passes'}.</p></div>
<h2 id="side-by-side">Items side by side (${shown.length})</h2>
<p class="muted">Export exactly these ${shown.length} items: <a href="/compare.csv${compareQs(ids, keep)}">CSV</a> · <a href="/compare.jsonl${compareQs(ids, keep)}">JSONL</a></p>
${slice.length ? slice.map((r) => sideBySideItem(d.list, r, d.rows, d.items.get(r.id), metric)) : h`<div class="card"><p class="muted">No item matches.</p></div>`}
<nav class="pager" aria-label="Item pages">${page > 1 ? h`<a href="${compareQs(ids, { ...keep, page: page - 1 })}" accesskey="p" rel="prev">← previous</a>` : ''}<span>${shown.length ? `${(page - 1) * PER_PAGE + 1}–${Math.min(shown.length, page * PER_PAGE)} of ${shown.length}` : 'no items'}</span>${page * PER_PAGE < shown.length ? h`<a href="${compareQs(ids, { ...keep, page: page + 1 })}" accesskey="n" rel="next">next →</a>` : ''}</nav>`;
  return layout('Compare runs', body, '/compare');
}

/** CSV / JSONL of the items a comparison query shows: per run its outcome, value, solved and unparsed. */
export async function compareExport(s: Services, q: CompareQuery, format: 'csv' | 'jsonl'): Promise<string> {
  const { d, shown } = await comparison(s, q);
  const recs = shown.map((row) => ({
    item_id: row.id,
    runs: d.list.map((run, i) => ({
      run_id: run.id,
      model: run.model,
      outcome: row.cells[i]!.outcome,
      value: row.cells[i]!.value,
      solved: row.cells[i]!.solved,
      unparsed: d.rows[i]!.get(row.id)?.unparsed ?? false,
    })),
  }));
  if (format === 'jsonl') return recs.map((r) => `${JSON.stringify(r)}\n`).join('');
  const head = [
    'item_id',
    ...d.list.flatMap((r) => ['outcome', 'value', 'solved', 'unparsed'].map((k) => `${r.id}_${k}`)),
  ];
  const lines = recs.map((r) => [
    r.item_id,
    ...r.runs.flatMap((x) => [x.outcome, x.value, x.solved, x.unparsed]),
  ]);
  return [head, ...lines].map((l) => `${l.map(csvField).join(',')}\r\n`).join('');
}
