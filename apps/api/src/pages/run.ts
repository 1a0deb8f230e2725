/**
 * The run page: status, outcomes, metrics with CIs, the score histogram, breakdowns per repository and
 * language (and over creation dates for execution runs), usage totals, and the item table with free-text
 * search, filters, sorting, CSV / JSONL export of exactly the filtered rows, and links that keep the
 * filters in the URL.
 */
import { type ItemOutcome, TASK_OUTCOMES } from '@faun/jobs';
import { formatMetric, metricLabel, orderMetrics, primaryMetricOf } from '@faun/metrics';
import type { Services } from '../context.ts';
import type { Interval } from '../service/report.ts';
import { LENGTH_BUCKETS } from '../service/stats.ts';
import { loadRun, type RunRow, runRows } from './data.ts';
import { fmt, h, Safe } from './h.ts';
import {
  filterItems,
  type ItemQuery,
  type ItemRow,
  parseItemQuery,
  queryString,
  sortItems,
  UNPARSED,
} from './items.ts';
import { layout, scrollTable } from './layout.ts';
import {
  breakdownSection,
  creationSection,
  histogramSection,
  overviewCharts,
  usageSection,
} from './run-sections.ts';

export const PER_PAGE = 50;

function execCell(data: Record<string, unknown>): Safe {
  const ex = data.execution as
    | {
        tests_status?: Record<string, { success: string[]; failure: string[] }>;
        applied_with?: string | null;
        outcome?: string;
      }
    | undefined;
  if (!ex?.tests_status) return h`<span class="muted">—</span>`;
  if (ex.outcome === 'apply_failed' || ex.outcome === 'empty_patch')
    return h`<span class="muted">tests not run (${ex.outcome === 'empty_patch' ? 'empty patch' : 'patch did not apply'})</span>`;
  const parts = Object.entries(ex.tests_status)
    .filter(([, v]) => v.success.length + v.failure.length > 0)
    .map(([k, v]) => h`<div><b>${k}</b> ${v.success.length} passed, ${v.failure.length} failed</div>`);
  return h`${parts}<div class="muted">${ex.outcome ?? ''}${ex.applied_with ? ` · ${ex.applied_with}` : ''}</div>`;
}

/** A sortable column header: a link that sorts by `col`, toggling the direction when already sorted. */
function sortHeader(q: ItemQuery, col: string, label: string, cls = ''): Safe {
  const on = (q.sort ?? 'id') === col;
  const dir = on && q.dir !== 'desc' ? 'desc' : 'asc';
  const arrow = on ? (q.dir === 'desc' ? ' ▼' : ' ▲') : '';
  const sort = on ? (q.dir === 'desc' ? 'descending' : 'ascending') : 'none';
  return h`<th scope="col" class="${cls}" aria-sort="${sort}"><a class="sort" href="${queryString(q, { sort: col, dir, page: 1 })}">${label}${arrow}</a></th>`;
}

const select = (name: string, label: string, values: string[], current: string | undefined, all = 'all') =>
  h`<label>${label}<select name="${name}"><option value="">${all}</option>${values.map((v) => h`<option value="${v}"${new Safe(v === current ? ' selected' : '')}>${v}</option>`)}</select></label>`;

const answerCell = (r: ItemRow) =>
  h`<td class="answer">${r.unparsed ? h`<span class="badge b-unparsed">unparsed</span> ` : ''}${r.answer ? h`<code>${r.answer.length > 80 ? `${r.answer.slice(0, 80)}…` : r.answer}</code>` : r.unparsed ? '' : h`<span class="muted">—</span>`}${r.error ? h`<div class="muted">${r.error.slice(0, 200)}</div>` : ''}</td>`;

interface TableSpec {
  run: RunRow;
  q: ItemQuery;
  exec: boolean;
  metrics: string[];
  usage: boolean;
}

function itemTable(t: TableSpec, rows: ItemRow[]): Safe {
  const { run, q, exec, metrics, usage } = t;
  const keep = queryString({ ...q, page: 1 });
  const href = (id: string) => `/runs/${run.id}/items/${encodeURIComponent(id)}${keep}`;
  const head = h`<tr>${sortHeader(q, 'id', 'Item')}${sortHeader(q, 'outcome', 'Outcome')}${sortHeader(q, 'repo', 'Repository', 'hide-sm')}${exec ? h`<th scope="col">Tests</th>` : metrics.map((m) => sortHeader(q, m, metricLabel(m), 'num'))}<th scope="col">${exec ? 'Error' : 'Answer'}</th>${usage ? h`${sortHeader(q, 'tokens_out', 'Tokens out', 'num')}${sortHeader(q, 'latency', 'Latency ms', 'num')}` : ''}${sortHeader(q, 'length', 'Issue chars', 'num hide-sm')}${sortHeader(q, 'ms', 'ms', 'num hide-sm')}</tr>`;
  const body = rows.map(
    (r) =>
      h`<tr class="link"><td class="id"><a href="${href(r.id)}"><code>${r.id}</code></a></td><td><span class="badge b-${r.outcome}">${r.outcome}</span></td><td class="muted hide-sm">${r.repo}</td>
${exec ? h`<td>${execCell(r.data)}</td>` : metrics.map((m) => h`<td class="num">${formatMetric(m, r.scores[m])}</td>`)}${answerCell(r)}${usage ? h`<td class="num">${fmt(r.usage.tokensOut, 0)}</td><td class="num">${fmt(r.usage.latencyMs, 0)}</td>` : ''}<td class="num hide-sm">${r.length}</td><td class="num hide-sm">${fmt(r.durationMs, 0)}</td></tr>`,
  );
  return scrollTable('items', h`<table id="items"><thead>${head}</thead><tbody>${body}</tbody></table>`);
}

function filterForm(t: TableSpec, outcomes: string[], all: ItemRow[]): Safe {
  const { run, q, exec, metrics } = t;
  const repos = [...new Set(all.map((r) => r.repo).filter(Boolean))].sort();
  const langs = [...new Set(all.map((r) => r.language).filter(Boolean))].sort();
  const buckets = LENGTH_BUCKETS.filter((b) => all.some((r) => r.bucket === b));
  return h`<form class="filters" method="get" role="search" aria-label="Filter the items">
<label>Search ids, inputs, outputs<input type="search" name="q" value="${q.q ?? ''}" size="24"></label>${select('status', 'Outcome', outcomes, q.status)}
${exec ? '' : h`${select('metric', 'Score', metrics, q.metric, '—')}<label>Min<input name="min" size="5" inputmode="decimal" value="${q.min ?? ''}"></label><label>Max<input name="max" size="5" inputmode="decimal" value="${q.max ?? ''}"></label>`}
${select('repo', 'Repository', repos, q.repo)}${select('lang', 'Language', langs, q.lang)}${select('len', 'Issue length', buckets, q.len)}
${q.sort ? h`<input type="hidden" name="sort" value="${q.sort}"><input type="hidden" name="dir" value="${q.dir ?? 'asc'}">` : ''}
<button type="submit">Filter</button> <a href="/runs/${run.id}">reset</a></form>`;
}

/** The outcomes a run's filter offers: its task's, any other present, and `unparsed` when there are some. */
function outcomesOf(run: RunRow, counts: Record<string, number>, all: ItemRow[]): string[] {
  const task = TASK_OUTCOMES[run.task as keyof typeof TASK_OUTCOMES] ?? TASK_OUTCOMES.exec;
  return [
    ...task,
    ...(Object.keys(counts) as ItemOutcome[]).filter((o) => (counts[o] ?? 0) > 0 && !task.includes(o)),
    ...(all.some((r) => r.unparsed) ? [UNPARSED] : []),
  ];
}

function runHeader(run: RunRow, counts: Record<string, number>, outcomes: string[], unparsed: number): Safe {
  const exec = run.kind === 'exec';
  const pct = run.total ? Math.round((run.done / run.total) * 100) : 100;
  const note = exec
    ? 'Execution items pass when the patch resolves the issue (its failing tests pass, passing tests stay green).'
    : run.task === 'fl'
      ? 'FL items pass on an exact match of the file path (em = 1).'
      : 'QA and CE items have no pass mark: a scored item shows its metrics; fail means nothing scorable was extracted from the output.';
  return h`<h1>Run <code>${run.id}</code></h1>
<p class="sub">${run.model} on <a href="/datasets/${encodeURIComponent(run.dataset)}">${run.dataset}</a> · ${run.task} · ${exec ? 'execution verification' : 'text metrics'} · <span class="badge b-${run.status}">${run.status}</span> · <a href="/compare?dataset=${encodeURIComponent(run.dataset)}&amp;runs=${encodeURIComponent(run.id)}">compare with…</a></p>
<p class="muted">${note}${run.task === 'ce' ? ' The CE metric is CodeBLEU of the SEARCH/REPLACE edit text; the edited-file scores are shown beside it.' : ''}${unparsed ? ` ${unparsed} outputs could not be parsed: they score every metric's floor.` : ''}</p>
<div class="progress" role="progressbar" aria-label="items done" aria-valuenow="${pct}" aria-valuemin="0" aria-valuemax="100"><div style="width:${pct}%"></div></div>
<div class="stats"><div class="stat"><span>items</span><b>${run.done}/${run.total}</b></div>${outcomes.map((o) => h`<div class="stat"><span>${o}</span><b>${o === UNPARSED ? unparsed : (counts[o] ?? 0)}</b></div>`)}</div>
${run.error ? h`<div class="card error"><b>Error:</b> ${run.error}</div>` : ''}`;
}

/** The run's rows under the page's filters and sort, and what the table shows. */
export async function filteredRows(s: Services, id: string, raw: Record<string, string | undefined>) {
  const run = await loadRun(s, id);
  const q = parseItemQuery(raw);
  const { rows: all, items } = await runRows(s, run);
  const exec = run.kind === 'exec';
  const metrics = exec
    ? []
    : orderMetrics(
        run.task,
        all.flatMap((r) => Object.keys(r.scores)),
      );
  const list = sortItems(filterItems(all, q), q);
  return { run, q, all, items, list, exec, metrics };
}

export async function runPage(
  s: Services,
  id: string,
  raw: Record<string, string | undefined>,
): Promise<string> {
  const { run, q, all, list, exec, metrics } = await filteredRows(s, id, raw);
  const counts = (await s.runs.counts(id)) as unknown as Record<string, number>;
  const report = (run.report ?? null) as { metrics?: Record<string, Interval> } | null;
  const means = report?.metrics ?? {};
  const outcomes = outcomesOf(run, counts, all);
  const unparsed = all.filter((r) => r.unparsed).length;
  const total = list.length;
  const page = Math.min(q.page, Math.max(1, Math.ceil(total / PER_PAGE)));
  const rows = list.slice((page - 1) * PER_PAGE, page * PER_PAGE);
  const usage = all.some((r) => r.usage.tokensOut !== null || r.usage.latencyMs !== null);
  const spec: TableSpec = { run, q, exec, metrics, usage };
  const primary = exec ? null : (q.metric ?? primaryMetricOf(run.task, metrics));
  const exports = (ext: string) => `/runs/${run.id}/items.${ext}${queryString({ ...q, page: 1 })}`;
  const body = h`${runHeader(run, counts, outcomes, unparsed)}
${overviewCharts(
  outcomes.filter((o) => o !== UNPARSED),
  counts,
  means,
  orderMetrics(run.task, Object.keys(means)),
)}
${exec ? '' : histogramSection(list, primary)}
${breakdownSection(list, primary)}
${exec ? creationSection(list, null) : ''}
<h2>Usage</h2>${usageSection(all)}
<div class="card"><h2 id="items-title">Items</h2>
${filterForm(spec, outcomes, all)}
<p class="muted">Export exactly these ${total} rows: <a href="${exports('csv')}">CSV</a> · <a href="${exports('jsonl')}">JSONL</a></p>
${itemTable(spec, rows)}
<nav class="pager" aria-label="Item pages">${page > 1 ? h`<a href="${queryString(q, { page: page - 1 })}" accesskey="p" rel="prev">← previous</a>` : ''}<span>${total === 0 ? 'no items' : `${(page - 1) * PER_PAGE + 1}–${Math.min(total, page * PER_PAGE)} of ${total}`}</span>${page * PER_PAGE < total ? h`<a href="${queryString(q, { page: page + 1 })}" accesskey="n" rel="next">next →</a>` : ''}</nav>
</div>
<p class="muted">JSON: <a href="/v1/runs/${run.id}">status</a> · <a href="/v1/runs/${run.id}/report">report</a> · <a href="/v1/runs/${run.id}/samples">samples</a></p>`;
  return layout(`Run ${run.id}`, body, '/runs');
}
