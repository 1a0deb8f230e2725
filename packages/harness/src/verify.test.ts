/** The run logic end to end on the local-process backend (no containers): Python fixture, host pytest. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '@faun/kit';
import { adversarialPatches, type Fixture, tempPythonFixture } from '../testing/fixtures.ts';
import { snapshotRepo } from './envs/repo.ts';
import { instanceDirName } from './files/run-files.ts';
import { regradeRun } from './regrade.ts';
import { identityOf } from './run-identity.ts';
import { LocalBackend } from './sandbox/local-backend.ts';
import { verifyRun } from './verify.ts';

const hasPytest = Bun.spawnSync(['python3', '-m', 'pytest', '--version']).exitCode === 0;
let root = '';
let fx: Fixture;

beforeAll(() => {
  ({ root, fx } = tempPythonFixture('faun-verify-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('snapshot: the tree at base_commit, one commit, no tags, no remotes, no future', async () => {
  const dest = join(root, 'snap');
  await snapshotRepo(fx.dir, fx.instance.base_commit, dest);
  const git = (...a: string[]) =>
    Bun.spawnSync(['git', ...a], { cwd: dest })
      .stdout.toString()
      .trim();
  expect(git('rev-list', '--all', '--count')).toBe('1');
  expect(git('tag')).toBe('');
  expect(git('remote')).toBe('');
  expect(existsSync(join(dest, 'FUTURE.md'))).toBe(false);
  expect(readFileSync(join(dest, 'calc.py'), 'utf8')).toContain('a - b');
  const original = Bun.spawnSync(['git', 'rev-parse', `${fx.instance.base_commit}^{tree}`], { cwd: fx.dir });
  expect(git('rev-parse', 'HEAD^{tree}')).toBe(original.stdout.toString().trim());
});

/** The first run's verdicts for the local-backend cases (gold, empty, half, adversarial). */
function expectVerdicts(first: Awaited<ReturnType<typeof verifyRun>>): void {
  const by = Object.fromEntries(first.results.map((r) => [r.instance_id.slice(3), r]));
  expect(by.gold).toMatchObject({
    outcome: 'resolved',
    resolved_status: 'RESOLVED_FULL',
    applied_with: 'git apply',
  });
  expect(by.empty).toMatchObject({ outcome: 'empty_patch', resolved_status: 'RESOLVED_NO' });
  expect(by.half).toMatchObject({ outcome: 'unresolved', resolved_status: 'RESOLVED_PARTIAL' });
  expect(by.half?.tests_status.FAIL_TO_PASS).toEqual({
    success: ['tests/test_calc.py::test_add'],
    failure: ['tests/test_calc.py::test_mul'],
  });
  expect(by.malformed?.outcome).toBe('apply_failed');
  expect(by.reversed).toMatchObject({
    outcome: 'apply_failed',
    error: 'the patch applies only in reverse',
  });
  expect(by.escape?.outcome).toBe('apply_failed');
  expect(by.escape?.error).toContain('../calc.py');
  // a conftest.py that prints passing results: test infrastructure, dropped before the run (nothing left)
  expect(by.fake_passed).toMatchObject({
    outcome: 'unresolved',
    resolved_status: 'RESOLVED_NO',
    dropped_files: [{ path: 'conftest.py', reason: 'pytest conftest' }],
  });
  expect(by.infinite_loop?.outcome).toBe('timeout');
  expect(by.infinite_loop!.duration_s).toBeLessThan(20);
  expect(first.report).toMatchObject({
    resolved_ids: ['py-gold'],
    total_instances: 8,
    partial_ids: ['py-half'],
  });
}

describe.if(hasPytest)('verifyRun (local backend)', () => {
  test('gold, empty, half, adversarial patches; resume; regrade', async () => {
    const adv = adversarialPatches(fx);
    const cases: Record<string, string> = {
      gold: fx.patches.gold,
      empty: '',
      half: fx.patches.half,
      malformed: adv.malformed!,
      reversed: adv.reversed!,
      escape: adv.escape!,
      fake_passed: adv.fake_passed!,
      infinite_loop: adv.infinite_loop!,
    };
    const instances = Object.keys(cases).map((k) => ({ ...fx.instance, instance_id: `py-${k}` }));
    const predictions = Object.entries(cases).map(([k, patch]) => ({
      instance_id: `py-${k}`,
      model: 'm',
      patch,
    }));
    const dir = join(root, 'run');
    const opts = {
      instances,
      predictions,
      runId: 'r1',
      dir,
      backend: new LocalBackend(join(root, 'cache')),
      workers: 2,
      timeoutS: 8,
      repoDirs: { [fx.repo]: fx.dir },
    };
    const first = await verifyRun(opts);
    expectVerdicts(first);

    const inst = join(dir, 'instances', instanceDirName('py-gold'));
    for (const f of ['patch.diff', 'eval.sh', 'test_output.txt', 'report.json', 'result.json'])
      expect(existsSync(join(inst, f))).toBe(true);

    const again = await verifyRun(opts);
    expect(again.reused).toBe(8);
    expect(again.report).toEqual(first.report);

    // Other predictions under the same run id: refused (exit 2), the stored run stays as it was.
    const otherPreds = predictions.map((p) =>
      p.instance_id === 'py-empty' ? { ...p, patch: fx.patches.gold } : p,
    );
    const refused = await verifyRun({ ...opts, predictions: otherPreds }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UsageError);
    expect((refused as UsageError).exitCode).toBe(2);
    expect((refused as Error).message).toMatch(
      /^run r1 was made with predictions predictions \(model m, sha256 [0-9a-f]{12}…\), not .*; use another --run-id, or --overwrite to replace it$/,
    );
    expect((await verifyRun(opts)).reused).toBe(8);
    // Other instances under the same run id: refused too.
    const otherInst = instances.map((i) => ({ ...i, fail_to_pass: [...i.fail_to_pass].reverse() }));
    await expect(verifyRun({ ...opts, instances: otherInst })).rejects.toThrow(/was made with instances/);

    // --overwrite: the old results are removed first, everything runs again.
    writeFileSync(join(dir, 'instances', 'stale-marker'), 'x');
    const changed = await verifyRun({ ...opts, predictions: otherPreds, overwrite: true });
    expect(changed.reused).toBe(0);
    expect(existsSync(join(dir, 'instances', 'stale-marker'))).toBe(false);
    expect(changed.report.resolved_ids).toEqual(['py-empty', 'py-gold']);
    const header = JSON.parse(readFileSync(join(dir, 'header.json'), 'utf8'));
    expect(header.options.identity.predictions_sha256).toBe(
      identityOf(instances, otherPreds).predictions_sha256,
    );
    // …and the replaced run resumes with its own predictions.
    expect((await verifyRun({ ...opts, predictions: otherPreds })).reused).toBe(8);

    const regraded = await regradeRun(dir, 'r1');
    expect(regraded.changed).toEqual([]);
    expect(regraded.report.resolved_ids).toEqual(['py-empty', 'py-gold']);
  }, 60_000);
});

describe.if(hasPytest)('verifyRun --run-empty (local backend)', () => {
  test('--run-empty: the empty-patch control runs its tests and can fail; a stored unrun result is not reused', async () => {
    const adv = adversarialPatches(fx);
    const cases: Record<string, string> = { empty: '', fake_passed: adv.fake_passed! };
    // a broken row: its FAIL_TO_PASS tests already pass at the base, so its empty control must resolve
    const broken = { ...fx.instance, fail_to_pass: fx.instance.pass_to_pass, pass_to_pass: [] };
    const instances = [
      ...Object.keys(cases).map((k) => ({ ...fx.instance, instance_id: `py-${k}` })),
      { ...broken, instance_id: 'py-broken' },
    ];
    const predictions = [...Object.entries(cases), ['broken', '']].map(([k, patch]) => ({
      instance_id: `py-${k}`,
      model: 'm',
      patch: patch ?? '',
    }));
    const opts = {
      instances,
      predictions,
      runId: 'r-empty',
      dir: join(root, 'run-empty'),
      backend: new LocalBackend(join(root, 'cache')),
      workers: 2,
      timeoutS: 8,
      repoDirs: { [fx.repo]: fx.dir },
    };
    const unrun = await verifyRun(opts);
    expect(unrun.results.map((r) => r.outcome).sort()).toEqual(['empty_patch', 'empty_patch', 'unresolved']);
    const ran = await verifyRun({ ...opts, runEmpty: true });
    expect(ran.reused).toBe(0);
    expect(ran.report.resolved_ids).toEqual(['py-broken']);
    for (const r of ran.results.filter((x) => x.instance_id !== 'py-broken')) {
      expect(r).toMatchObject({ outcome: 'unresolved', resolved_status: 'RESOLVED_NO' });
      // the tests ran on the base with the test patch: the FAIL_TO_PASS tests were seen failing
      expect(r.tests_status.FAIL_TO_PASS.failure.length).toBeGreaterThan(0);
    }
    expect((await verifyRun({ ...opts, runEmpty: true })).reused).toBe(3);
  }, 60_000);
});
