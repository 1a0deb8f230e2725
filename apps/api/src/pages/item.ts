/**
 * The sample viewer: one item of a run — the input parts as the task used them, the model output, the
 * extracted answer, the reference, the per-item scores; for CE the SEARCH/REPLACE blocks and the
 * unified diff of the edited file against gold; for execution runs the patch, how it applied, each
 * FAIL_TO_PASS / PASS_TO_PASS test's status and the test log. Previous/next follow the run page's
 * filters and sort order (`accesskey` p / n; u goes back to the list).
 */
import type { Services } from '../context.ts';
import { type DatasetItem, loadPrediction, loadResult, loadRun, type ResultRow, runRows } from './data.ts';
import { fmt, h, type Safe } from './h.ts';
import { ceSection, execSection, issueLinks, textBlock } from './item-parts.ts';
import { filterItems, parseItemQuery, queryString, sortItems } from './items.ts';
import { metricLabel, orderMetrics } from './labels.ts';
import { layout } from './layout.ts';

function inputSection(it: DatasetItem | undefined, ablate: string[]): Safe {
  if (!it)
    return h`<p class="muted">The dataset of this run is not registered on this server; its input is unavailable.</p>`;
  const gone = (part: string) =>
    ablate.includes(part) ? h` <span class="badge b-skipped">left out (ablation)</span>` : '';
  if ('instance_id' in it)
    return h`<h3>Problem statement</h3>${textBlock(it.problem_statement, 'problem')}
<p class="muted">${it.repo} at <code>${it.base_commit.slice(0, 12)}</code></p>`;
  const issue = h`<h3>Issue title${gone('title')}</h3><p class="title">${it.issue_title}</p><h3>Issue body${gone('body')}</h3>${textBlock(it.issue_body, 'issue')}`;
  if (it.task === 'qa')
    return h`${issue}${
      it.context.length
        ? h`<h3>Conversation so far</h3>${it.context.map((t, i) => h`<div class="turn"><b>${t.role}</b> <span class="muted">${t.author_association ?? ''}</span>${textBlock(t.content, `turn-${i + 1}`)}</div>`)}`
        : ''
    }`;
  if (it.task === 'fl')
    return h`${issue}<details><summary>Repository tree (${it.tree.length} files)</summary><pre id="tree">${it.tree.join('\n')}</pre></details>`;
  return h`${issue}<h3>PR title${gone('pr')}</h3><p class="title">${it.pr_title}</p><h3>PR body${gone('pr')}</h3>${textBlock(it.pr_body, 'pr')}
<details><summary>File <code>${it.path}</code> before the change (${it.file_before.split('\n').length} lines)</summary><pre id="file-before">${it.file_before}</pre></details>`;
}

function referenceOf(it: DatasetItem | undefined): Safe {
  if (!it) return h`<span class="muted">unavailable</span>`;
  if ('instance_id' in it)
    return h`<details open><summary>gold patch</summary><pre id="reference">${it.patch}</pre></details>`;
  if (it.task === 'qa') return textBlock(it.answer, 'reference');
  if (it.task === 'fl') return h`<pre id="reference">${it.gold_path}</pre>`;
  return h`<pre id="reference">${it.gold_patch}</pre>`;
}

function scoresTable(task: string, r: ResultRow): Safe {
  const scores = (r.scores ?? {}) as Record<string, number>;
  const names = orderMetrics(task, Object.keys(scores));
  if (names.length === 0) return h`<p class="muted">No metric scores (${r.outcome}).</p>`;
  return h`<table id="scores"><thead><tr><th>Metric</th><th class="num">Score</th></tr></thead><tbody>${names.map(
    (m, i) =>
      h`<tr><td>${metricLabel(m)}${i === 0 ? h` <span class="muted">(primary)</span>` : ''} <code class="muted">${m}</code></td><td class="num">${fmt(scores[m], 4)}</td></tr>`,
  )}</tbody></table>`;
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
  const [{ rows, items }, pred, prs] = await Promise.all([
    runRows(s, run),
    loadPrediction(s, run.id, itemId),
    s.stats.fixingPrs().catch(() => null),
  ]);
  const it = items.get(itemId);
  // neighbours in the run page's order, under its filters (the item itself may be outside them)
  const order = sortItems(filterItems(rows, q), q);
  const at = order.findIndex((x) => x.id === itemId);
  const keep = queryString({ ...q, page: 1 });
  const href = (id: string) => `/runs/${run.id}/items/${encodeURIComponent(id)}${keep}`;
  const prev = at > 0 ? order[at - 1] : undefined;
  const next = at >= 0 ? order[at + 1] : undefined;
  const listPage = at >= 0 ? Math.floor(at / 50) + 1 : 1;
  const nav = h`<div class="pager" id="nav">${prev ? h`<a href="${href(prev.id)}" accesskey="p" rel="prev">← previous <span class="muted">(${prev.id})</span></a>` : h`<span class="muted">← previous</span>`}
<a href="/runs/${run.id}${queryString(q, { page: listPage })}" accesskey="u">↑ all items${at >= 0 ? ` (${at + 1} of ${order.length})` : ''}</a>
${next ? h`<a href="${href(next.id)}" accesskey="n" rel="next">next → <span class="muted">(${next.id})</span></a>` : h`<span class="muted">next →</span>`}</div>`;
  const output = pred
    ? typeof pred.model_patch === 'string'
      ? pred.model_patch
      : String(pred.output ?? '')
    : null;
  const ablate = Array.isArray(pred?.ablate) ? (pred.ablate as string[]) : [];
  const task = run.kind === 'exec' ? 'exec' : run.task;
  const specific =
    task === 'exec'
      ? execSection(r, it, output)
      : task === 'ce' && it && !('instance_id' in it) && it.task === 'ce'
        ? ceSection(it, output ?? '')
        : h``;
  const body = h`<p class="crumbs"><a href="/runs/${run.id}">Run <code>${run.id}</code></a> · ${run.model} · ${run.task}</p>
<h1>Item <code>${itemId}</code> <span class="badge b-${r.outcome}">${r.outcome}</span></h1>
<p class="sub">${it ? issueLinks(it, prs) : ''} · <a href="${`/runs/${run.id}/items/${encodeURIComponent(itemId)}`}">permalink</a> · <a href="/v1/runs/${run.id}/samples">JSON</a></p>
${nav}
${r.error ? h`<div class="card error"><b>Error:</b> ${r.error}</div>` : ''}
<div class="grid">
<div class="card" id="input"><h2>Input</h2>${inputSection(it, ablate)}</div>
<div class="card" id="output"><h2>Model output</h2>${
    output === null
      ? h`<p class="muted">No prediction was submitted for this item.</p>`
      : output === ''
        ? h`<p class="muted">(empty output)</p>`
        : h`<pre id="model-output">${output}</pre>`
  }${r.answer !== null && r.answer !== output ? h`<h3>Extracted answer</h3><pre id="answer">${r.answer}</pre>` : ''}
${pred?.truncated ? h`<p class="muted">The prompt was truncated to fit the model's context.</p>` : ''}
<h2>Reference</h2>${referenceOf(it)}</div>
</div>
<div class="card" id="item-scores"><h2>Scores</h2>${scoresTable(task, r)}${
    ((r.data ?? {}) as { note?: string }).note
      ? h`<p class="muted">Note: ${((r.data ?? {}) as { note?: string }).note}</p>`
      : ''
  }</div>
${specific}
${nav}`;
  return layout(`${itemId} · ${run.id}`, body);
}
