import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeFixture } from '../../testing/fixtures.ts';
import { perTestCommand, REPO_SPECS, specFor } from '../envs/specs.ts';
import { runInstance } from '../run/run-instance.ts';
import { testInstance } from '../run/test-instance.ts';
import { LocalBackend } from '../sandbox/local-backend.ts';
import { verifyRun } from '../verify.ts';
import { trustedPlan, untrustedTestCmd } from './trust-rows.ts';

const root = mkdtempSync(join(tmpdir(), 'faun-trust-rows-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const fx = makeFixture('python', root);

test("a row's own test_cmd is untrusted unless it is the command faun's spec gives the row", () => {
  const java = REPO_SPECS.find((s) => s.perTestCmd)!;
  const inst = testInstance({
    repo: java.name,
    language: 'java',
    fail_to_pass: ['a.FTest'],
    pass_to_pass: ['a.PTest'],
  });
  expect(untrustedTestCmd(inst, java)).toBeNull();
  const own = perTestCommand(java, ['a.FTest', 'a.PTest'])!;
  expect(untrustedTestCmd({ ...inst, test_cmd: own }, java)).toBeNull();
  expect(untrustedTestCmd({ ...inst, test_cmd: `${own}; echo PASSED` }, java)).toContain('--trust-rows');
  expect(untrustedTestCmd({ ...fx.instance, test_cmd: 'true' }, specFor(fx.instance)!)).toContain(
    '--trust-rows',
  );
});

test('a published plan running the row’s eval_script is used only for trusted rows', () => {
  const swe = { image: 'swebench/x', workdir: '/testbed', script: '#!/bin/bash\n', readsExitCode: false };
  const msb = { image: 'mswebench/x', workdir: '/home', script: null, readsExitCode: true };
  expect(trustedPlan(swe, false)).toBeNull();
  expect(trustedPlan(swe, true)).toBe(swe);
  expect(trustedPlan(msb, false)).toBe(msb);
  expect(trustedPlan(null, true)).toBeNull();
});

test('untrusted: a row whose test_cmd prints passes is bad input, nothing runs; trusted: it runs', async () => {
  const inst = { ...fx.instance, test_cmd: 'echo forged' };
  const pred = { instance_id: inst.instance_id, model: 'm', patch: fx.patches.half };
  const opts = {
    backend: new LocalBackend(join(root, 'cache')),
    spec: specFor(inst)!,
    source: fx.dir,
    runId: 'r',
    timeoutS: 60,
  };
  const r = await runInstance(inst, pred, opts);
  expect(r.result).toMatchObject({ outcome: 'bad_input', resolved_status: null });
  expect(r.result.error).toContain('--trust-rows');
  const trusted = await runInstance(inst, pred, { ...opts, trustRows: true });
  expect(trusted.result.outcome).not.toBe('bad_input');
  expect(trusted.artifacts['test_output.txt']).toContain('forged');
}, 60_000);

test("with --images pull, an untrusted SWE-bench row's eval_script is not run: faun builds the environment", async () => {
  const inst = { ...fx.instance, eval_script: '#!/bin/bash\necho forged\n' };
  const run = (trustRows: boolean) =>
    verifyRun({
      instances: [inst],
      predictions: [{ instance_id: inst.instance_id, model: 'gold', patch: fx.patches.gold }],
      runId: `t-${trustRows}`,
      dir: join(root, `run-${trustRows}`),
      backend: new LocalBackend(join(root, 'cache')),
      repoDirs: { [fx.repo]: fx.dir },
      images: 'pull',
      trustRows,
    });
  expect((await run(false)).results[0]?.outcome).toBe('resolved');
  // trusted, the row's script would run in its published image (which the local backend cannot run)
  const t = (await run(true)).results[0];
  expect(t?.outcome).toBe('bad_input');
  expect(t?.error).toContain('cannot run published images');
}, 60_000);
