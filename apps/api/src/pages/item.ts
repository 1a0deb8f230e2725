/**
 * The sample viewer: one item of a run — the input parts as the task used them and the prompt as sent,
 * the raw model output, the extracted answer, the reference, tokens in/out, latency, cost and cache hit,
 * the per-item scores; for CE the SEARCH/REPLACE blocks and the unified diff of the edited file against
 * gold; for execution runs the stages, tests, contract and logs. Previous/next follow the run page's
 * filters and sort order (`accesskey` p / n; u goes back to the list).
 */
import { formatMetric, metricLabel, normalizePath, orderMetrics } from '@faun/metrics';
import type { Services } from '../context.ts';
import { type DatasetItem, loadResult, loadRun, type ResultRow, type RunRow, runRows } from './data.ts';
import { execSection } from './exec-parts.ts';
import { fmt, h, type Safe } from './h.ts';
import { ceSection, issueLinks, textBlock } from './item-parts.ts';
import {
  filterItems,
  type ItemQuery,
  type ItemRow,
  parseItemQuery,
  queryString,
  sortItems,
  usageOf,
} from './items.ts';
import { layout } from './layout.ts';
import { promptSection, rebuildPrompt } from './prompt-part.ts';
import { PER_PAGE } from './run.ts';

function inputSection(it: DatasetItem | undefined, ablate: string[]): Safe {
  if (!it)
    return h`<p class="muted">The dataset of this run is not registered on this server; its input is unavailable.</p>`;
  const gone = (part: string) =>
    ablate.includes(part) ? h` <span class="badge b-skipped">left out (ablation)</span>` : '';
  if ('instance_id' in it)
    return h`<h3>Problem statement</h3>${textBlock(it.problem_statement, 'problem')}
<p class="muted">${it.repo} at <code>${it.base_commit.slice(0, 12)}</code>${it.created_at ? ` · created ${it.created_at.slice(0, 10)}` : ''}</p>`;
  const issue = h`<h3>Issue title${gone('issue_title')}</h3><p class="title">${it.issue_title}</p><h3>Issue body${gone('issue_body')}</h3>${textBlock(it.issue_body, 'issue')}`;
  if (it.task === 'qa')
    return h`${issue}${
      it.context.length
        ? h`<h3>Conversation so far</h3>${it.context.map((t, i) => h`<div class="turn"><b>${t.role}</b> <span class="muted">${t.author_association ?? ''}</span>${textBlock(t.content, `turn-${i + 1}`)}</div>`)}`
        : ''
    }`;
  if (it.task === 'fl')
    return h`${issue}<details><summary>Repository tree (${it.tree.length} files)</summary><pre id="tree" tabindex="0">${it.tree.join('\n')}</pre></details>`;
  return h`${issue}<h3>PR title${gone('pr_title')}</h3><p class="title">${it.pr_title}</p><h3>PR body${gone('pr_body')}</h3>${textBlock(it.pr_body, 'pr')}
<details><summary>File <code>${it.path}</code> before the change (${it.file_before.split('\n').length} lines)</summary><pre id="file-before" tabindex="0">${it.file_before}</pre></details>`;
}

function referenceOf(it: DatasetItem | undefined): Safe {
  if (!it) return h`<span class="muted">unavailable</span>`;
  if ('instance_id' in it)
    return h`<details open><summary>gold patch</summary><pre id="reference" tabindex="0">${it.patch}</pre></details>`;
  if (it.task === 'qa') return textBlock(it.answer, 'reference');
  if (it.task === 'fl') {
    // EM compares the normalised path: show that, and the path as the dataset spells it when different
    const norm = normalizePath(it.gold_path);
    return h`<pre id="reference" tabindex="0">${norm}</pre>${norm !== it.gold_path ? h`<p class="muted">as the dataset writes it: <code>${it.gold_path}</code></p>` : ''}`;
  }
  return h`<pre id="reference" tabindex="0">${it.gold_patch}</pre>`;
}

function scoresTable(task: string, r: ResultRow): Safe {
  const scores = (r.scores ?? {}) as Record<string, number>;
  const names = orderMetrics(task, Object.keys(scores));
  if (names.length === 0) return h`<p class="muted">No metric scores (${r.outcome}).</p>`;
  return h`<table id="scores"><thead><tr><th scope="col">Metric</th><th scope="col" class="num">Score</th></tr></thead><tbody>${names.map(
    (m, i) =>
      h`<tr><td>${metricLabel(m)}${i === 0 ? h` <span class="muted">(primary)</span>` : ''} <code class="muted">${m}</code></td><td class="num">${formatMetric(m, scores[m])}</td></tr>`,
  )}</tbody></table>`;
}

function usageList(pred: Record<string, unknown> | null): Safe {
  const u = usageOf(pred);
  const rows: [string, string][] = [
    [
      'tokens in',
      u.tokensIn !== null
        ? String(u.tokensIn)
        : u.tokensInEstimate !== null
          ? `~${u.tokensInEstimate} (estimated)`
          : '—',
    ],
    ['tokens out', fmt(u.tokensOut, 0)],
    ['latency', u.latencyMs === null ? '—' : `${fmt(u.latencyMs, 0)} ms`],
    ['cost', u.costUsd === null ? '—' : `$${u.costUsd.toFixed(6)}`],
    ['cache hit', u.cacheHit === null ? '—' : u.cacheHit ? 'yes' : 'no'],
  ];
  return h`<dl class="kv" id="usage">${rows.map(([k, v]) => h`<dt>${k}</dt><dd>${v}</dd>`)}</dl>${pred?.truncated ? h`<p class="muted">The prompt was cut to fit the model's context.</p>` : ''}`;
}

function outputSection(r: ResultRow, output: string | null, unparsed: boolean): Safe {
  const raw =
    output === null
      ? h`<p class="muted">No prediction was submitted for this item.</p>`
      : output === ''
        ? h`<p class="muted">(empty output)</p>`
        : h`<pre id="model-output" tabindex="0">${output}</pre>`;
  const answer = unparsed
    ? h`<h3>Extracted answer</h3><p id="answer"><span class="badge b-unparsed">unparsed</span> nothing the task scores could be read from the output: every metric is its floor.</p>`
    : r.answer !== null && r.answer !== output
      ? h`<h3>Extracted answer <span class="muted">(what was scored)</span></h3><pre id="answer" tabindex="0">${r.answer}</pre>`
      : '';
  return h`<h3>Raw response</h3>${raw}${answer}`;
}

/** Previous / next in the run page's order under its filters (the item itself may be outside them). */
function neighbours(
  run: RunRow,
  rows: ItemRow[],
  q: ItemQuery,
  itemId: string,
  where: 'top' | 'bottom',
): Safe {
  const order = sortItems(filterItems(rows, q), q);
  const at = order.findIndex((x) => x.id === itemId);
  const keep = queryString({ ...q, page: 1 });
  const href = (id: string) => `/runs/${run.id}/items/${encodeURIComponent(id)}${keep}`;
  const prev = at > 0 ? order[at - 1] : undefined;
  const next = at >= 0 ? order[at + 1] : undefined;
  const listPage = at >= 0 ? Math.floor(at / PER_PAGE) + 1 : 1;
  return h`<nav class="pager" id="${where === 'top' ? 'nav' : 'nav-bottom'}" aria-label="${where === 'top' ? 'Items' : 'Items (end of page)'}">${prev ? h`<a href="${href(prev.id)}" accesskey="p" rel="prev">← previous <span class="muted">(${prev.id})</span></a>` : h`<span class="muted">← previous</span>`}
<a href="/runs/${run.id}${queryString(q, { page: listPage })}" accesskey="u">↑ all items${at >= 0 ? ` (${at + 1} of ${order.length})` : ''}</a>
${next ? h`<a href="${href(next.id)}" accesskey="n" rel="next">next → <span class="muted">(${next.id})</span></a>` : h`<span class="muted">next →</span>`}</nav>`;
}

export async function itemPage(
  s: Services,
  runId: string,
  itemId: string,
  raw: Record<string, string | undefined>,
): Promise<string> {
  const run = await loadRun(s, runId);
  const r = await loadResult(s, run, itemId);
  const q = parseItemQuery(raw);
  const [{ rows, items, preds }, prs] = await Promise.all([
    runRows(s, run),
    s.stats.fixingPrs().catch(() => null),
  ]);
  const it = items.get(itemId);
  const pred = preds.get(itemId) ?? null;
  const row = rows.find((x) => x.id === itemId);
  const output = row?.output ?? null;
  const unparsed = row?.unparsed ?? false;
  const nav = (where: 'top' | 'bottom') => neighbours(run, rows, q, itemId, where);
  const task = run.kind === 'exec' ? 'exec' : run.task;
  const textItem = it && !('instance_id' in it) ? it : undefined;
  const specific =
    task === 'exec'
      ? execSection(r, it && 'instance_id' in it ? it : undefined, output)
      : textItem?.task === 'ce'
        ? ceSection(textItem, output ?? '')
        : h``;
  const ablate = Array.isArray(pred?.ablate) ? (pred.ablate as string[]) : [];
  const note = ((r.data ?? {}) as { note?: string }).note;
  const self = `/runs/${run.id}/items/${encodeURIComponent(itemId)}`;
  const body = h`<p class="crumbs"><a href="/runs/${run.id}">Run <code>${run.id}</code></a> · ${run.model} · ${run.task}</p>
<h1>Item <code>${itemId}</code> <span class="badge b-${r.outcome}">${r.outcome}</span>${unparsed ? h` <span class="badge b-unparsed">unparsed</span>` : ''}</h1>
<p class="sub">${it ? issueLinks(it, prs) : ''} · <a href="${self}">permalink</a> · <a href="/v1/runs/${run.id}/samples/${encodeURIComponent(itemId)}">JSON</a></p>
${nav('top')}
${r.error ? h`<div class="card error"><b>Error:</b> ${r.error}</div>` : ''}
<div class="grid">
<div class="card" id="input"><h2>Input</h2>${task === 'exec' ? '' : promptSection(rebuildPrompt(textItem, pred))}${inputSection(it, ablate)}</div>
<div class="card" id="output"><h2>Model output</h2>${outputSection(r, output, unparsed)}
<h2>Reference</h2>${referenceOf(it)}</div>
</div>
<div class="grid"><div class="card" id="item-scores"><h2>Scores</h2>${scoresTable(task, r)}${note ? h`<p class="muted">Note: ${note}</p>` : ''}</div>
<div class="card"><h2>Call</h2>${usageList(pred)}</div></div>
${specific}
${nav('bottom')}`;
  return layout(`${itemId} · ${run.id}`, body, '/runs');
}
