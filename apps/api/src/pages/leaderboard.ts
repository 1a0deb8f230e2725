/** The leaderboard page: one table and one CI chart per dataset/task. */
import { inArray } from 'drizzle-orm';
import type { Services } from '../context.ts';
import { results } from '../db/schema.ts';
import { leaderboardEntries, primaryMetric } from '../routes/datasets.ts';
import { compareRuns, itemValue } from './compare-core.ts';
import { fmt, h, type Safe } from './h.ts';
import { metricLabel, orderMetrics } from './labels.ts';
import { layout } from './layout.ts';
import { barChart } from './svg.ts';

export async function leaderboardPage(s: Services, dataset?: string, task?: string): Promise<string> {
  const all = await leaderboardEntries(s);
  const boards = [...new Set(all.map((e) => `${e.dataset}\u0000${e.task}`))].sort();
  const chosen = dataset ?? all[0]?.dataset;
  const entries = all.filter((e) => e.dataset === chosen && (!task || e.task === task));
  const tabs = boards.map((b) => {
    const [d, t] = b.split('\u0000') as [string, string];
    return h`<a class="${d === chosen && (!task || t === task) ? 'on' : ''}" href="/leaderboard?dataset=${encodeURIComponent(d)}&task=${t}">${d} · ${t}</a>`;
  });
  let content: Safe;
  if (entries.length === 0) {
    content = h`<div class="card"><p class="muted">No finished runs yet. Submit one with <code>POST /v1/runs</code>.</p></div>`;
  } else {
    const metricNames = [...new Set(entries.flatMap((e) => Object.keys(e.metrics)))].sort();
    const primary = primaryMetric(entries[0]!.task, entries[0]!.metrics) ?? metricNames[0] ?? '';
    const ordered = orderMetrics(entries[0]!.task, [primary, ...metricNames]);
    const sig = await significance(
      s,
      entries[0]!.task,
      primary,
      entries.map((e) => e.run_id),
    );
    const bars = entries.map((e) => ({
      label: e.model,
      value: e.metrics[primary]?.value ?? 0,
      lo: e.metrics[primary]?.lo ?? null,
      hi: e.metrics[primary]?.hi ?? null,
      href: `/runs/${e.run_id}`,
    }));
    const max = Math.max(...bars.map((b) => Math.max(b.value, b.hi ?? 0)));
    const rows = entries.map(
      (e, i) =>
        h`<tr><td class="num">${i + 1}</td><td><a href="/runs/${e.run_id}">${e.model}</a></td><td class="muted">${e.owner ?? 'server'}</td>${ordered.map(
          (m) => {
            const v = e.metrics[m];
            const mark =
              m === primary && i > 0
                ? sig.get(e.run_id)
                  ? h` <span class="sig" title="differs from the best (paired bootstrap, p = ${fmt(sig.get(e.run_id)?.p, 4)})">†</span>`
                  : ''
                : '';
            return h`<td class="num">${fmt(v?.value)}${mark}${v && v.lo != null ? h`<span class="ci">[${fmt(v.lo)}, ${fmt(v.hi)}]</span>` : ''}</td>`;
          },
        )}<td class="num">${e.n}</td><td class="muted">${e.created_at.slice(0, 10)}</td><td>${i > 0 ? h`<a href="/compare?runs=${encodeURIComponent(entries[0]!.run_id)}&amp;runs=${encodeURIComponent(e.run_id)}">vs best</a>` : ''}</td></tr>`,
    );
    content = h`<div class="card"><h2 style="margin-top:0">${metricLabel(primary)} <span class="muted">(95% CI)</span></h2>
${barChart(bars, { title: `${metricLabel(primary)} by model`, max: Math.max(max, 1), width: 1000 })}</div>
<div class="card"><table id="leaderboard"><thead><tr><th class="num">#</th><th>Model</th><th>Owner</th>${ordered.map((m) => h`<th class="num">${metricLabel(m)}${m === primary ? h`<span class="ci">primary</span>` : ''}</th>`)}<th class="num">Items</th><th>Date</th><th>Compare</th></tr></thead>
<tbody>${rows}</tbody></table>
<p class="muted">† the difference from the best model is significant (paired bootstrap over the items, p &lt; 0.05).${entries[0]!.task === 'ce' ? ' CE is ranked by CodeBLEU of the SEARCH/REPLACE edit text, as in the paper; the edited-file scores are shown beside it (they are high for any small edit, even none).' : ''}</p></div>`;
  }
  const title = chosen ? `Leaderboard · ${chosen}` : 'Leaderboard';
  return layout(
    title,
    h`<h1>${title}</h1><p class="sub">One row per model — its latest finished run — ranked by the task's primary metric, with 95% confidence intervals.</p>
<div class="tabs">${tabs}</div>${content}`,
  );
}

/** Run id → the paired bootstrap test of its per-item primary metric against the first (best) run. */
async function significance(
  s: Services,
  task: string,
  metric: string,
  runIds: string[],
): Promise<Map<string, { p: number } | null>> {
  const out = new Map<string, { p: number } | null>();
  if (runIds.length < 2) return out;
  const rows = await s.db.db
    .select({
      runId: results.runId,
      itemId: results.itemId,
      outcome: results.outcome,
      scores: results.scores,
    })
    .from(results)
    .where(inArray(results.runId, runIds));
  const valuesOf = (id: string) => ({
    id,
    model: id,
    items: new Map(
      rows
        .filter((r) => r.runId === id)
        .map((r) => [
          r.itemId,
          {
            outcome: r.outcome,
            value: itemValue(task, metric, {
              outcome: r.outcome,
              scores: r.scores as Record<string, number>,
            }),
          },
        ]),
    ),
  });
  const best = valuesOf(runIds[0]!);
  const ids = [...best.items.keys()];
  for (const id of runIds.slice(1)) {
    const t = compareRuns([best, valuesOf(id)], ids).tests[0];
    out.set(id, t?.significant ? { p: t.p } : null);
  }
  return out;
}
