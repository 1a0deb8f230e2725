/** The run page: status, metrics with CIs, outcome chart, per-item table with filters, test logs. */
import { type ItemOutcome, TASK_OUTCOMES } from '@faun/jobs';
import { and, eq, sql } from 'drizzle-orm';
import type { Services } from '../context.ts';
import { results, runs } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import type { Interval } from '../service/report.ts';
import { fmt, h, Safe } from './h.ts';
import { layout } from './layout.ts';
import { barChart, columnChart, OUTCOME_COLORS } from './svg.ts';

export interface RunPageQuery {
  status?: string | undefined;
  metric?: string | undefined;
  min?: string | undefined;
  max?: string | undefined;
  page?: string | undefined;
}

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

export async function runPage(s: Services, id: string, q: RunPageQuery): Promise<string> {
  const [run] = await s.db.db.select().from(runs).where(eq(runs.id, id));
  if (!run) throw new ApiError(404, 'run_not_found', `no run with id '${id}'`);
  const counts = await s.runs.counts(id);
  const report = (run.report ?? null) as { metrics?: Record<string, Interval> } | null;
  const metrics = report?.metrics ?? {};
  const page = Math.max(1, Number.parseInt(q.page ?? '1', 10) || 1);
  // the outcomes this task can have (QA/CE: scored, FL: pass on exact match, exec: resolved = pass)
  const taskOutcomes = TASK_OUTCOMES[run.task as keyof typeof TASK_OUTCOMES] ?? TASK_OUTCOMES.exec;
  const OUTCOMES = [
    ...taskOutcomes,
    ...(Object.keys(counts) as ItemOutcome[]).filter((o) => counts[o] > 0 && !taskOutcomes.includes(o)),
  ];
  const status = OUTCOMES.find((o) => o === q.status);
  const metric = q.metric && /^[A-Za-z0-9_.-]{1,40}$/.test(q.metric) ? q.metric : undefined;
  const min = q.min !== undefined && q.min !== '' ? Number(q.min) : undefined;
  const max = q.max !== undefined && q.max !== '' ? Number(q.max) : undefined;
  const scoreExpr = metric ? sql`(${results.scores}->>${metric})::float8` : null;
  const where = and(
    eq(results.runId, id),
    status ? eq(results.outcome, status) : undefined,
    scoreExpr && min !== undefined && Number.isFinite(min) ? sql`${scoreExpr} >= ${min}` : undefined,
    scoreExpr && max !== undefined && Number.isFinite(max) ? sql`${scoreExpr} <= ${max}` : undefined,
  );
  const [count] = await s.db.db.select({ n: sql<number>`count(*)::int` }).from(results).where(where);
  const rows = await s.db.db
    .select()
    .from(results)
    .where(where)
    .orderBy(results.itemId)
    .limit(PER_PAGE)
    .offset((page - 1) * PER_PAGE);
  const metricNames = [
    ...new Set(rows.flatMap((r) => Object.keys(r.scores as Record<string, number>))),
  ].sort();
  const exec = run.kind === 'exec';
  const qs = (p: number) =>
    `?${new URLSearchParams({ ...(status ? { status } : {}), ...(metric ? { metric } : {}), ...(q.min ? { min: q.min } : {}), ...(q.max ? { max: q.max } : {}), page: String(p) })}`;
  const pct = run.total ? Math.round((run.done / run.total) * 100) : 100;
  const metricBars = Object.entries(metrics).map(([k, v]) => ({
    label: k,
    value: v.value,
    lo: v.lo,
    hi: v.hi,
  }));
  const table = rows.map((r) => {
    const sc = r.scores as Record<string, number>;
    return h`<tr><td class="id"><code>${r.itemId}</code></td><td><span class="badge b-${r.outcome}">${r.outcome}</span></td>
${exec ? h`<td>${execCell(r.data as Record<string, unknown>)}</td>` : metricNames.map((m) => h`<td class="num">${fmt(sc[m])}</td>`)}
<td>${r.answer ? h`<code>${r.answer.length > 80 ? `${r.answer.slice(0, 80)}…` : r.answer}</code>` : h`<span class="muted">—</span>`}${r.error ? h`<div class="muted">${r.error}</div>` : ''}
${r.log ? h`<details><summary>test log</summary><pre>${r.log}</pre></details>` : ''}</td><td class="num">${fmt(r.durationMs, 0)}</td></tr>`;
  });
  const total = count?.n ?? 0;
  const body = h`<h1>Run <code>${run.id}</code></h1>
<p class="sub">${run.model} on <a href="/datasets/${encodeURIComponent(run.dataset)}">${run.dataset}</a> · ${run.task} · ${exec ? 'execution verification' : 'text metrics'} · <span class="badge b-${run.status}">${run.status}</span></p>
<p class="muted">${exec ? 'Execution items pass when the patch resolves the issue (its failing tests pass, passing tests stay green).' : run.task === 'fl' ? 'FL items pass on an exact match of the file path (em = 1).' : 'QA and CE items have no pass mark: a scored item shows its metrics; fail means nothing scorable was extracted from the output.'}</p>
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
<form class="filters" method="get"><label>Outcome<select name="status"><option value="">all</option>${OUTCOMES.map((o) => h`<option value="${o}"${new Safe(o === status ? ' selected' : '')}>${o}</option>`)}</select></label>
${
  exec
    ? ''
    : h`<label>Metric<select name="metric"><option value="">—</option>${metricNames.map((m) => h`<option value="${m}"${new Safe(m === metric ? ' selected' : '')}>${m}</option>`)}</select></label>
<label>Min<input name="min" size="5" value="${q.min ?? ''}"></label><label>Max<input name="max" size="5" value="${q.max ?? ''}"></label>`
}
<button type="submit">Filter</button></form>
<table id="items"><thead><tr><th>Item</th><th>Outcome</th>${exec ? h`<th>Tests</th>` : metricNames.map((m) => h`<th class="num">${m}</th>`)}<th>${exec ? 'Log' : 'Answer'}</th><th class="num">ms</th></tr></thead>
<tbody>${table}</tbody></table>
<div class="pager">${page > 1 ? h`<a href="${qs(page - 1)}">← previous</a>` : ''}<span>${total === 0 ? 'no items' : `${(page - 1) * PER_PAGE + 1}–${Math.min(total, page * PER_PAGE)} of ${total}`}</span>${page * PER_PAGE < total ? h`<a href="${qs(page + 1)}">next →</a>` : ''}</div>
</div>
<p class="muted">JSON: <a href="/v1/runs/${run.id}">status</a> · <a href="/v1/runs/${run.id}/report">report</a> · <a href="/v1/runs/${run.id}/samples">samples</a></p>`;
  return layout(`Run ${run.id}`, body);
}
