import { expect, test } from 'bun:test';
import { executionResult as result } from '../../testing/results.ts';
import { msbFinalReport, swebenchReportName, swebenchRunReport } from './report-formats.ts';

const input = {
  runId: 'r1',
  model: 'org/model',
  instances: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
  predictions: ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => ({ instance_id: id, empty: id === 'e' })),
  results: [
    result('a', 'resolved'),
    result('b', 'unresolved'),
    result('c', 'invalid_log'),
    result('d', 'timeout'),
    result('e', 'empty_patch'),
    result('f', 'infra_error', { error: 'oom: the container hit its memory limit\nmore' }),
  ],
};

test('SWE-bench run report: empty patches not run, timeouts are errors, incomplete = no prediction', () => {
  expect(swebenchReportName('org/model', 'r1')).toBe('org__model.r1.json');
  const r = swebenchRunReport(input);
  expect(r).toMatchObject({
    total_instances: 8,
    submitted_instances: 7,
    completed_instances: 3,
    resolved_instances: 1,
    unresolved_instances: 2,
    empty_patch_instances: 1,
    error_instances: 3,
    completed_ids: ['a', 'b', 'c'],
    unresolved_ids: ['b', 'c'],
    error_ids: ['d', 'f', 'g'],
    empty_patch_ids: ['e'],
    incomplete_ids: ['h'],
    infra_failure_ids: ['f'],
    failure_reasons: { d: 'tests_timed_out', f: 'oom: the container hit its memory limit' },
    ambiguous_failure_ids: ['d'],
    schema_version: 2,
  });
  expect(Object.keys(r)).toEqual([
    'total_instances',
    'submitted_instances',
    'completed_instances',
    'resolved_instances',
    'unresolved_instances',
    'infra_failure_instances',
    'ambiguous_failure_instances',
    'empty_patch_instances',
    'error_instances',
    'completed_ids',
    'incomplete_ids',
    'empty_patch_ids',
    'submitted_ids',
    'resolved_ids',
    'unresolved_ids',
    'infra_failure_ids',
    'ambiguous_failure_ids',
    'failure_reasons',
    'error_ids',
    'schema_version',
  ]);
});

test('Multi-SWE-bench final report: graded = completed, the rest errors; empty_patch_ids stays empty', () => {
  const r = msbFinalReport(input);
  expect(r).toMatchObject({
    total_instances: 7,
    completed_instances: 4,
    resolved_ids: ['a'],
    unresolved_ids: ['b', 'c', 'e'],
    error_ids: ['d', 'f', 'g'],
    incomplete_ids: ['d', 'f', 'g'],
    empty_patch_ids: [],
  });
});
