/**
 * Writing a built dataset: one JSONL per task (items sorted by id, keys sorted), plus a dataset card
 * (`card.json` and `README.md`) with counts, languages, repositories, the funnel, length
 * distributions and a content hash over the JSONL bytes. Nothing time-dependent goes in, so building
 * twice from the same store gives byte-identical files.
 * @module
 */
import { join } from 'node:path';
import { sha256 } from '@faun/kit';
import { stableStringify, type TaskItem, type TaskName, toJsonlLine, writeFileAtomic } from '@faun/schema';
import type { FunnelRow } from './funnel.ts';
import { tally, totalRows } from './funnel-table.ts';

export interface LengthStats {
  n: number;
  min: number;
  p25: number;
  median: number;
  p75: number;
  max: number;
}

/** Nearest-rank quantiles of `values` (all zero when empty). */
export function lengthStats(values: number[]): LengthStats {
  const v = [...values].sort((a, b) => a - b);
  const q = (p: number) => (v.length ? (v[Math.min(v.length - 1, Math.ceil(p * v.length) - 1)] ?? 0) : 0);
  return { n: v.length, min: v[0] ?? 0, p25: q(0.25), median: q(0.5), p75: q(0.75), max: v.at(-1) ?? 0 };
}

export interface DatasetCard {
  name: string;
  /** sha256 over `<file>\n<sha256 of its bytes>\n` for each JSONL file in name order. */
  content_hash: string;
  files: Record<string, { items: number; sha256: string }>;
  counts: Record<string, number>;
  languages: Record<string, Record<string, number>>;
  repos: Record<string, Record<string, number>>;
  lengths: Record<string, { issue_chars: LengthStats; extra: Record<string, LengthStats> }>;
  funnel: FunnelRow[];
  skipped: Record<string, Record<string, number>>;
  source: string;
}

/** Writes `<task>.jsonl`, `card.json` and `README.md` into `dir`; returns the card. */
export async function writeDataset(
  dir: string,
  items: Partial<Record<TaskName, TaskItem[]>>,
  meta: {
    name: string;
    source: string;
    funnel: FunnelRow[];
    skipped: Array<{ task: string; reason: string }>;
  },
): Promise<DatasetCard> {
  const card: DatasetCard = {
    name: meta.name,
    content_hash: '',
    files: {},
    counts: {},
    languages: {},
    repos: {},
    lengths: {},
    funnel: [...meta.funnel, ...(meta.funnel.length ? totalRows(meta.funnel) : [])],
    skipped: {},
    source: meta.source,
  };
  const tasks = (Object.keys(items) as TaskName[]).sort();
  let manifest = '';
  for (const task of tasks) {
    const list = [...(items[task] ?? [])].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const text = list.map(toJsonlLine).join('');
    const file = `${task}.jsonl`;
    await writeFileAtomic(join(dir, file), text);
    const hash = sha256(text);
    card.files[file] = { items: list.length, sha256: hash };
    manifest += `${file}\n${hash}\n`;
    card.counts[task] = list.length;
    card.languages[task] = tally(list.map((i) => i.language));
    card.repos[task] = tally(list.map((i) => i.repo));
    const extra: Record<string, LengthStats> = {};
    if (task === 'qa')
      extra.answer_chars = lengthStats(list.map((i) => (i.task === 'qa' ? i.answer.length : 0)));
    if (task === 'fl') extra.tree_files = lengthStats(list.map((i) => (i.task === 'fl' ? i.tree.length : 0)));
    if (task === 'ce') {
      extra.file_lines = lengthStats(
        list.map((i) => (i.task === 'ce' ? i.file_before.split('\n').length : 0)),
      );
      extra.gold_patch_chars = lengthStats(list.map((i) => (i.task === 'ce' ? i.gold_patch.length : 0)));
    }
    card.lengths[task] = {
      issue_chars: lengthStats(list.map((i) => i.issue_title.length + i.issue_body.length)),
      extra,
    };
  }
  for (const s of meta.skipped) {
    const t = (card.skipped[s.task] ??= {});
    t[s.reason] = (t[s.reason] ?? 0) + 1;
  }
  card.content_hash = sha256(manifest);
  await writeFileAtomic(join(dir, 'card.json'), `${stableStringify(card, 2)}\n`);
  await writeFileAtomic(join(dir, 'README.md'), renderCard(card));
  return card;
}

/** The dataset card as Markdown. */
export function renderCard(c: DatasetCard): string {
  const lines = [`# ${c.name}`, '', `Source: ${c.source}`, '', `Content hash: \`${c.content_hash}\``, ''];
  lines.push('## Items', '', '| task | items | languages | repositories |', '|---|---:|---|---|');
  for (const [task, n] of Object.entries(c.counts)) {
    const langs = Object.entries(c.languages[task] ?? {})
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    lines.push(`| ${task} | ${n} | ${langs} | ${Object.keys(c.repos[task] ?? {}).length} |`);
  }
  lines.push('', '## Lengths (characters, or lines/files where named; nearest-rank quantiles)', '');
  lines.push(
    '| task | measure | n | min | p25 | median | p75 | max |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const [task, l] of Object.entries(c.lengths))
    for (const [name, s] of Object.entries({ issue_chars: l.issue_chars, ...l.extra }))
      lines.push(`| ${task} | ${name} | ${s.n} | ${s.min} | ${s.p25} | ${s.median} | ${s.p75} | ${s.max} |`);
  const repos = [...new Set(Object.values(c.repos).flatMap((r) => Object.keys(r)))].sort();
  lines.push('', '## Repositories', '', ...repos.map((r) => `- ${r}`));
  if (c.funnel.length) {
    lines.push(
      '',
      '## Curation funnel',
      '',
      '| repo | step | unit | in | removed | out | could not decide (kept) |',
      '|---|---|---|---:|---:|---:|---|',
    );
    for (const r of c.funnel) {
      const unsure = Object.entries(r.undecided ?? {})
        .map(([reason, n]) => `${n} × ${reason}`)
        .join('; ');
      lines.push(
        `| ${r.repo} | ${r.step}${r.skipped ? ' (skipped)' : ''} | ${r.unit} | ${r.input} | ${r.removed} | ${r.output} | ${unsure} |`,
      );
    }
  }
  const skipped = Object.entries(c.skipped);
  if (skipped.length) {
    lines.push('', '## Skipped', '');
    for (const [task, reasons] of skipped)
      for (const [reason, n] of Object.entries(reasons).sort()) lines.push(`- ${task}: ${n} × ${reason}`);
  }
  return `${lines.join('\n')}\n`;
}
