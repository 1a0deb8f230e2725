/**
 * The comparison page: two or more runs on one dataset side by side per item (outcomes, values, deltas
 * against the first run), the paired bootstrap test of each run against the first, and the items they
 * disagree on. Without two runs it offers the finished runs of the dataset to pick from (a GET form).
 */
import { desc, eq, inArray } from 'drizzle-orm';
import type { Services } from '../context.ts';
import { results, runs } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import { COMPARE_RESAMPLES, compareRuns, disagreements, itemValue, type RunValues } from './compare-core.ts';
import { datasetItems, loadRuns, type RunRow } from './data.ts';
import { fmt, h, Safe } from './h.ts';
import { metricLabel, orderMetrics, primaryItemMetric } from './labels.ts';
import { layout } from './layout.ts';

const PER_PAGE = 100;

/** Run ids from `?runs=a&runs=b` or `?runs=a,b` (deduplicated, in order). */
export function runIdsOf(values: string[]): string[] {
  const ids = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  return [...new Set(ids)].slice(0, 8);
}

const delta = (d: number) =>
  h`<span class="${d > 0 ? 'better' : d < 0 ? 'worse' : 'muted'}">${d > 0 ? '+' : ''}${fmt(d)}</span>`;

async function picker(s: Services, dataset: string | undefined, chosen: string[]): Promise<string> {
  const list = await s.db.db
    .select()
    .from(runs)
    .where(dataset ? eq(runs.dataset, dataset) : undefined)
    .orderBy(desc(runs.createdAt))
    .limit(100);
  const done = list.filter((r) => r.status === 'done');
  const body = h`<h1>Compare runs</h1><p class="sub">Pick two or more finished runs on one dataset${dataset ? h` (<b>${dataset}</b>)` : ''}; the first one is the baseline.</p>
<div class="card"><form method="get" action="/compare" id="pick">${
    done.length
      ? h`<table><thead><tr><th></th><th>Run</th><th>Dataset</th><th>Model</th><th>Created</th></tr></thead><tbody>${done.map(
          (r) =>
            h`<tr><td><input type="checkbox" name="runs" value="${r.id}"${new Safe(chosen.includes(r.id) ? ' checked' : '')}></td><td><code>${r.id}</code></td><td>${r.dataset}</td><td>${r.model}</td><td class="muted">${r.createdAt.toISOString().slice(0, 19).replace('T', ' ')}</td></tr>`,
        )}</tbody></table><p><button type="submit">Compare</button></p>`
      : h`<p class="muted">No finished runs${dataset ? ' on this dataset' : ''} yet.</p>`
  }</form></div>`;
  return layout('Compare runs', body);
}

async function valuesOf(s: Services, list: RunRow[], metric: string): Promise<RunValues[]> {
  const rows = await s.db.db
    .select({
      runId: results.runId,
      itemId: results.itemId,
      outcome: results.outcome,
      scores: results.scores,
    })
    .from(results)
    .where(
      inArray(
        results.runId,
        list.map((r) => r.id),
      ),
    );
  return list.map((run) => ({
    id: run.id,
    model: run.model,
    items: new Map(
      rows
        .filter((r) => r.runId === run.id)
        .map((r) => [
          r.itemId,
          {
            outcome: r.outcome,
            value: itemValue(run.kind === 'exec' ? 'exec' : run.task, metric, {
              outcome: r.outcome,
              scores: r.scores as Record<string, number>,
            }),
          },
        ]),
    ),
  }));
}

export async function comparePage(
  s: Services,
  q: { runs: string[]; dataset?: string | undefined; metric?: string | undefined; page?: string | undefined },
): Promise<string> {
  const ids = runIdsOf(q.runs);
  if (ids.length < 2) {
    const first = ids.length ? (await loadRuns(s, ids))[0] : undefined;
    return picker(s, q.dataset ?? first?.dataset, ids);
  }
  const list = await loadRuns(s, ids);
  const first = list[0]!;
  const other = list.find((r) => r.dataset !== first.dataset || r.task !== first.task);
  if (other)
    throw new ApiError(
      400,
      'different_datasets',
      `runs compare only on one dataset: '${first.id}' is on ${first.dataset} (${first.task}), '${other.id}' on ${other.dataset} (${other.task})`,
    );
  const task = first.kind === 'exec' ? 'exec' : first.task;
  const binary = task === 'exec' || task === 'fl';
  const items = await datasetItems(s, first.dataset);
  const probe = await valuesOf(s, list, primaryItemMetric(task));
  const names = orderMetrics(
    task,
    task === 'exec'
      ? ['resolved']
      : (
          await s.db.db
            .select({ scores: results.scores })
            .from(results)
            .where(eq(results.runId, first.id))
            .limit(1)
        ).flatMap((r) => Object.keys(r.scores as Record<string, number>)),
  );
  const metric = q.metric && names.includes(q.metric) ? q.metric : (names[0] ?? primaryItemMetric(task));
  const vals = metric === primaryItemMetric(task) ? probe : await valuesOf(s, list, metric);
  const itemIds = items.size ? [...items.keys()] : [...new Set(vals.flatMap((v) => [...v.items.keys()]))];
  const cmp = compareRuns(vals, itemIds, { binary: binary && (task === 'exec' || metric === 'em') });
  const dis = disagreements(cmp);
  const page = Math.max(1, Number.parseInt(q.page ?? '1', 10) || 1);
  const rows = cmp.rows.slice((page - 1) * PER_PAGE, page * PER_PAGE);
  const runsQs = ids.map((id) => `runs=${encodeURIComponent(id)}`).join('&');
  const itemLink = (run: string, id: string, text: Safe | string) =>
    h`<a href="/runs/${run}/items/${encodeURIComponent(id)}">${text}</a>`;
  const cell = (
    c: { outcome: string | null; value: number },
    run: string,
    id: string,
    extra: Safe | string,
  ) =>
    c.outcome === null
      ? h`<td class="num muted">—${extra}</td>`
      : h`<td class="num">${itemLink(run, id, h`<span class="badge b-${c.outcome}">${c.outcome}</span> ${fmt(c.value)}`)}${extra}</td>`;
  const head = h`<th>Item</th>${list.map((r, i) => h`<th class="num">${r.model}<span class="ci">${i === 0 ? 'baseline' : `Δ vs baseline`}</span></th>`)}`;
  const summary = h`<table id="summary"><thead><tr><th>Run</th><th>Model</th><th class="num">${metricLabel(metric)} (mean)</th><th class="num">Δ vs baseline</th><th class="num">p (paired bootstrap)</th></tr></thead><tbody>${list.map(
    (r, i) => {
      const t = i === 0 ? null : cmp.tests[i - 1]!;
      return h`<tr><td><a href="/runs/${r.id}"><code>${r.id}</code></a></td><td>${r.model}${i === 0 ? h` <span class="muted">(baseline)</span>` : ''}</td><td class="num">${fmt(cmp.means[i])}</td><td class="num">${t ? delta(t.diff) : '—'}</td><td class="num p-value">${t ? h`${fmt(t.p, 4)}${t.significant ? h` <span class="sig" title="p &lt; 0.05">significant</span>` : h` <span class="muted">n.s.</span>`}` : '—'}</td></tr>`;
    },
  )}</tbody></table>`;
  const row = (r: (typeof cmp.rows)[number]) =>
    h`<tr><td class="id"><code>${r.id}</code></td>${r.cells.map((c, i) =>
      cell(c, list[i]!.id, r.id, i === 0 ? '' : h`<span class="ci delta">${delta(r.deltas[i - 1]!)}</span>`),
    )}</tr>`;
  const body = h`<h1>Compare runs</h1>
<p class="sub">${list.length} runs on <a href="/datasets/${encodeURIComponent(first.dataset)}">${first.dataset}</a> · ${first.task} · ${cmp.rows.length} items · per-item ${metricLabel(metric)}${binary ? ' (1 = right, 0 = wrong)' : ''}</p>
<form class="filters" method="get" action="/compare">${ids.map((id) => h`<input type="hidden" name="runs" value="${id}">`)}<label>Metric<select name="metric">${names.map((m) => h`<option value="${m}"${new Safe(m === metric ? ' selected' : '')}>${metricLabel(m)}</option>`)}</select></label><button type="submit">Show</button> <a href="/compare?dataset=${encodeURIComponent(first.dataset)}&amp;${runsQs}">change runs</a></form>
<div class="card"><h2>Paired bootstrap test against the baseline</h2>${summary}
<p class="muted">Two-sided p-value of the mean per-item difference, ${COMPARE_RESAMPLES} paired resamples of the items (fixed seed); significant at p &lt; 0.05. Items without a result count 0.</p></div>
<div class="card"><h2>Disagreements (${dis.length})</h2>${
    dis.length
      ? h`<table id="disagreements"><thead><tr>${head}</tr></thead><tbody>${dis.map(row)}</tbody></table>`
      : h`<p class="muted">The runs agree on every item${binary ? '' : ' (no spread of 0.1 or more)'}.</p>`
  }</div>
<div class="card"><h2>Every item</h2><table id="per-item"><thead><tr>${head}</tr></thead><tbody>${rows.map(row)}</tbody></table>
<div class="pager">${page > 1 ? h`<a href="?${new Safe(runsQs)}&amp;metric=${metric}&amp;page=${page - 1}" accesskey="p">← previous</a>` : ''}<span>${(page - 1) * PER_PAGE + 1}–${Math.min(cmp.rows.length, page * PER_PAGE)} of ${cmp.rows.length}</span>${page * PER_PAGE < cmp.rows.length ? h`<a href="?${new Safe(runsQs)}&amp;metric=${metric}&amp;page=${page + 1}" accesskey="n">next →</a>` : ''}</div></div>`;
  return layout('Compare runs', body);
}
