/**
 * Sections of the run page around the item table: outcome and metric charts, the score histogram,
 * per-repository and per-language breakdowns, the resolved rate over creation dates, and usage totals.
 */
import { formatMetric, metricInfo, metricLabel } from '@faun/metrics';
import type { Interval } from '../service/report.ts';
import { breakdown, byCreation, type Group } from './breakdown.ts';
import { fmt, h, type Safe } from './h.ts';
import { type ItemRow, usageTotals } from './items.ts';
import { scrollTable } from './layout.ts';
import { barChart, columnChart, histogramBins, OUTCOME_COLORS } from './svg.ts';

/** Outcome counts and metric means with their 95% intervals. */
export function overviewCharts(
  outcomes: string[],
  counts: Record<string, number>,
  metrics: Record<string, Interval>,
  ordered: string[],
): Safe {
  const bars = ordered.map((k) => ({
    label: metricLabel(k),
    value: metrics[k]!.value,
    lo: metrics[k]!.lo,
    hi: metrics[k]!.hi,
  }));
  return h`<div class="card charts"><div><h2>Outcomes</h2>${columnChart(
    outcomes.map((o) => ({ label: o, value: counts[o] ?? 0, color: OUTCOME_COLORS[o] ?? '#2f5fc4' })),
    { title: `outcomes: ${outcomes.map((o) => `${o} ${counts[o] ?? 0}`).join(', ')}`, width: 420 },
  )}</div>
${bars.length ? h`<div><h2>Metrics <span class="muted">(95% CI)</span></h2>${barChart(bars, { title: 'metric means with 95% intervals', max: Math.max(1, ...bars.map((b) => b.hi ?? b.value)), width: 560 })}</div>` : ''}</div>`;
}

/** The distribution of one metric's per-item values (the filtered items). */
export function histogramSection(rows: ItemRow[], metric: string | null): Safe {
  if (!metric) return h``;
  const info = metricInfo(metric);
  const [lo, hi] = info?.range ?? [0, 1];
  const values = rows.map((r) => r.scores[metric]).filter((v): v is number => typeof v === 'number');
  if (values.length === 0) return h``;
  const bins = histogramBins(values, lo, hi);
  return h`<div class="card" id="histogram"><h2>${metricLabel(metric)}: per-item distribution <span class="muted">(${values.length} items)</span></h2>
${columnChart(bins, { title: `histogram of ${metricLabel(metric)}: ${bins.map((b) => `${b.label}+ ${b.value}`).join(', ')}`, width: 640 })}
<p class="muted">Ten bins from ${lo} to ${hi}; unparsed outputs sit in the first bin (the metric's floor).</p></div>`;
}

function groupTable(id: string, title: string, groups: Group[], label: string, metric: string | null): Safe {
  const show = (v: number) => (metric === null ? `${(v * 100).toFixed(1)}%` : formatMetric(metric, v));
  return h`<div><h3>${title}</h3>${barChart(
    groups.slice(0, 20).map((g) => ({ label: g.key, value: g.value })),
    {
      title: `${label} ${title.toLowerCase()}`,
      max: metric === null ? 1 : (metricInfo(metric)?.range[1] ?? 1),
      width: 520,
    },
  )}${scrollTable(
    `${label} ${title.toLowerCase()}`,
    h`<table id="${id}"><thead><tr><th scope="col">${title.replace('By ', '')}</th><th scope="col" class="num">Items</th><th scope="col" class="num">${label}</th><th scope="col" class="num">Unparsed</th></tr></thead><tbody>${groups.map(
      (g) =>
        h`<tr><td>${g.key}</td><td class="num">${g.n}</td><td class="num">${show(g.value)}</td><td class="num">${g.unparsed}</td></tr>`,
    )}</tbody></table>`,
  )}</div>`;
}

/** Per-repository and per-language tables and bars of the primary metric (or the resolved rate). */
export function breakdownSection(rows: ItemRow[], metric: string | null): Safe {
  if (rows.length === 0) return h``;
  const label = metric === null ? 'resolved' : metricLabel(metric);
  return h`<div class="card" id="breakdown"><h2>Breakdown: ${label}</h2><div class="grid">
${groupTable('by-repo', 'By repository', breakdown(rows, 'repo', metric), label, metric)}
${groupTable('by-language', 'By language', breakdown(rows, 'language', metric), label, metric)}</div></div>`;
}

/** The resolved rate (or mean metric) per creation period of the instances: the contamination view. */
export function creationSection(rows: ItemRow[], metric: string | null): Safe {
  const groups = byCreation(rows, metric);
  if (groups.length === 0) return h``;
  const pct = metric === null;
  return h`<div class="card" id="by-created"><h2>${pct ? 'Resolved rate' : metricLabel(metric!)} by instance creation date</h2>
${columnChart(
  groups.map((g) => ({ label: g.key, value: g.value, note: `n=${g.n}`, color: '#2f5fc4' })),
  {
    title: `${pct ? 'resolved rate' : metricLabel(metric!)} by creation period: ${groups.map((g) => `${g.key} ${fmt(g.value, 2)} of ${g.n}`).join(', ')}`,
    width: Math.max(420, Math.min(900, groups.length * 70)),
    max: 1,
    format: (v) => (pct ? `${Math.round(v * 100)}%` : fmt(v, 2)),
  },
)}
<p class="muted">A model that saw an instance's fix in training tends to do better on instances created before its cut-off: a drop after a date is worth a look.</p></div>`;
}

/** Totals of tokens, cost, latency and cache hits over the run's predictions ("—" where not recorded). */
export function usageSection(rows: ItemRow[]): Safe {
  const t = usageTotals(rows);
  const cell = (v: { total: number; n: number }, digits = 0) => (v.n ? fmt(v.total, digits) : '—');
  return h`<div class="stats" id="usage">
<div class="stat"><span>tokens in</span><b>${t.tokensIn.n ? cell(t.tokensIn) : t.tokensInEstimate.n ? `~${cell(t.tokensInEstimate)}` : '—'}</b></div>
<div class="stat"><span>tokens out</span><b>${cell(t.tokensOut)}</b></div>
<div class="stat"><span>cost (USD)</span><b>${cell(t.costUsd, 4)}</b></div>
<div class="stat"><span>mean latency</span><b>${t.latencyMeanMs === null ? '—' : `${fmt(t.latencyMeanMs / 1000, 2)} s`}</b></div>
<div class="stat"><span>cache hits</span><b>${t.cacheKnown ? `${t.cacheHits}/${t.cacheKnown}` : '—'}</b></div></div>
${!t.tokensIn.n && t.tokensInEstimate.n ? h`<p class="muted">~ estimated prompt tokens (characters / 4): the provider reported no usage.</p>` : ''}`;
}
