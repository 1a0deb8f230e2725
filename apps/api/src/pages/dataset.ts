/**
 * Dataset pages: the list; one dataset's own funnel, per-repository and per-language counts and length
 * distribution; and the run list (`/runs`), filterable by dataset, model and status.
 */
import { and, desc, eq, type SQL } from 'drizzle-orm';
import type { Services } from '../context.ts';
import { runs } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import { runView } from '../routes/runs.ts';
import type { DatasetStats } from '../service/stats.ts';
import { fmt, h, Safe } from './h.ts';
import { layout, scrollTable } from './layout.ts';
import { barChart, columnChart } from './svg.ts';

/** The dataset's funnel chart, saying where it comes from. */
export function funnelCard(st: DatasetStats): Safe {
  const source =
    st.funnel_source === 'card'
      ? "from the dataset's card (card.json, written by faun build): the curation steps over its repositories, the build's drops, its items"
      : 'from the store (--store), over the repositories of this dataset, ending at its items';
  const chart = st.funnel?.length
    ? h`${barChart(
        st.funnel.map((f) => ({ label: f.step, value: f.count })),
        { title: `funnel: ${st.funnel.map((f) => `${f.step} ${f.count}`).join(', ')}`, digits: 0 },
      )}<p class="muted">The funnel of this dataset, ${source}.</p>`
    : h`<p class="muted">No funnel: this dataset has no card beside it (faun build writes card.json), and the server has no store (start it with <code>--store</code>).</p>`;
  return h`<div class="card" id="funnel"><h2>Curation funnel</h2>${chart}</div>`;
}

export async function datasetPage(s: Services, name: string): Promise<string> {
  const info = s.datasets.get(name);
  if (!info) throw new ApiError(404, 'dataset_not_found', `no dataset named '${name}'`);
  const st = await s.stats.stats(name);
  const ds = await s.datasets.items(name);
  const langs = new Map<string, number>();
  for (const it of ds.items) langs.set(it.language, (langs.get(it.language) ?? 0) + 1);
  const recent = await s.db.db
    .select()
    .from(runs)
    .where(eq(runs.dataset, name))
    .orderBy(desc(runs.createdAt))
    .limit(10);
  const count = (label: string, id: string, rows: [string, number][]) =>
    scrollTable(
      label,
      h`<table id="${id}"><thead><tr><th scope="col">${label}</th><th scope="col" class="num">Items</th></tr></thead><tbody>${rows.map(([k, n]) => h`<tr><td>${k}</td><td class="num">${n}</td></tr>`)}</tbody></table>`,
    );
  const enc = encodeURIComponent(name);
  const body = h`<h1>Dataset ${name}</h1><p class="sub">${st.task} · ${st.items} items · <a href="/datasets/${enc}/items">browse the items</a> · <a href="/leaderboard?dataset=${enc}">leaderboard</a> · <a href="/runs?dataset=${enc}">runs</a> · <a href="/compare?dataset=${enc}">compare runs</a></p>
${funnelCard(st)}
<div class="card charts">
<div><h2>Items per repository</h2>${barChart(
    st.per_repo.slice(0, 25).map((r) => ({ label: r.repo, value: r.items })),
    { title: 'items per repository', digits: 0, width: 560 },
  )}</div>
<div><h2>Issue length (characters)</h2>${columnChart(
    st.length.map((l) => ({ label: l.bucket, value: l.items })),
    { title: `issue length: ${st.length.map((l) => `${l.bucket} ${l.items}`).join(', ')}`, width: 460 },
  )}</div></div>
<div class="grid"><div class="card">${count(
    'Repository',
    'repos',
    st.per_repo.map((r) => [r.repo, r.items]),
  )}</div>
<div class="card">${count(
    'Language',
    'languages',
    [...langs].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])),
  )}</div></div>
<div class="card"><h2>Recent runs</h2>${runsTable(recent.map(runView))}</div>`;
  return layout(`Dataset ${name}`, body, '/datasets');
}

export function runsTable(list: ReturnType<typeof runView>[]) {
  if (list.length === 0) return h`<p class="muted">No runs.</p>`;
  return scrollTable(
    'runs',
    h`<table id="runs"><thead><tr><th scope="col">Run</th><th scope="col">Dataset</th><th scope="col">Model</th><th scope="col">Status</th><th scope="col" class="num">Score</th><th scope="col" class="num">Progress</th><th scope="col">Created</th></tr></thead><tbody>
${list.map((r) => h`<tr><td class="id"><a href="/runs/${r.id}"><code>${r.id}</code></a></td><td>${r.dataset}</td><td>${r.model}</td><td><span class="badge b-${r.status}">${r.status}</span></td><td class="num">${r.score ? h`${fmt(r.score.value)} <span class="muted">${r.score.metric}</span>` : h`<span class="muted">—</span>`}</td><td class="num">${r.done}/${r.total}</td><td class="nowrap muted">${r.created_at.replace('T', ' ').slice(0, 19)}</td></tr>`)}
</tbody></table>`,
  );
}

export async function datasetsPage(s: Services): Promise<string> {
  const list = s.datasets.list();
  const body = h`<h1>Datasets</h1><p class="sub">Task files this server scores against.</p><div class="card">
${
  list.length === 0
    ? h`<p class="muted">No datasets registered (start with <code>--datasets DIR</code>).</p>`
    : scrollTable(
        'datasets',
        h`<table id="datasets"><thead><tr><th scope="col">Name</th><th scope="col">Task</th><th scope="col" class="num">Items</th><th scope="col">sha256</th></tr></thead><tbody>
${list.map((d) => h`<tr><td><a href="/datasets/${encodeURIComponent(d.name)}">${d.name}</a></td><td>${d.task}</td><td class="num">${d.itemCount}</td><td class="muted"><code>${d.sha256.slice(0, 12)}</code></td></tr>`)}</tbody></table>`,
      )
}</div>`;
  return layout('Datasets', body, '/datasets');
}

export interface RunsQuery {
  page: number;
  dataset?: string | undefined;
  model?: string | undefined;
  status?: string | undefined;
}

/** The run list, newest first, filtered by dataset, model and status (kept in the pager's links). */
export async function runsPage(s: Services, q: RunsQuery): Promise<string> {
  const per = 50;
  const where: SQL[] = [];
  if (q.dataset) where.push(eq(runs.dataset, q.dataset));
  if (q.model) where.push(eq(runs.model, q.model));
  if (q.status) where.push(eq(runs.status, q.status));
  const rows = await s.db.db
    .select()
    .from(runs)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(runs.createdAt), desc(runs.id))
    .limit(per + 1)
    .offset((q.page - 1) * per);
  const more = rows.length > per;
  const keep = (page: number) => {
    const p = new URLSearchParams();
    for (const k of ['dataset', 'model', 'status'] as const) if (q[k]) p.set(k, q[k]!);
    if (page > 1) p.set('page', String(page));
    const str = p.toString();
    return str ? `?${str}` : '?';
  };
  const opt = (v: string, cur: string | undefined) =>
    h`<option value="${v}"${new Safe(v === cur ? ' selected' : '')}>${v}</option>`;
  const form = h`<form class="filters" method="get" aria-label="Filter the runs">
<label>Dataset<select name="dataset"><option value="">all</option>${s.datasets.list().map((d) => opt(d.name, q.dataset))}</select></label>
<label>Model<input name="model" value="${q.model ?? ''}" size="18"></label>
<label>Status<select name="status"><option value="">all</option>${['queued', 'running', 'done', 'error'].map((v) => opt(v, q.status))}</select></label>
<button type="submit">Filter</button> <a href="/runs">reset</a></form>`;
  const filtered = [
    q.dataset && `dataset ${q.dataset}`,
    q.model && `model ${q.model}`,
    q.status && `status ${q.status}`,
  ].filter(Boolean);
  const body = h`<h1>Runs</h1><p class="sub">Newest first${filtered.length ? `; ${filtered.join(', ')}` : ''}.</p><div class="card">${form}${runsTable(rows.slice(0, per).map(runView))}
<nav class="pager" aria-label="Run pages">${q.page > 1 ? h`<a href="${keep(q.page - 1)}" rel="prev">← newer</a>` : ''}${more ? h`<a href="${keep(q.page + 1)}" rel="next">older →</a>` : ''}</nav></div>`;
  return layout('Runs', body, '/runs');
}
