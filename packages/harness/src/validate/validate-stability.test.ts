/** The gold stability check, on the local backend: a stable fixture passes every round; a test that fails once makes it unstable. */
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flakyPythonTests, makeFixture } from '../../testing/fixtures.ts';
import { specFor } from '../envs/specs.ts';
import { healthReport, readGoldRuns } from '../report/health.ts';
import { LocalBackend } from '../sandbox/local-backend.ts';
import { checkStability, unstableReason } from './validate-stability.ts';

const root = mkdtempSync(join(tmpdir(), 'faun-stability-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const fx = makeFixture('python', root);
const t = 'tests/test_calc.py';

const opts = (flake: string) => ({
  backend: new LocalBackend(join(root, 'cache')),
  spec: specFor(fx.instance)!,
  source: fx.dir,
  runId: 'validate',
  timeoutS: 60,
  extraEnv: { FLAKE_DIR: flake },
});

test('gold that passes every round, two at a time, is stable; each run is in the health file and its log kept', async () => {
  const health = join(root, 'stable.jsonl');
  const logs: [number, string][] = [];
  const s = await checkStability(
    fx.instance,
    opts(mkdtempSync(join(root, 'f-'))),
    3,
    2,
    health,
    (i, text) => {
      logs.push([i, text]);
    },
  );
  expect(logs.map(([i]) => i)).toEqual([0, 1, 2, 3, 4, 5]);
  for (const [, text] of logs) expect(text).toMatch(/PASSED tests\/test_calc\.py::test_add/);
  expect(s).toMatchObject({ checks: 3, parallel: 2, stable: true });
  expect(s.runs.map((r) => `${r.round}:${r.outcome}`)).toEqual([
    '1:resolved',
    '1:resolved',
    '2:resolved',
    '2:resolved',
    '3:resolved',
    '3:resolved',
  ]);
  const runs = await readGoldRuns(health);
  expect(runs.length).toBe(6);
  expect(runs.every((r) => r.source === 'validate' && r.contract?.PYTHONHASHSEED === '0')).toBe(true);
  expect(healthReport(runs)).toEqual([]);
}, 180_000);

test('gold that fails in one run is unstable, named with its failing test; the check stops at that round', async () => {
  const inst = {
    ...fx.instance,
    test_patch: fx.patchOf({ [t]: flakyPythonTests(3) }),
    pass_to_pass: [`${t}::test_neg`, `${t}::test_once`],
  };
  const health = join(root, 'unstable.jsonl');
  const logs: string[] = [];
  const s = await checkStability(inst, opts(mkdtempSync(join(root, 'f-'))), 3, 2, health, (_i, text) => {
    logs.push(text);
  });
  expect(s.stable).toBe(false);
  // the failing runs' logs are kept: they name the failing test
  expect(logs.length).toBe(2);
  for (const text of logs) expect(text).toMatch(/FAILED tests\/test_calc\.py::test_once/);
  expect(s.runs.length).toBe(2);
  expect(unstableReason(s)).toMatch(
    /^unstable: gold unresolved in round 1 of 3 \(2 of 2 runs\): tests\/test_calc.py::test_once$/,
  );
  const h = healthReport(await readGoldRuns(health));
  expect(h[0]?.tests).toEqual([{ test: `${t}::test_once`, failures: 2, runs: 2, rate: 1 }]);
}, 180_000);
