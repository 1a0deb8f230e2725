import { expect, test } from 'bun:test';
import { compareLists, publishedLists, reportLists } from './swebench-java-logs.ts';

const log = (id: string, f2p: string[], p2p: string[], resolved = false) =>
  [
    `2024-01-01 00:00:00,000 - INFO - Grading answer for ${id}...`,
    `2024-01-01 00:00:00,001 - INFO - report: {'${id}': {'patch_is_None': False, 'patch_exists': True, ` +
      `'resolved': ${resolved ? 'True' : 'False'}, 'tests_status': {'FAIL_TO_PASS': {'success': [${f2p
        .slice(0, 1)
        .map((t) => `'${t}'`)
        .join(', ')}], 'failure': [${f2p
        .slice(1)
        .map((t) => `'${t}'`)
        .join(
          ', ',
        )}], 'skipped': []}, 'PASS_TO_PASS': {'success': [${p2p.map((t) => `'${t}'`).join(', ')}], ` +
      `'failure': []}, 'FAIL_TO_FAIL': {'success': [], 'failure': ['src:x.Ignored']}}}}`,
    `Result for ${id}: resolved: ${resolved ? 'True' : 'False'}`,
  ].join('\n');

test("a run log's report gives its lists, success and failure alike, without the source-set prefix", () => {
  const r = reportLists(log('Acme__lib-7', ['src:a.BTest', 'src:a.ATest'], ['src:a.CTest']));
  expect(r).toEqual({ id: 'acme__lib-7', lists: { f2p: ['a.ATest', 'a.BTest'], p2p: ['a.CTest'] } });
  expect(reportLists('2024 - INFO - Creating container for x\n')).toBeNull();
});

test('runs that list the same tests agree; one listing others is named', () => {
  const p = publishedLists([
    ['run-a', log('acme__lib-7', ['src:a.ATest'], [])],
    ['run-b', log('acme__lib-7', ['src:a.ATest'], [], true)],
    ['run-c', log('acme__lib-7', ['src:a.OtherTest'], [])],
    ['run-d', 'no report here'],
  ]);
  expect(p.get('acme__lib-7')).toEqual({
    lists: { f2p: ['a.ATest'], p2p: [] },
    runs: 2,
    disagreeing: ['run-c'],
  });
  expect(p.size).toBe(1);
});

test("faun's lists against the published: identical, or what is missing and extra", () => {
  const same = compareLists('i', { f2p: ['a.ATest'], p2p: [] }, { f2p: ['a.ATest'], p2p: [] });
  expect([same.f2p_identical, same.p2p_identical]).toEqual([true, true]);
  const other = compareLists(
    'i',
    { f2p: ['a.ATest', 'a.BTest'], p2p: ['a.CTest'] },
    { f2p: ['a.ATest'], p2p: ['a.DTest'] },
  );
  expect(other.f2p_identical).toBe(false);
  expect(other.missing).toEqual({ f2p: ['a.BTest'], p2p: ['a.CTest'] });
  expect(other.extra).toEqual({ f2p: [], p2p: ['a.DTest'] });
});
