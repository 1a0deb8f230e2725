import { expect, test } from 'bun:test';
import type { ExecutionResult } from '@faun/schema';
import { executionResult } from '../../testing/results.ts';
import { instanceReport, runReport } from './report.ts';
import { errorDigest, summaryLine } from './summary.ts';

const result = executionResult;

const report = (results: ExecutionResult[], ids: string[]) =>
  runReport({
    runId: 'r',
    model: 'm',
    instances: ids.map((instance_id) => ({ instance_id, language: 'python' as const })),
    submitted: results.map((r) => r.instance_id),
    emptyPatch: results.filter((r) => r.outcome === 'empty_patch').map((r) => r.instance_id),
    results,
  });

test('summary line: every outcome counted, buckets add up to the denominator', () => {
  const rs = [
    result('a', 'resolved'),
    result('b', 'resolved'),
    result('c', 'unresolved', { resolved_status: 'RESOLVED_PARTIAL' }),
    result('d', 'empty_patch'),
    result('e', 'apply_failed', { applied_with: null }),
    result('f', 'timeout'),
    result('g', 'invalid_log'),
    result('h', 'infra_error', { resolved_status: null, error: 'oom' }),
    result('i', 'tampered', { tampered: ['marker end printed 1 more time(s) by the code under test'] }),
    result('j', 'flaky', { flaky_tests: ['t1'], test_runs: { t1: { passes: 1, runs: 2 } } }),
  ];
  const r = report(rs, [...'abcdefghijkl']);
  const line = summaryLine(r, { reused: 3, reportPath: '/x/report.json' });
  expect(line).toBe(
    '2/12 resolved (16.7%, 95% CI 4.7–44.8%); unresolved 1 (partial 1); flaky 1; tampered 1; empty patch 1; ' +
      'apply failed 1; timeout 1; invalid log 1; errors 1 (infra 1); not run 2; reused 3; report: /x/report.json',
  );
  expect(r).toMatchObject({ tampered_ids: ['i'], flaky_ids: ['j'] });
});

test('summary line of an empty run, without reuse or report path', () => {
  expect(summaryLine(report([], []))).toBe(
    '0/0 resolved (0.0%, 95% CI 0.0–0.0%); unresolved 0 (partial 0); flaky 0; tampered 0; empty patch 0; ' +
      'apply failed 0; timeout 0; invalid log 0; errors 0 (infra 0); not run 0',
  );
});

const clone = 'cannot clone https://github.com/fixtures/fixture-python.git: fatal: unable to access';

test('error digest: all infra errors → nothing evaluated, reasons grouped, --repo-dir suggested', () => {
  const rs = ['x3', 'x1', 'x2'].map((id) => result(id, 'infra_error', { error: `${clone}\nmore` }));
  const d = errorDigest(rs);
  expect(d).toMatchObject({ infra: 3, results: 3, nothingEvaluated: true });
  expect(d.lines).toEqual([
    'nothing was evaluated: all 3 instance(s) ended in an infrastructure error:',
    `  3× ${clone} — x1, x2, x3`,
    '  hint: without network access, pass a local clone of each repository: --repo-dir fixtures/fixture-python=PATH',
  ]);
});

test('error digest: reasons that differ only in a duration (curl\'s "after 0 ms" / "after 1 ms") are one group', () => {
  const msg = (ms: number) => `${clone} 'x': Failed to connect to 127.0.0.1 port 9 after ${ms} ms: refused`;
  const rs = [
    result('p2', 'infra_error', { error: msg(0) }),
    result('p1', 'infra_error', { error: msg(1) }),
    result('p3', 'infra_error', { error: msg(0) }),
    result('q', 'infra_error', { error: 'image build failed after 3 retries' }),
  ];
  expect(errorDigest(rs).lines.slice(1, 3)).toEqual([
    `  3× ${msg(0)} — p1, p2, p3`,
    '  1× image build failed after 3 retries — q',
  ]);
});

test('error digest: some infra errors → missing results named; most frequent reasons first, capped', () => {
  const rs = [
    result('ok', 'resolved'),
    ...['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((id) => result(id, 'infra_error', { error: 'oom: killed' })),
    result('h', 'infra_error', { error: 'engine gone' }),
    result('i', 'infra_error', { error: 'image build failed' }),
    result('j', 'infra_error', { error: null }),
  ];
  const d = errorDigest(rs, 2, 5);
  expect(d.nothingEvaluated).toBe(false);
  expect(d.lines).toEqual([
    '10 of 11 result(s) are missing (infrastructure errors, counted as not resolved); rerun the same command to retry them:',
    '  7× oom: killed — a, b, c, d, e, … (2 more)',
    '  1× engine gone — h',
    '  … 2 other reason(s); see samples.jsonl',
  ]);
  expect(errorDigest([result('a', 'resolved')])).toEqual({
    infra: 0,
    results: 1,
    nothingEvaluated: false,
    lines: [],
  });
});

test('the run report lists the determinism contracts its instances ran under, images aside', () => {
  const c = {
    TZ: 'UTC',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    PYTHONHASHSEED: '0',
    SOURCE_DATE_EPOCH: '315532800',
    network: 'none',
    user: 'faun-test (10001)',
    cpus: 1,
    memory_mb: 2048,
    pids: 512,
    disk_mb: 1024,
  };
  const r = report(
    [
      result('a', 'resolved', { contract: { ...c, image: 'i1', image_digest: 'sha256:1' } }),
      result('b', 'unresolved', { contract: { ...c, image: 'i2', image_digest: 'sha256:2' } }),
      result('c', 'resolved', { contract: { ...c, PYTHONHASHSEED: '7', image: 'i3', image_digest: null } }),
    ],
    ['a', 'b', 'c'],
  );
  expect(r.contracts).toEqual([
    { contract: c, instances: 2 },
    { contract: { ...c, PYTHONHASHSEED: '7' }, instances: 1 },
  ]);
});

test('summary line: instances whose test-infrastructure files were dropped are counted after the buckets', () => {
  const dropped = [{ path: 'conftest.py', reason: 'pytest conftest' }];
  const rs = [
    result('a', 'resolved', { dropped_files: dropped }),
    result('b', 'unresolved', { dropped_files: dropped }),
    result('c', 'unresolved'),
  ];
  const r = report(rs, ['a', 'b', 'c']);
  expect(r.dropped_files_ids).toEqual(['a', 'b']);
  expect(summaryLine(r)).toBe(
    '1/3 resolved (33.3%, 95% CI 6.2–79.2%); unresolved 2 (partial 0); flaky 0; tampered 0; empty patch 0; ' +
      'apply failed 0; timeout 0; invalid log 0; errors 0 (infra 0); not run 0; test infrastructure dropped in 2',
  );
  expect(instanceReport(rs[0]!, false).a).toMatchObject({ dropped_files: dropped });
  expect(instanceReport(rs[2]!, false).c).not.toHaveProperty('dropped_files');
});
