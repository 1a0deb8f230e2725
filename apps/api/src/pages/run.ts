/** The run page: status, metrics with CIs, outcome chart, per-item table with filters, test logs. */
import { type ItemOutcome, TASK_OUTCOMES } from '@faun/jobs';
import type { Services } from '../context.ts';
import type { Interval } from '../service/report.ts';
import { LENGTH_BUCKETS } from '../service/stats.ts';
import { loadRun, runRows } from './data.ts';
import { fmt, h, Safe } from './h.ts';
import { filterItems, type ItemQuery, parseItemQuery, queryString, sortItems } from './items.ts';
import { metricLabel, orderMetrics } from './labels.ts';
import { layout } from './layout.ts';
import { barChart, columnChart, OUTCOME_COLORS } from './svg.ts';

const PER_PAGE = 50;

function execCell(data: Record<string, unknown>): Safe {
  const ex = data.execution as
    | {
        tests_status?: Record<string, { success: string[]; failure: string[] }>;
        applied_with?: string | null;
        outcome?: string;
      }
    | undefined;
  if (!ex?.tests_status) return h`<span class="muted">—</span>`;
  const parts = Object.entries(ex.tests_status)
    .filter(([, v]) => v.success.length + v.failure.length > 0)
    .map(
      ([k, v]) =>
        h`<div><b>${k}</b> ${v.success.length}✓ ${v.failure.length}✗${v.failure.length ? h` <span class="muted">(${v.failure.slice(0, 3).join(', ')}${v.failure.length > 3 ? '…' : ''})</span>` : ''}</div>`,
    );
  return h`${parts}<div class="muted">${ex.outcome ?? ''}${ex.applied_with ? ` · ${ex.applied_with}` : ''}</div>`;
}

/** A sortable column header: a link that sorts by `col`, toggling the direction when already sorted. */
function sortHeader(q: ItemQuery, col: string, label: string, cls = ''): Safe {
  const on = (q.sort ?? 'id') === col;
  const dir = on && q.dir !== 'desc' ? 'desc' : 'asc';
  const arrow = on ? (q.dir === 'desc' ? ' ▼' : ' ▲') : '';
  return h`<th class="${cls}"><a class="sort" href="${queryString(q, { sort: col, dir, page: 1 })}">${label}${arrow}</a></th>`;
}

const select = (name: string, label: string, values: string[], current: string | undefined, all = 'all') =>
  h`<label>${label}<select name="${name}"><option value="">${all}</option>${values.map((v) => h`<option value="${v}"${new Safe(v === current ? ' selected' : '')}>${v}</option>`)}</select></label>`;

export async function runPage(
  s: Services,
  id: string,
  raw: Record<string, string | undefined>,
): Promise<string> {
  const run = await loadRun(s, id);
  const q = parseItemQuery(raw);
  const counts = await s.runs.counts(id);
  const report = (run.report ?? null) as { metrics?: Record<string, Interval> } | null;
  const metrics = report?.metrics ?? {};
  // the outcomes this task can have (QA/CE: scored, FL: pass on exact match, exec: resolved = pass)
  const taskOutcomes = TASK_OUTCOMES[run.task as keyof typeof TASK_OUTCOMES] ?? TASK_OUTCOMES.exec;
  const OUTCOMES = [
    ...taskOutcomes,
    ...(Object.keys(counts) as ItemOutcome[]).filter((o) => counts[o] > 0 && !taskOutcomes.includes(o)),
  ];
  const { rows: all } = await runRows(s, run);
  const metricNames = orderMetrics(
    run.task,
    all.flatMap((r) => Object.keys(r.scores)),
  );
  const repos = [...new Set(all.map((r) => r.repo).filter(Boolean))].sort();
  const langs = [...new Set(all.map((r) => r.language).filter(Boolean))].sort();
  const buckets = LENGTH_BUCKETS.filter((b) => all.some((r) => r.bucket === b));
  const list = sortItems(filterItems(all, q), q);
  const total = list.length;
  const page = Math.min(q.page, Math.max(1, Math.ceil(total / PER_PAGE)));
  const rows = list.slice((page - 1) * PER_PAGE, page * PER_PAGE);
  const exec = run.kind === 'exec';
  const pct = run.total ? Math.round((run.done / run.total) * 100) : 100;
  const ordered = orderMetrics(run.task, Object.keys(metrics));
  const metricBars = ordered.map((k) => ({
    label: metricLabel(k),
    value: metrics[k]!.value,
    lo: metrics[k]!.lo,
    hi: metrics[k]!.hi,
  }));
  const keep = queryString({ ...q, page: 1 });
  const itemHref = (itemId: string) => `/runs/${run.id}/items/${encodeURIComponent(itemId)}${keep}`;
  const table = rows.map(
    (
      r,
    ) => h`<tr class="link"><td class="id"><a href="${itemHref(r.id)}"><code>${r.id}</code></a></td><td><span class="badge b-${r.outcome}">${r.outcome}</span></td><td class="muted">${r.repo}</td>
${exec ? h`<td>${execCell(r.data)}</td>` : metricNames.map((m) => h`<td class="num">${fmt(r.scores[m])}</td>`)}
<td>${r.answer ? h`<code>${r.answer.length > 80 ? `${r.answer.slice(0, 80)}…` : r.answer}</code>` : h`<span class="muted">—</span>`}${r.error ? h`<div class="muted">${r.error.slice(0, 200)}</div>` : ''}</td><td class="num">${r.length}</td><td class="num">${fmt(r.durationMs, 0)}</td></tr>`,
  );
  const body = h`<h1>Run <code>${run.id}</code></h1>
<p class="sub">${run.model} on <a href="/datasets/${encodeURIComponent(run.dataset)}">${run.dataset}</a> · ${run.task} · ${exec ? 'execution verification' : 'text metrics'} · <span class="badge b-${run.status}">${run.status}</span> · <a href="/compare?dataset=${encodeURIComponent(run.dataset)}&amp;runs=${encodeURIComponent(run.id)}">compare with…</a></p>
<p class="muted">${exec ? 'Execution items pass when the patch resolves the issue (its failing tests pass, passing tests stay green).' : run.task === 'fl' ? 'FL items pass on an exact match of the file path (em = 1).' : 'QA and CE items have no pass mark: a scored item shows its metrics; fail means nothing scorable was extracted from the output.'}${run.task === 'ce' ? ' The CE metric is CodeBLEU of the SEARCH/REPLACE edit text; the edited-file scores are shown beside it.' : ''}</p>
<div class="progress" title="${run.done}/${run.total}"><div style="width:${pct}%"></div></div>
<div class="stats"><div class="stat"><span>items</span><b>${run.done}/${run.total}</b></div>${OUTCOMES.map((o) => h`<div class="stat"><span>${o}</span><b>${counts[o]}</b></div>`)}</div>
${run.error ? h`<div class="card"><b>Error:</b> ${run.error}</div>` : ''}
<div class="card" style="display:flex;gap:24px;flex-wrap:wrap;align-items:flex-start">
<div><h2 style="margin-top:0">Outcomes</h2>${columnChart(
    OUTCOMES.map((o) => ({ label: o, value: counts[o], color: OUTCOME_COLORS[o] ?? '#3b6fd8' })),
    { title: 'outcomes', width: 420 },
  )}</div>
${metricBars.length ? h`<div style="flex:1;min-width:420px"><h2 style="margin-top:0">Metrics <span class="muted">(95% CI)</span></h2>${barChart(metricBars, { title: 'metrics', max: Math.max(1, ...metricBars.map((b) => b.hi ?? b.value)), width: 560 })}</div>` : ''}
</div>
<div class="card"><h2 style="margin-top:0">Items</h2>
<form class="filters" method="get">${select('status', 'Outcome', OUTCOMES, q.status)}
${exec ? '' : h`${select('metric', 'Score', metricNames, q.metric, '—')}<label>Min<input name="min" size="5" value="${q.min ?? ''}"></label><label>Max<input name="max" size="5" value="${q.max ?? ''}"></label>`}
${select('repo', 'Repository', repos, q.repo)}${select('lang', 'Language', langs, q.lang)}${select('len', 'Issue length', buckets, q.len)}
${q.sort ? h`<input type="hidden" name="sort" value="${q.sort}"><input type="hidden" name="dir" value="${q.dir ?? 'asc'}">` : ''}
<button type="submit">Filter</button> <a href="/runs/${run.id}">reset</a></form>
<table id="items"><thead><tr>${sortHeader(q, 'id', 'Item')}${sortHeader(q, 'outcome', 'Outcome')}${sortHeader(q, 'repo', 'Repository')}${exec ? h`<th>Tests</th>` : metricNames.map((m) => sortHeader(q, m, metricLabel(m), 'num'))}<th>${exec ? 'Error' : 'Answer'}</th>${sortHeader(q, 'length', 'Issue chars', 'num')}${sortHeader(q, 'ms', 'ms', 'num')}</tr></thead>
<tbody>${table}</tbody></table>
<div class="pager">${page > 1 ? h`<a href="${queryString(q, { page: page - 1 })}" accesskey="p">← previous</a>` : ''}<span>${total === 0 ? 'no items' : `${(page - 1) * PER_PAGE + 1}–${Math.min(total, page * PER_PAGE)} of ${total}`}</span>${page * PER_PAGE < total ? h`<a href="${queryString(q, { page: page + 1 })}" accesskey="n">next →</a>` : ''}</div>
</div>
<p class="muted">JSON: <a href="/v1/runs/${run.id}">status</a> · <a href="/v1/runs/${run.id}/report">report</a> · <a href="/v1/runs/${run.id}/samples">samples</a></p>`;
  return layout(`Run ${run.id}`, body);
}
