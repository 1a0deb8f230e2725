import { expect, test } from 'bun:test';
import { compareSets, diff, type InstanceRecord, markdownTable, summarize, summaryLine } from './compare.ts';
import type { TestSets } from './rows.ts';

const sets = (f2p: string[], p2p: string[], n2p: string[] = [], s2p: string[] = []): TestSets => ({
  f2p_tests: f2p,
  p2p_tests: p2p,
  n2p_tests: n2p,
  s2p_tests: s2p,
});

test('diff: missing = published only, extra = faun only, both sorted', () => {
  expect(diff(['c', 'a', 'x'], ['b', 'a', 'c'])).toEqual({ identical: false, missing: ['b'], extra: ['x'] });
  expect(diff(['a'], ['a'])).toEqual({ identical: true, missing: [], extra: [] });
});

test('compareSets compares every category on its own', () => {
  const c = compareSets(sets(['F'], ['A', 'B'], ['N']), sets(['F'], ['A', 'C'], []));
  expect(c.f2p_tests.identical).toBe(true);
  expect(c.p2p_tests).toEqual({ identical: false, missing: ['C'], extra: ['B'] });
  expect(c.n2p_tests).toEqual({ identical: false, missing: [], extra: ['N'] });
  expect(c.s2p_tests.identical).toBe(true);
});

const record = (id: string, over: Partial<InstanceRecord>): InstanceRecord => ({
  instance_id: id,
  repo: 'acme/widgets',
  number: 1,
  base_sha: 'a'.repeat(40),
  error: null,
  upstream_command: 'mvn clean test',
  command: 'mvn test',
  deviations: [],
  faun: sets(['F'], ['A']),
  published: sets(['F'], ['A']),
  comparison: compareSets(sets(['F'], ['A']), sets(['F'], ['A'])),
  tests_run: { missing: [], extra: [] },
  gold_resolved: true,
  empty_resolved: false,
  test_only_resolved: false,
  outcomes: {},
  ...over,
});

test('summary: counts, differences, instances not run, and every resolved control by id', () => {
  const s = summarize([
    record('i-1', {}),
    record('i-2', {
      comparison: compareSets(sets(['G'], ['A', 'B'], ['N']), sets(['F'], ['A'])),
      tests_run: { missing: ['Z'], extra: [] },
      gold_resolved: false,
      test_only_resolved: true,
    }),
    record('i-3', { error: 'no offline environment', comparison: null, faun: null, gold_resolved: null }),
    record('i-0', { empty_resolved: true }),
  ]);
  expect(s).toEqual({
    instances: 4,
    ran: 3,
    errors: 1,
    f2p_identical: 2,
    all_identical: 2,
    same_tests_run: 2,
    gold_resolved: 2,
    controls_resolved: ['i-0', 'i-2'],
    p2p_missing: 0,
    p2p_extra: 1,
    n2p_missing: 0,
    n2p_extra: 1,
  });
  expect(summaryLine(s)).toBe(
    'msb-published: 3/4 ran (1 not run); f2p identical 2/3; all sets identical 2/3; same suite 2/3; ' +
      'p2p missing 0 extra 1; n2p missing 0 extra 1; gold resolved 2/4; controls resolved 2 (i-0, i-2)',
  );
});

test('markdownTable: identical sets as =, differences as −missing +extra, a row not run with its reason', () => {
  const t = markdownTable([
    record('i-1', {}),
    record('i-2', {
      comparison: compareSets(sets(['G'], ['A', 'B']), sets(['F'], ['A'])),
      tests_run: { missing: ['Z'], extra: [] },
    }),
    record('i-3', {
      error: 'no mirror',
      comparison: null,
      gold_resolved: null,
      empty_resolved: null,
      test_only_resolved: null,
    }),
  ]).split('\n');
  expect(t[2]).toBe('| i-1 | yes | = | = | = | yes | yes | no | no |');
  expect(t[3]).toBe('| i-2 | no (−1 +1) | −0 +1 | = | = | no (−1 +0) | yes | no | no |');
  expect(t[4]).toBe('| i-3 | not run: no mirror | | | | | – | – | – |');
});
