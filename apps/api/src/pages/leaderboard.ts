/** The leaderboard page: one table and one CI chart per dataset/task. */
import type { Services } from '../context.ts';
import { leaderboardEntries, primaryMetric } from '../routes/datasets.ts';
import { fmt, h, type Safe } from './h.ts';
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
    const ordered = [primary, ...metricNames.filter((m) => m !== primary)];
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
            return h`<td class="num">${fmt(v?.value)}${v && v.lo != null ? h`<span class="ci">[${fmt(v.lo)}, ${fmt(v.hi)}]</span>` : ''}</td>`;
          },
        )}<td class="num">${e.n}</td><td class="muted">${e.created_at.slice(0, 10)}</td></tr>`,
    );
    content = h`<div class="card"><h2 style="margin-top:0">${primary} <span class="muted">(95% CI)</span></h2>
${barChart(bars, { title: `${primary} by model`, max: Math.max(max, 1), width: 1000 })}</div>
<div class="card"><table id="leaderboard"><thead><tr><th class="num">#</th><th>Model</th><th>Owner</th>${ordered.map((m) => h`<th class="num">${m}</th>`)}<th class="num">Items</th><th>Date</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
  }
  const title = chosen ? `Leaderboard · ${chosen}` : 'Leaderboard';
  return layout(
    title,
    h`<h1>${title}</h1><p class="sub">One row per model — its latest finished run — ranked by the task's primary metric, with 95% confidence intervals.</p>
<div class="tabs">${tabs}</div>${content}`,
  );
}
