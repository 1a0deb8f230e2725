/**
 * `faun stats`: what a store holds — per-repository counts, curation stage sizes, checkpoints and the
 * stored funnel. `gatherStats` reads; `formatStats` is pure text rendering.
 * @module
 */

import type { FunnelRow } from '@faun/schema';
import type { Checkpoint } from './batch.ts';
import type { RepoCounts, StageCounts } from './queries.ts';
import type { Store } from './store.ts';

export interface StatsReport {
  store: string;
  repos: RepoCounts[];
  totals: Omit<RepoCounts, 'repo'>;
  stages: StageCounts[];
  checkpoints: { streams: number; done: number; byRepo: Record<string, { streams: number; done: number }> };
  funnel: FunnelRow[];
}

const COUNT_KEYS = [
  'issues_open',
  'issues_closed',
  'prs_open',
  'prs_closed',
  'prs_merged',
  'comments',
  'events',
  'crossrefs',
  'pr_files',
  'pairs',
] as const;

function byRepo(cps: Checkpoint[]): Record<string, { streams: number; done: number }> {
  const out: Record<string, { streams: number; done: number }> = {};
  for (const c of cps) {
    const r = (out[c.repo] ??= { streams: 0, done: 0 });
    r.streams++;
    if (c.done) r.done++;
  }
  return out;
}

export async function gatherStats(store: Store): Promise<StatsReport> {
  const repos = await store.counts();
  const totals = Object.fromEntries(COUNT_KEYS.map((k) => [k, repos.reduce((a, r) => a + r[k], 0)])) as Omit<
    RepoCounts,
    'repo'
  >;
  const cps = await store.checkpoints();
  return {
    store: store.path,
    repos,
    totals,
    stages: await store.stageCounts(),
    checkpoints: { streams: cps.length, done: cps.filter((c) => c.done).length, byRepo: byRepo(cps) },
    funnel: await store.funnel(),
  };
}

/** Renders rows as an aligned table: first column left-aligned, the rest right-aligned. */
export function table(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const width = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells
    .map((r) => r.map((c, i) => (i === 0 ? c.padEnd(width[i] ?? 0) : c.padStart(width[i] ?? 0))).join('  '))
    .join('\n');
}

export function formatStats(s: StatsReport): string {
  const out: string[] = [`store ${s.store}`, ''];
  if (s.repos.length === 0) out.push('(empty: no repositories crawled yet)');
  else {
    const header = [
      'repo',
      'issues open',
      'closed',
      'PRs open',
      'closed',
      'merged',
      'comments',
      'events',
      'xrefs',
      'PR files',
      'pairs',
      'streams done',
    ];
    const line = (name: string, c: Omit<RepoCounts, 'repo'>, cp?: { streams: number; done: number }) => [
      name,
      ...COUNT_KEYS.map((k) => c[k]),
      cp ? `${cp.done}/${cp.streams}` : '-',
    ];
    const rows = s.repos.map((r) => line(r.repo, r, s.checkpoints.byRepo[r.repo]));
    if (s.repos.length > 1) rows.push(line('total', s.totals, s.checkpoints));
    out.push(table(header, rows));
  }
  out.push('', `checkpoints: ${s.checkpoints.streams} streams, ${s.checkpoints.done} done`);
  if (s.stages.length) {
    out.push('', 'curation stages (SQL views):');
    out.push(
      table(
        [
          'repo',
          'issues',
          'closed',
          'PRs',
          'merged',
          'to default',
          'candidates',
          'issues w/ cand.',
          '1:1',
          'pairs',
        ],
        s.stages.map((g) => [
          g.repo,
          g.issues,
          g.closed_issues,
          g.prs,
          g.merged_prs,
          g.merged_default_prs,
          g.candidate_pairs,
          g.issues_with_candidate,
          g.issues_one_to_one,
          g.pairs,
        ]),
      ),
    );
  }
  if (s.funnel.length) {
    for (const run of [...new Set(s.funnel.map((f) => f.run_id ?? ''))]) {
      out.push('', `funnel${run ? ` (run ${run})` : ''}:`);
      out.push(
        table(
          ['repo', 'step', 'unit', 'input', 'removed', 'output'],
          s.funnel
            .filter((f) => (f.run_id ?? '') === run)
            .map((f) => [
              f.repo,
              f.skipped ? `${f.step} (skipped)` : f.step,
              f.unit,
              f.input,
              f.removed,
              f.output,
            ]),
        ),
      );
    }
  } else out.push('', 'funnel: none stored yet (faun curate stores one)');
  return out.join('\n');
}
