/**
 * The dataset browser: a dataset's items (filterable by repository, language and issue length) with
 * links to each item's source issue and fixing PR, under the curation funnel that produced them.
 */
import type { Services } from '../context.ts';
import { ApiError } from '../errors.ts';
import { LENGTH_BUCKETS, lengthBucketOf } from '../service/stats.ts';
import { type DatasetItem, issueLength, itemIdOf } from './data.ts';
import { funnelCard } from './dataset.ts';
import { h, Safe } from './h.ts';
import { layout, scrollTable } from './layout.ts';

const PER_PAGE = 100;

function prNumber(it: DatasetItem, prs: Map<string, number> | null): number | null {
  if ('instance_id' in it) {
    const m = /-(\d+)$/.exec(it.instance_id) ?? /:pr-(\d+)$/.exec(it.instance_id);
    return m ? Number(m[1]) : null;
  }
  if (it.task === 'ce' && it.pr_number) return it.pr_number;
  return it.issue_number ? (prs?.get(`${it.repo}#${it.issue_number}`) ?? null) : null;
}

const titleOf = (it: DatasetItem) =>
  'instance_id' in it ? (it.problem_statement.split('\n')[0] ?? '') : it.issue_title;

export async function datasetItemsPage(
  s: Services,
  name: string,
  q: Record<string, string | undefined>,
): Promise<string> {
  const info = s.datasets.get(name);
  if (!info) throw new ApiError(404, 'dataset_not_found', `no dataset named '${name}'`);
  const ds = await s.datasets.items(name);
  const all = ds.items as DatasetItem[];
  const [st, prs] = await Promise.all([s.stats.stats(name), s.stats.fixingPrs()]);
  const repos = [...new Set(all.map((it) => it.repo))].sort();
  const langs = [...new Set(all.map((it) => it.language))].sort();
  const list = all
    .filter((it) => !q.repo || it.repo === q.repo)
    .filter((it) => !q.lang || it.language === q.lang)
    .filter((it) => !q.len || lengthBucketOf(issueLength(it)) === q.len)
    .sort((a, b) => (itemIdOf(a) < itemIdOf(b) ? -1 : 1));
  const page = Math.max(1, Number.parseInt(q.page ?? '1', 10) || 1);
  const rows = list.slice((page - 1) * PER_PAGE, page * PER_PAGE);
  const keep = (p: number) =>
    `?${new URLSearchParams({ ...(q.repo ? { repo: q.repo } : {}), ...(q.lang ? { lang: q.lang } : {}), ...(q.len ? { len: q.len } : {}), page: String(p) })}`;
  const sel = (n: string, label: string, values: string[]) =>
    h`<label>${label}<select name="${n}"><option value="">all</option>${values.map((v) => h`<option value="${v}"${new Safe(v === q[n] ? ' selected' : '')}>${v}</option>`)}</select></label>`;
  const link = (repo: string, kind: 'issues' | 'pull', n: number | null) =>
    n ? h`<a href="https://github.com/${repo}/${kind}/${n}">#${n}</a>` : h`<span class="muted">—</span>`;
  const body = h`<p class="crumbs"><a href="/datasets/${encodeURIComponent(name)}">Dataset ${name}</a></p><h1>Items of ${name}</h1>
<p class="sub">${info.task} · ${all.length} items · sha256 <code>${info.sha256.slice(0, 12)}</code></p>
${funnelCard(st)}
<div class="card"><form class="filters" method="get" aria-label="Filter the items">${sel('repo', 'Repository', repos)}${sel('lang', 'Language', langs)}${sel('len', 'Issue length', LENGTH_BUCKETS)}<button type="submit">Filter</button> <a href="?">reset</a></form>
${scrollTable(
  'items',
  h`<table id="dataset-items"><thead><tr><th scope="col">Item</th><th scope="col">Repository</th><th scope="col">Language</th><th scope="col">Issue</th><th scope="col">Fixing PR</th><th scope="col">Title</th><th scope="col" class="num">Issue chars</th></tr></thead><tbody>${rows.map(
    (it) =>
      h`<tr><td class="id"><code>${itemIdOf(it)}</code></td><td>${it.repo}</td><td>${it.language}</td><td>${'instance_id' in it ? h`<span class="muted">—</span>` : link(it.repo, 'issues', it.issue_number)}</td><td>${link(it.repo, 'pull', prNumber(it, prs))}</td><td>${titleOf(it).slice(0, 120)}</td><td class="num">${issueLength(it)}</td></tr>`,
  )}</tbody></table>`,
)}
<nav class="pager" aria-label="Item pages">${page > 1 ? h`<a href="${keep(page - 1)}" accesskey="p">← previous</a>` : ''}<span>${list.length === 0 ? 'no items' : `${(page - 1) * PER_PAGE + 1}–${Math.min(list.length, page * PER_PAGE)} of ${list.length}`}</span>${page * PER_PAGE < list.length ? h`<a href="${keep(page + 1)}" accesskey="n">next →</a>` : ''}</nav></div>`;
  return layout(`Items of ${name}`, body, '/datasets');
}
