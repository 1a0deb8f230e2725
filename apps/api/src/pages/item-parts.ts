/** Parts of the sample viewer: text blocks, links to the source issue and PR, CE edits and diffs. */
import { applySearchReplace, parseSearchReplace, type SearchReplaceBlock } from '@faun/metrics';
import type { CeItem } from '@faun/schema';
import { createTwoFilesPatch } from 'diff';
import type { DatasetItem } from './data.ts';
import { h, type Safe } from './h.ts';

/** A long text as a preformatted block (wrapped, scrollable). */
export function textBlock(text: string, id: string): Safe {
  return text.trim() === ''
    ? h`<p class="muted">(empty)</p>`
    : h`<pre class="text" id="${id}" tabindex="0">${text}</pre>`;
}

/** Links to the item's issue (and, for CE, its PR) on GitHub. */
export function issueLinks(it: DatasetItem, prs: Map<string, number> | null = null): Safe {
  if ('instance_id' in it) {
    const m = /-(\d+)$/.exec(it.instance_id) ?? /:pr-(\d+)$/.exec(it.instance_id);
    return h`${it.repo}${m ? h` · <a href="https://github.com/${it.repo}/pull/${m[1]}">PR #${m[1]}</a>` : ''}`;
  }
  const issue = it.issue_number
    ? h` · <a href="https://github.com/${it.repo}/issues/${it.issue_number}">issue #${it.issue_number}</a>`
    : '';
  const prNumber =
    it.task === 'ce' && it.pr_number
      ? it.pr_number
      : it.issue_number
        ? (prs?.get(`${it.repo}#${it.issue_number}`) ?? null)
        : null;
  const pr = prNumber
    ? h` · <a href="https://github.com/${it.repo}/pull/${prNumber}">PR #${prNumber}</a>`
    : '';
  return h`${it.repo} · ${it.language}${issue}${pr}`;
}

/** A unified diff with added, removed and hunk lines marked for colour. */
export function diffBlock(diff: string, id: string): Safe {
  // createTwoFilesPatch starts with a line of '=' (no part of a unified diff)
  const lines = diff
    .replace(/\n$/, '')
    .split('\n')
    .filter((l, i) => !(i === 0 && /^=+$/.test(l)));
  return h`<pre class="diff" id="${id}" tabindex="0">${lines.map((l) => {
    const cls =
      l.startsWith('+++') || l.startsWith('---')
        ? 'fh'
        : l.startsWith('@@')
          ? 'hunk'
          : l.startsWith('+')
            ? 'add'
            : l.startsWith('-')
              ? 'del'
              : '';
    return h`<span class="${cls}">${l}</span>\n`;
  })}</pre>`;
}

function blocksTable(blocks: SearchReplaceBlock[], id: string): Safe {
  if (blocks.length === 0) return h`<p class="muted">No SEARCH/REPLACE block.</p>`;
  return h`<div id="${id}">${blocks.map(
    (b, i) =>
      h`<div class="block"><div class="muted">block ${i + 1}${b.path ? h` · <code>${b.path}</code>` : ''}</div><div class="sr"><div><b>SEARCH</b><pre tabindex="0">${b.search}</pre></div><div><b>REPLACE</b><pre tabindex="0">${b.replace}</pre></div></div></div>`,
  )}</div>`;
}

/** CE: the predicted and gold SEARCH/REPLACE blocks, whether the edit applied, and the edited file against gold. */
export function ceSection(it: CeItem, output: string): Safe {
  const pred = parseSearchReplace(output);
  const gold = parseSearchReplace(it.gold_patch);
  const applied = applySearchReplace(it.file_before, pred.blocks);
  const diff =
    applied.result === it.file_after
      ? null
      : createTwoFilesPatch(`gold/${it.path}`, `edited/${it.path}`, it.file_after, applied.result, '', '', {
          context: 3,
        });
  const goldDiff = createTwoFilesPatch(
    `a/${it.path}`,
    `b/${it.path}`,
    it.file_before,
    it.file_after,
    '',
    '',
    {
      context: 3,
    },
  );
  const status =
    pred.blocks.length === 0
      ? 'no edit: the file stays as it was'
      : applied.ok
        ? 'all blocks applied'
        : `${applied.failures.length} of ${pred.blocks.length} blocks did not apply: ${applied.failures.map((f) => `block ${f.index + 1}: ${f.reason}`).join('; ')}`;
  return h`<div class="card" id="ce"><h2>Edits</h2>
<div class="grid"><div><h3>Model's SEARCH/REPLACE blocks</h3>${blocksTable(pred.blocks, 'pred-blocks')}</div>
<div><h3>Gold SEARCH/REPLACE blocks</h3>${blocksTable(gold.blocks, 'gold-blocks')}</div></div>
<p id="apply-status"><b>Apply:</b> ${status}</p>
<h3>Edited file against the gold file <code>${it.path}</code></h3>
${diff ? diffBlock(diff, 'file-diff') : h`<p id="file-diff" class="muted">The edited file equals the gold file.</p>`}
<details><summary>The gold change (file before → gold file)</summary>${diffBlock(goldDiff, 'gold-diff')}</details></div>`;
}
