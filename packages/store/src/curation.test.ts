import { expect, test } from 'bun:test';
import type { FixPair, QaItem, RawEntry } from '@faun/schema';
import { testIssue } from '@faun/schema/testing';
import { makeCrossref, makeEntry, rng } from '../testing/synthetic.ts';
import { tempDbs } from '../testing/temp-db.ts';
import { Store } from './store.ts';

const { fresh } = tempDbs('faun-store-cur-', 'c');

const R = 'o/r';
function issue(num: number, state: 'open' | 'closed'): RawEntry {
  return { ...makeEntry(rng(num), R, num), kind: 'issue', state, pr: null };
}
function pr(num: number, merged: boolean, base: string, closing: number[] | null = null): RawEntry {
  const e = makeEntry(rng(num), R, num);
  return {
    ...e,
    kind: 'pr',
    state: 'closed',
    default_branch: null,
    pr: { merged, merged_at: merged ? e.created_at : null, base_ref: base, closing_issues: closing },
  };
}

test('stage views: candidate pairs need a closed issue and a PR merged into the default branch', async () => {
  const s = await Store.open(fresh());
  await s.ingest({
    repos: [{ repo: R, default_branch: 'main' }],
    entries: [
      issue(1, 'closed'),
      pr(2, true, 'main'),
      issue(3, 'open'),
      pr(4, true, 'release'),
      issue(5, 'closed'),
      pr(6, false, 'main'),
      issue(7, 'closed'),
      pr(8, true, 'main', [7]),
      pr(9, true, 'main'),
    ],
    crossrefs: [
      makeCrossref(R, 1, 2, true),
      makeCrossref(R, 3, 2, null),
      makeCrossref(R, 5, 4, true),
      makeCrossref(R, 5, 6, true),
      makeCrossref(R, 7, 9, null),
    ],
  });
  const rows = await s.all<{
    issue: number;
    pr: number;
    cross_ref_event: boolean;
    github_closing_reference: boolean;
  }>('SELECT issue, pr, cross_ref_event, github_closing_reference FROM v_candidate_pairs ORDER BY issue, pr');
  expect(rows).toEqual([
    { issue: 1, pr: 2, cross_ref_event: true, github_closing_reference: false },
    { issue: 7, pr: 8, cross_ref_event: false, github_closing_reference: true },
    { issue: 7, pr: 9, cross_ref_event: true, github_closing_reference: false },
  ]);
  const [st] = await s.stageCounts(R);
  expect(st).toMatchObject({
    entries: 9,
    issues: 4,
    closed_issues: 3,
    prs: 5,
    merged_prs: 4,
    merged_default_prs: 3,
    candidate_pairs: 3,
    issues_with_candidate: 2,
    issues_one_to_one: 1,
  });
  await s.close();
});

test('pairs: upsert, replace per repository, evidence round-trip', async () => {
  const s = await Store.open(fresh());
  const p = (repo: string, issue: number, prn: number, gh: boolean | null): FixPair => ({
    v: 1,
    repo,
    issue,
    pr: prn,
    evidence: { text_reference: true, closing_keyword: false, cross_ref_event: true, github_closing: gh },
  });
  await s.putPairs([p('a/b', 1, 2, null), p('a/b', 3, 4, true), p('c/d', 1, 9, false)], 'run1');
  await s.putPairs([p('a/b', 5, 6, true)], { replace: true });
  expect(await s.pairs()).toEqual([p('a/b', 5, 6, true), p('c/d', 1, 9, false)]);
  expect((await s.counts()).map((c) => [c.repo, c.pairs])).toEqual([
    ['a/b', 1],
    ['c/d', 1],
  ]);
  await s.close();
});

test('funnel rows replace per (run, repo); task items round-trip by dataset and task', async () => {
  const s = await Store.open(fresh());
  const row = (repo: string, order: number, removed: number) => ({
    repo,
    step: `s${order}`,
    order,
    unit: 'issue' as const,
    input: 10,
    removed,
    output: 10 - removed,
    skipped: false,
    undecided: (removed === 3
      ? { 'comments not crawled': 1, 'unsupported language (.rb)': 2 }
      : {}) as Record<string, number>,
  });
  await s.putFunnel([row('a/b', 0, 1), row('a/b', 1, 2), row('c/d', 0, 3)]);
  await s.putFunnel([row('a/b', 0, 5)]);
  expect((await s.funnel()).map((f) => [f.repo, f.order, f.removed])).toEqual([
    ['a/b', 0, 5],
    ['c/d', 0, 3],
  ]);
  // Undecided items per reason survive the round trip.
  expect((await s.funnel()).map((f) => f.undecided)).toEqual([
    {},
    { 'comments not crawled': 1, 'unsupported language (.rb)': 2 },
  ]);
  const qa = (id: string): QaItem => ({
    ...testIssue(id, 'a/b'),
    task: 'qa',
    question_association: null,
    context: [],
    answer: 'x',
    answer_association: 'MEMBER',
  });
  await s.putTaskItems('ds1', [qa('a/b#2'), qa('a/b#1')]);
  await s.putTaskItems('ds2', [qa('a/b#3')]);
  expect((await s.taskItems('ds1')).map((t) => t.id)).toEqual(['a/b#1', 'a/b#2']);
  expect(await s.taskItems('ds1', 'fl')).toEqual([]);
  expect(await s.taskItems('ds2', 'qa')).toEqual([qa('a/b#3')]);
  await s.close();
});

test('an idle group commits on its timer; reads see pending batches before that', async () => {
  const path = fresh();
  const s = await Store.open(path, { commit: { maxBatches: 1000, maxDelayMs: 80 } });
  await s.ingest({ entries: [issue(1, 'open')] });
  expect(s.uncommitted).toBe(1);
  expect((await s.entry(R, 1))?.number).toBe(1);
  // The timer fires after 80 ms; allow a loaded machine a few seconds.
  for (let i = 0; i < 100 && s.uncommitted > 0; i++) await Bun.sleep(50);
  expect(s.uncommitted).toBe(0);
  await s.close();
});
