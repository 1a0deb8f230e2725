/**
 * The side-by-side part of the comparison page: per item, one column per run with its outcome, value,
 * delta against the baseline, its output and its diff against the reference (QA: the answer; FL: the
 * gold path; CE: the edited file against the gold file; execution: the patch against the gold patch).
 */
import { applySearchReplace, formatMetric, normalizePath, parseSearchReplace } from '@faun/metrics';
import { createTwoFilesPatch } from 'diff';
import type { CompareRow } from './compare-core.ts';
import type { DatasetItem, RunRow } from './data.ts';
import { fmt, h, type Safe } from './h.ts';
import { diffBlock } from './item-parts.ts';
import type { ItemRow } from './items.ts';
import { scrollTable } from './layout.ts';

const LIMIT = 20_000;

/** What the output is compared with, and the output side as compared: null when there is no reference. */
export function referencePair(
  it: DatasetItem | undefined,
  output: string,
  answer: string | null,
): { label: string; reference: string; compared: string } | null {
  if (!it) return null;
  if ('instance_id' in it)
    return { label: 'patch against the gold patch', reference: it.patch, compared: output };
  if (it.task === 'qa')
    return { label: 'answer against the reference', reference: it.answer, compared: output };
  if (it.task === 'fl')
    return {
      label: 'answer against the gold path',
      reference: normalizePath(it.gold_path),
      compared: answer ?? output,
    };
  const edited = applySearchReplace(it.file_before, parseSearchReplace(output).blocks).result;
  return { label: `edited ${it.path} against the gold file`, reference: it.file_after, compared: edited };
}

/** The unified diff of `compared` against the reference ('' when equal). */
export function referenceDiff(pair: { reference: string; compared: string }): string {
  if (pair.reference === pair.compared) return '';
  const cut = (t: string) => (t.length > LIMIT ? `${t.slice(0, LIMIT)}\n… (cut)` : t);
  return createTwoFilesPatch('reference', 'output', cut(pair.reference), cut(pair.compared), '', '', {
    context: 2,
  });
}

const deltaText = (d: number) =>
  h`<span class="delta ${d > 0 ? 'better' : d < 0 ? 'worse' : 'muted'}">${d > 0 ? '+' : ''}${fmt(d)}</span>`;

function column(
  run: RunRow,
  i: number,
  row: CompareRow,
  r: ItemRow | undefined,
  it: DatasetItem | undefined,
  metric: string,
): Safe {
  const cell = row.cells[i]!;
  const head = h`<p><b>${run.model}</b>${i === 0 ? h` <span class="muted">(baseline)</span>` : ''}<br>${
    cell.outcome === null
      ? h`<span class="muted">no result</span>`
      : h`<a href="/runs/${run.id}/items/${encodeURIComponent(row.id)}"><span class="badge b-${cell.outcome}">${cell.outcome}</span></a> ${formatMetric(metric, cell.value)}${i > 0 ? h` (${deltaText(row.deltas[i - 1]!)})` : ''}${cell.solved ? h` <span class="badge b-pass">solved</span>` : ''}${r?.unparsed ? h` <span class="badge b-unparsed">unparsed</span>` : ''}`
  }</p>`;
  if (!r || r.output === null)
    return h`<div class="run-col">${head}<p class="muted">No prediction.</p></div>`;
  const pair = referencePair(it, r.output, r.answer);
  const diff = pair ? referenceDiff(pair) : '';
  const out = r.output.length > LIMIT ? `${r.output.slice(0, LIMIT)}\n… (cut)` : r.output;
  return h`<div class="run-col">${head}<h4 class="muted">Output</h4>${out.trim() ? h`<pre tabindex="0">${out}</pre>` : h`<p class="muted">(empty output)</p>`}
${pair ? h`<h4 class="muted">Diff: ${pair.label}</h4>${diff ? diffBlock(diff, `diff-${i}-${encodeURIComponent(row.id)}`) : h`<p class="muted">Equal to the reference.</p>`}` : ''}</div>`;
}

/** One item's block: its per-run values, then the runs' outputs and diffs in columns. */
export function sideBySideItem(
  list: RunRow[],
  row: CompareRow,
  rows: Map<string, ItemRow>[],
  it: DatasetItem | undefined,
  metric: string,
): Safe {
  const values = scrollTable(
    `values of ${row.id}`,
    h`<table class="item-values"><thead><tr>${list.map((r, i) => h`<th scope="col" class="num">${r.model}<span class="ci">${i === 0 ? 'baseline' : 'Δ vs baseline'}</span></th>`)}</tr></thead><tbody><tr>${row.cells.map(
      (c, i) =>
        h`<td class="num">${c.outcome === null ? '—' : h`<span class="badge b-${c.outcome}">${c.outcome}</span> ${formatMetric(metric, c.value)}`}${i > 0 ? h`<span class="ci">${deltaText(row.deltas[i - 1]!)}</span>` : ''}</td>`,
    )}</tr></tbody></table>`,
  );
  return h`<section class="card side" aria-label="${row.id}"><h3><code>${row.id}</code>${it ? h` <span class="muted">${it.repo}</span>` : ''}</h3>${values}
<div class="cols" style="--n:${list.length}">${list.map((run, i) => column(run, i, row, rows[i]!.get(row.id), it, metric))}</div></section>`;
}
