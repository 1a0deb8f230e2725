import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandContext } from '@faun/kit';
import { crawlPages, makeCrossref } from '../testing/synthetic.ts';
import { commands } from './cli.ts';
import type { StatsReport } from './stats.ts';
import { Store } from './store.ts';

let dir: string;
let db: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faun-stats-'));
  db = join(dir, 'crawl.duckdb');
  const s = await Store.open(db);
  for (const p of crawlPages({ seed: 1, total: 200, repos: 2 })) await s.ingest(p);
  await s.ingest({ crossrefs: [makeCrossref('org0/repo0', 1, 2, true)] });
  await s.putPairs([
    {
      v: 1,
      repo: 'org0/repo0',
      issue: 1,
      pr: 2,
      evidence: { text_reference: true, closing_keyword: true, cross_ref_event: true, github_closing: null },
    },
  ]);
  await s.putFunnel([
    {
      run_id: 'r1',
      repo: 'org0/repo0',
      step: 'botAuthored',
      order: 0,
      unit: 'issue',
      input: 60,
      removed: 3,
      output: 57,
      skipped: false,
      undecided: {},
    },
    {
      run_id: 'r1',
      repo: 'org0/repo0',
      step: 'shortBody',
      order: 1,
      unit: 'issue',
      input: 57,
      removed: 7,
      output: 50,
      skipped: false,
      undecided: {},
    },
  ]);
  await s.close();
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function ctx(opts: Record<string, unknown>, json: boolean) {
  const logs: string[] = [];
  const out: unknown[] = [];
  const c = {
    opts,
    args: [],
    sources: {},
    argv: [],
    json,
    quiet: false,
    logDir: dir,
    log: (l: string) => logs.push(l),
    emitJson: (v: unknown) => out.push(v),
    progress: () => {
      throw new Error('unused');
    },
  } as unknown as CommandContext;
  return { c, logs, out };
}

const stats = commands.find((c) => c.name === 'stats');

test('stats --json reports per-repo counts, pairs and the stored funnel', async () => {
  const { c, out } = ctx({ db }, true);
  expect(await stats?.run(c)).toBe(0);
  const r = out[0] as StatsReport;
  expect(r.repos.map((x) => x.repo)).toEqual(['org0/repo0', 'org1/repo1']);
  const repo0 = r.repos[0];
  expect(
    (repo0?.issues_open ?? 0) +
      (repo0?.issues_closed ?? 0) +
      (repo0?.prs_open ?? 0) +
      (repo0?.prs_closed ?? 0),
  ).toBe(100);
  expect(repo0?.pairs).toBe(1);
  expect(repo0?.crossrefs).toBe(1);
  expect(r.totals.pairs).toBe(1);
  expect(r.checkpoints).toMatchObject({
    streams: 2,
    done: 2,
    byRepo: { 'org0/repo0': { streams: 1, done: 1 } },
  });
  expect(r.funnel.map((f) => [f.step, f.removed])).toEqual([
    ['botAuthored', 3],
    ['shortBody', 7],
  ]);
});

test('stats prints a table with a total line and the funnel', async () => {
  const { c, logs } = ctx({ db }, false);
  await stats?.run(c);
  const text = logs.join('\n');
  expect(text).toMatch(/^org0\/repo0 /m);
  expect(text).toMatch(/^total .* 2\/2$/m);
  expect(text).toContain('funnel (run r1):');
  expect(text).toMatch(/botAuthored\s+issue\s+60\s+3\s+57/);
});

test('stats on a missing file fails with a clear message', async () => {
  const { c } = ctx({ db: join(dir, 'missing.duckdb') }, false);
  await expect(Promise.resolve(stats?.run(c))).rejects.toThrow('does not exist');
});
