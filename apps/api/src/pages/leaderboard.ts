/**
 * The leaderboard page: per dataset/task, one row per model (its latest finished run) ranked by the
 * task's primary metric with 95% CIs, the count of unparsed outputs, † for a significant difference from
 * the best (paired bootstrap, with enough differing items), a CI chart, and the primary metric (or the
 * resolved rate) per language and per repository for every model.
 */
import { formatMetric, metricLabel, orderMetrics, primaryMetricOf } from '@faun/metrics';
import { inArray } from 'drizzle-orm';
import type { Services } from '../context.ts';
import { results } from '../db/schema.ts';
import { leaderboardEntries } from '../routes/datasets.ts';
import { breakdown } from './breakdown.ts';
import { COMPARE_RESAMPLES, compareRuns, itemValue, minDiffering, type PairTest } from './compare-core.ts';
import { datasetItems, itemInfo } from './data.ts';
import { fmt, h, type Safe } from './h.ts';
import { type ItemRow, itemRow } from './items.ts';
import { layout, scrollTable } from './layout.ts';
import { barChart } from './svg.ts';

type Entry = Awaited<ReturnType<typeof leaderboardEntries>>[number];

/** Every entry's result rows (with the dataset items' repository and language). */
async function rowsOf(s: Services, dataset: string, runIds: string[]): Promise<Map<string, ItemRow[]>> {
  const [list, items] = await Promise.all([
    runIds.length ? s.db.db.select().from(results).where(inArray(results.runId, runIds)) : [],
    datasetItems(s, dataset),
  ]);
  const out = new Map<string, ItemRow[]>(runIds.map((id) => [id, []]));
  for (const r of list) {
    const it = items.get(r.itemId);
    out.get(r.runId)?.push(itemRow(r, it ? itemInfo(it) : undefined));
  }
  return out;
}

/** Run id → the paired test of its per-item primary metric against the first (best) run. */
function significance(task: string, metric: string, entries: Entry[], rows: Map<string, ItemRow[]>) {
  const valuesOf = (id: string) => ({
    id,
    model: id,
    items: new Map(
      (rows.get(id) ?? []).map((r) => [r.id, { outcome: r.outcome, value: itemValue(task, metric, r) }]),
    ),
  });
  const out = new Map<string, PairTest>();
  const best = entries[0];
  if (!best) return out;
  const base = valuesOf(best.run_id);
  const ids = [...base.items.keys()];
  for (const e of entries.slice(1)) {
    const t = compareRuns([base, valuesOf(e.run_id)], ids).tests[0];
    if (t) out.set(e.run_id, t);
  }
  return out;
}

function mainTable(entries: Entry[], ordered: string[], primary: string, sig: Map<string, PairTest>): Safe {
  const rows = entries.map((e, i) => {
    const cells = ordered.map((m) => {
      const v = e.metrics[m];
      const t = m === primary && i > 0 ? sig.get(e.run_id) : undefined;
      const mark = t?.significant
        ? h` <span class="sig" title="differs from the best: paired bootstrap p = ${fmt(t.p, 4)} over ${t.differing} differing items">†</span>`
        : '';
      return h`<td class="num">${formatMetric(m, v?.value)}${mark}${v && v.lo != null ? h`<span class="ci">[${formatMetric(m, v.lo)}, ${formatMetric(m, v.hi)}]</span>` : ''}</td>`;
    });
    const compare =
      i > 0
        ? h`<a href="/compare?runs=${encodeURIComponent(entries[0]!.run_id)}&amp;runs=${encodeURIComponent(e.run_id)}">vs best</a>`
        : '';
    return h`<tr><td class="num">${i + 1}</td><td><a href="/runs/${e.run_id}">${e.model}</a></td><td class="muted">${e.owner ?? 'server'}</td>${cells}<td class="num">${e.unparsed}</td><td class="num">${e.n}</td><td class="nowrap muted">${e.created_at.slice(0, 10)}</td><td>${compare}</td></tr>`;
  });
  return scrollTable(
    'leaderboard',
    h`<table id="leaderboard"><thead><tr><th scope="col" class="num">#</th><th scope="col">Model</th><th scope="col">Owner</th>${ordered.map((m) => h`<th scope="col" class="num">${metricLabel(m)}${m === primary ? h`<span class="ci">primary</span>` : ''}</th>`)}<th scope="col" class="num">Unparsed</th><th scope="col" class="num">Items</th><th scope="col">Date</th><th scope="col">Compare</th></tr></thead>
<tbody>${rows}</tbody></table>`,
  );
}

/** Models × languages (or repositories): the primary metric, or the resolved rate. */
function breakdownTable(
  by: 'language' | 'repo',
  entries: Entry[],
  rows: Map<string, ItemRow[]>,
  metric: string | null,
): Safe {
  const per = entries.map(
    (e) => new Map(breakdown(rows.get(e.run_id) ?? [], by, metric).map((g) => [g.key, g])),
  );
  const keys = [...new Set(per.flatMap((m) => [...m.keys()]))].sort();
  if (keys.length < 2) return h``;
  const show = (v: number) => (metric === null ? `${(v * 100).toFixed(1)}%` : formatMetric(metric, v));
  const title = by === 'language' ? 'Per language' : 'Per repository';
  return h`<h3>${title}</h3>${scrollTable(
    `${title} ${metric === null ? 'resolved rate' : metricLabel(metric)}`,
    h`<table id="lb-${by}"><thead><tr><th scope="col">Model</th>${keys.map((k) => h`<th scope="col" class="num">${k}</th>`)}</tr></thead><tbody>${entries.map(
      (e, i) =>
        h`<tr><td>${e.model}</td>${keys.map((k) => {
          const g = per[i]!.get(k);
          return h`<td class="num">${g ? show(g.value) : '—'}<span class="ci">n=${g?.n ?? 0}</span></td>`;
        })}</tr>`,
    )}</tbody></table>`,
  )}`;
}

async function board(s: Services, entries: Entry[]): Promise<Safe> {
  const task = entries[0]!.task;
  const metricNames = [...new Set(entries.flatMap((e) => Object.keys(e.metrics)))];
  const primary = primaryMetricOf(task, metricNames) ?? '';
  const ordered = orderMetrics(task, metricNames);
  const rows = await rowsOf(
    s,
    entries[0]!.dataset,
    entries.map((e) => e.run_id),
  );
  const sig = significance(task, primary, entries, rows);
  const bars = entries.map((e) => ({
    label: e.model,
    value: e.metrics[primary]?.value ?? 0,
    lo: e.metrics[primary]?.lo ?? null,
    hi: e.metrics[primary]?.hi ?? null,
    href: `/runs/${e.run_id}`,
  }));
  const max = Math.max(1, ...bars.map((b) => Math.max(b.value, b.hi ?? 0)));
  const byMetric = task === 'exec' ? null : primary;
  return h`<div class="card"><h2>${metricLabel(primary)} <span class="muted">(95% CI)</span></h2>
${barChart(bars, { title: `${metricLabel(primary)} by model`, max, width: 1000 })}</div>
<div class="card">${mainTable(entries, ordered, primary, sig)}
<p class="muted">† the difference from the best model is significant: paired bootstrap over the items (${COMPARE_RESAMPLES} resamples), p &lt; 0.05, with at least ${minDiffering(0.05)} items on which the two differ (fewer cannot reach p &lt; 0.05 in an exact test). Unparsed: outputs nothing could be read from, ranked at every metric's floor.${task === 'ce' ? ' CE is ranked by CodeBLEU of the SEARCH/REPLACE edit text, as in the paper; the edited-file scores are shown beside it (they are high for any small edit, even none).' : ''}</p>
${breakdownTable('language', entries, rows, byMetric)}${breakdownTable('repo', entries, rows, byMetric)}</div>`;
}

export async function leaderboardPage(s: Services, dataset?: string, task?: string): Promise<string> {
  const all = await leaderboardEntries(s);
  const boards = [...new Set(all.map((e) => `${e.dataset}\u0000${e.task}`))].sort();
  const chosen = dataset ?? all[0]?.dataset;
  const entries = all.filter((e) => e.dataset === chosen && (!task || e.task === task));
  const tabs = boards.map((b) => {
    const [d, t] = b.split('\u0000') as [string, string];
    const on = d === chosen && (!task || t === task);
    return h`<a class="${on ? 'on' : ''}"${on ? h` aria-current="page"` : ''} href="/leaderboard?dataset=${encodeURIComponent(d)}&amp;task=${t}">${d} · ${t}</a>`;
  });
  const content =
    entries.length === 0
      ? h`<div class="card"><p class="muted">No finished runs yet. Submit one with <code>POST /v1/runs</code>.</p></div>`
      : await board(s, entries);
  const title = chosen ? `Leaderboard · ${chosen}` : 'Leaderboard';
  return layout(
    title,
    h`<h1>${title}</h1><p class="sub">One row per model — its latest finished run — ranked by the task's primary metric, with 95% confidence intervals.</p>
<nav class="tabs" aria-label="Datasets">${tabs}</nav>${content}`,
    '/leaderboard',
  );
}
