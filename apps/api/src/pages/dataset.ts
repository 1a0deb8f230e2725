/** Dataset pages: the list, and one dataset's funnel, per-repository counts and length distribution. */
import { desc, eq } from 'drizzle-orm';
import type { Services } from '../context.ts';
import { runs } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import { runView } from '../routes/runs.ts';
import { fmt, h } from './h.ts';
import { layout } from './layout.ts';
import { barChart, columnChart } from './svg.ts';

export async function datasetPage(s: Services, name: string): Promise<string> {
  if (!s.datasets.get(name)) throw new ApiError(404, 'dataset_not_found', `no dataset named '${name}'`);
  const st = await s.stats.stats(name);
  const funnel = st.funnel?.length
    ? h`<div class="card"><h2 style="margin-top:0">Curation funnel</h2>${barChart(
        st.funnel.map((f) => ({ label: f.step, value: f.count })),
        { title: 'funnel', digits: 0 },
      )}</div>`
    : h`<div class="card"><h2 style="margin-top:0">Curation funnel</h2><p class="muted">Start the server with <code>--store</code> to show the funnel of the crawl store.</p></div>`;
  const repos = st.per_repo.slice(0, 25);
  const recent = await s.db.db
    .select()
    .from(runs)
    .where(eq(runs.dataset, name))
    .orderBy(desc(runs.createdAt))
    .limit(10);
  const body = h`<h1>Dataset ${name}</h1><p class="sub">${st.task} · ${st.items} items · <a href="/datasets/${encodeURIComponent(name)}/items">browse the items</a> · <a href="/leaderboard?dataset=${encodeURIComponent(name)}">leaderboard</a> · <a href="/compare?dataset=${encodeURIComponent(name)}">compare runs</a></p>
${funnel}
<div class="card" style="display:flex;gap:24px;flex-wrap:wrap">
<div style="flex:1;min-width:420px"><h2 style="margin-top:0">Items per repository</h2>${barChart(
    repos.map((r) => ({ label: r.repo, value: r.items })),
    { title: 'items per repository', digits: 0, width: 560 },
  )}</div>
<div><h2 style="margin-top:0">Issue length (characters)</h2>${columnChart(
    st.length.map((l) => ({ label: l.bucket, value: l.items })),
    { title: 'length distribution', width: 460 },
  )}</div></div>
<div class="card"><table id="repos"><thead><tr><th>Repository</th><th class="num">Items</th></tr></thead><tbody>
${st.per_repo.map((r) => h`<tr><td>${r.repo}</td><td class="num">${r.items}</td></tr>`)}</tbody></table></div>
<div class="card"><h2 style="margin-top:0">Recent runs</h2>${runsTable(recent.map(runView))}</div>`;
  return layout(`Dataset ${name}`, body);
}

export function runsTable(list: ReturnType<typeof runView>[]) {
  if (list.length === 0) return h`<p class="muted">No runs yet.</p>`;
  return h`<table id="runs"><thead><tr><th>Run</th><th>Dataset</th><th>Model</th><th>Status</th><th class="num">Score</th><th class="num">Progress</th><th>Created</th></tr></thead><tbody>
${list.map((r) => h`<tr><td><a href="/runs/${r.id}"><code>${r.id}</code></a></td><td>${r.dataset}</td><td>${r.model}</td><td><span class="badge b-${r.status}">${r.status}</span></td><td class="num">${r.score ? h`${fmt(r.score.value)} <span class="muted">${r.score.metric}</span>` : h`<span class="muted">—</span>`}</td><td class="num">${r.done}/${r.total}</td><td class="muted">${r.created_at.replace('T', ' ').slice(0, 19)}</td></tr>`)}
</tbody></table>`;
}

export async function datasetsPage(s: Services): Promise<string> {
  const list = s.datasets.list();
  const body = h`<h1>Datasets</h1><p class="sub">Task files this server scores against.</p><div class="card">
${
  list.length === 0
    ? h`<p class="muted">No datasets registered (start with <code>--datasets DIR</code>).</p>`
    : h`<table id="datasets"><thead><tr><th>Name</th><th>Task</th><th class="num">Items</th><th>sha256</th></tr></thead><tbody>
${list.map((d) => h`<tr><td><a href="/datasets/${encodeURIComponent(d.name)}">${d.name}</a></td><td>${d.task}</td><td class="num">${d.itemCount}</td><td class="muted"><code>${d.sha256.slice(0, 12)}</code></td></tr>`)}</tbody></table>`
}</div>`;
  return layout('Datasets', body);
}

export async function runsPage(s: Services, page: number): Promise<string> {
  const per = 50;
  const rows = await s.db.db
    .select()
    .from(runs)
    .orderBy(desc(runs.createdAt), desc(runs.id))
    .limit(per + 1)
    .offset((page - 1) * per);
  const more = rows.length > per;
  const body = h`<h1>Runs</h1><p class="sub">Newest first.</p><div class="card">${runsTable(rows.slice(0, per).map(runView))}
<div class="pager">${page > 1 ? h`<a href="?page=${page - 1}">← newer</a>` : ''}${more ? h`<a href="?page=${page + 1}">older →</a>` : ''}</div></div>`;
  return layout('Runs', body);
}
