import { expect, test } from 'bun:test';
import { executionResult } from '../../testing/results.ts';
import { instanceReport, runReport } from './report.ts';

const result = executionResult;

test('runReport counts, id lists, per-language breakdown', () => {
  const r = runReport({
    runId: 'r',
    model: 'm',
    instances: [
      { instance_id: 'a', language: 'python' },
      { instance_id: 'b', language: 'python' },
      { instance_id: 'c', language: 'go' },
      { instance_id: 'd', language: 'go' },
      { instance_id: 'e', language: 'java' },
      { instance_id: 'f', language: 'java' },
    ],
    submitted: ['a', 'b', 'c', 'd', 'e'],
    emptyPatch: ['d'],
    results: [
      result('a', 'resolved'),
      result('b', 'unresolved', { resolved_status: 'RESOLVED_PARTIAL' }),
      result('c', 'apply_failed', { applied_with: null }),
      result('d', 'infra_error'),
    ],
  });
  expect(r).toMatchObject({
    schema_version: 2,
    total_instances: 6,
    submitted_instances: 5,
    completed_instances: 2,
    resolved_instances: 1,
    unresolved_instances: 1,
    // c: apply failure; e: a prediction without a result. d's patch is empty: not run, in no other list.
    error_instances: 2,
    error_ids: ['c', 'e'],
    infra_failure_ids: [],
    incomplete_ids: ['f'], // no prediction
    partial_ids: ['b'],
    empty_patch_ids: ['d'],
    resolved_rate: 1 / 6,
  });
  expect(r.per_language.python).toEqual({ total: 2, resolved: 1, resolved_rate: 0.5 });
  expect(r.per_language.go?.resolved).toBe(0);
});

test('instanceReport has SWE-bench fields', () => {
  const rep = instanceReport(result('a', 'infra_error', { error: 'oom' }), false);
  expect(rep.a).toMatchObject({
    patch_exists: true,
    resolved: false,
    infra_failure: true,
    infra_failure_reason: 'oom',
  });
});
