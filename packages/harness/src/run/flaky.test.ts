import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionResult } from '@faun/schema';
import { flakyPythonTests, makeFixture } from '../../testing/fixtures.ts';
import { specFor } from '../envs/specs.ts';
import { mergedOutcome, mergeRuns, wantsRerun } from '../grading/flaky.ts';
import { resolvedStatus } from '../grading/grading.ts';
import { LocalBackend } from '../sandbox/local-backend.ts';
import { runInstance } from './run-instance.ts';

type S = ExecutionResult['tests_status'];
const none = { success: [], failure: [] };
const run = (f2pOk: string[], f2pBad: string[], p2pOk: string[], p2pBad: string[] = []): S => ({
  FAIL_TO_PASS: { success: f2pOk, failure: f2pBad },
  PASS_TO_PASS: { success: p2pOk, failure: p2pBad },
  FAIL_TO_FAIL: none,
  PASS_TO_FAIL: none,
});
const full = (s: S) => resolvedStatus(s) === 'RESOLVED_FULL';

describe('mergeRuns (pure)', () => {
  test('failed, then passed: flaky; the reference rule keeps it failed, the passed policy resolves', () => {
    const runs = [run(['a'], ['b'], ['k']), run(['a', 'b'], [], ['k'])];
    const m = mergeRuns(runs);
    expect(m.flaky).toEqual(['b']);
    expect(m.alwaysFailed).toEqual([]);
    expect(m.test_runs).toEqual({
      a: { passes: 2, runs: 2 },
      b: { passes: 1, runs: 2 },
      k: { passes: 2, runs: 2 },
    });
    expect(m.tests_status.FAIL_TO_PASS).toEqual({ success: ['a'], failure: ['b'] });
    expect(mergedOutcome(m, full, 'failed')).toBe('flaky');
    expect(mergedOutcome(mergeRuns(runs, 'passed'), full, 'passed')).toBe('resolved');
  });

  test('runs are matched by stable name: a test spelt with a trailing space in one run is the same test', () => {
    const m = mergeRuns([run([], ['t - : / '], ['k']), run(['t - : /'], [], ['k (3 ms)'])]);
    expect(m.test_runs).toEqual({ 't - : / ': { passes: 1, runs: 2 }, k: { passes: 2, runs: 2 } });
    expect(m.flaky).toEqual(['t - : / ']);
    expect(m.alwaysFailed).toEqual([]);
    expect(wantsRerun([run([], ['t '], ['k']), run(['t'], [], ['k'])], 2)).toBe(false);
  });

  test('a test that passed first and failed on a re-run has failed too (a test that ever fails is failed)', () => {
    const m = mergeRuns([run([], ['b'], ['k']), run(['b'], [], [], ['k'])]);
    expect(m.flaky).toEqual(['b', 'k']);
    expect(m.tests_status.PASS_TO_PASS.failure).toEqual(['k']);
  });

  test('a test that fails every time keeps the instance unresolved, flaky tests beside it', () => {
    const m = mergeRuns([run([], ['a', 'b'], ['k']), run(['b'], ['a'], ['k'])]);
    expect(m.alwaysFailed).toEqual(['a']);
    expect(mergedOutcome(m, full, 'failed')).toBe('unresolved');
    expect(
      mergedOutcome(
        mergeRuns([run([], ['a', 'b'], ['k']), run(['b'], ['a'], ['k'])], 'passed'),
        full,
        'passed',
      ),
    ).toBe('unresolved');
  });

  test('re-run while a failing test has not passed yet, at most N times', () => {
    const first = run(['a'], ['b'], ['k']);
    expect(wantsRerun([first], 2)).toBe(true);
    expect(wantsRerun([first, run(['a'], ['b'], ['k'])], 2)).toBe(true);
    expect(wantsRerun([first, run(['a'], ['b'], ['k']), run(['a'], ['b'], ['k'])], 2)).toBe(false);
    expect(wantsRerun([first, run(['a', 'b'], [], ['k'])], 2)).toBe(false);
    expect(wantsRerun([run(['a', 'b'], [], ['k'])], 2)).toBe(false);
    expect(wantsRerun([first], 0)).toBe(false);
  });
});

describe('re-runs in fresh sandboxes (local backend)', () => {
  const root = mkdtempSync(join(tmpdir(), 'faun-flaky-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const fx = makeFixture('python', root);
  const t = 'tests/test_calc.py';
  const inst = {
    ...fx.instance,
    test_patch: fx.patchOf({ [t]: flakyPythonTests(2) }),
    pass_to_pass: [`${t}::test_neg`, `${t}::test_once`],
  };
  const go = async (policy: 'failed' | 'passed', reruns = 2) => {
    const flake = mkdtempSync(join(root, 'flake-'));
    return (
      await runInstance(
        inst,
        { instance_id: inst.instance_id, model: 'm', patch: fx.patches.gold },
        {
          backend: new LocalBackend(join(root, 'cache')),
          spec: specFor(inst)!,
          source: fx.dir,
          runId: 'r',
          timeoutS: 60,
          extraEnv: { FLAKE_DIR: flake },
          reruns,
          flakyPolicy: policy,
        },
      )
    ).result;
  };

  test('a test that fails once and passes on the re-run: flaky, never resolved, with its passes/runs', async () => {
    const r = await go('failed');
    expect(r.outcome).toBe('flaky');
    expect(r.flaky_tests).toEqual([`${t}::test_once`]);
    expect(r.test_runs?.[`${t}::test_once`]).toEqual({ passes: 1, runs: 2 });
    expect(r.test_runs?.[`${t}::test_add`]).toEqual({ passes: 2, runs: 2 });
    expect(r.stages?.map((s) => s.name)).toEqual(['build', 'apply', 'test patch', 'tests', 'rerun-1']);
  }, 120_000);

  test('--flaky-policy passed: resolved, the flaky test named', async () => {
    const r = await go('passed');
    expect(r.outcome).toBe('resolved');
    expect(r.flaky_tests).toEqual([`${t}::test_once`]);
  }, 120_000);

  test('no re-runs: the first failure stands', async () => {
    const r = await go('failed', 0);
    expect(r.outcome).toBe('unresolved');
    expect(r.test_runs).toBeUndefined();
  }, 120_000);
});
