/** runInstance's outcome when the sandbox itself fails around a patch that does not apply. */
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeFixture } from '../../testing/fixtures.ts';
import { specFor } from '../envs/specs.ts';
import { LocalBackend } from '../sandbox/local-backend.ts';
import type { PreparedEnv, Sandbox } from '../sandbox/sandbox.ts';
import { runInstance } from './run-instance.ts';

const root = mkdtempSync(join(tmpdir(), 'faun-run-instance-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const fx = makeFixture('python', root);

/** The local backend, with every sandbox reporting that its container is gone. */
class VanishingBackend extends LocalBackend {
  override async start(env: PreparedEnv): Promise<Sandbox> {
    const s = await super.start(env);
    return {
      workdir: s.workdir,
      scratch: s.scratch,
      imageId: null,
      exec: (cmd, o) => s.exec(cmd, o),
      writeFile: (p, c) => s.writeFile(p, c),
      killTestProcesses: () => s.killTestProcesses(),
      infraProblem: async () => 'container vanished: No such container',
      dispose: () => s.dispose(),
    };
  }
}

const noMatch = 'diff --git a/nope.py b/nope.py\n--- a/nope.py\n+++ b/nope.py\n@@ -1 +1 @@\n-a\n+b\n';

const run = (backend: LocalBackend) =>
  runInstance(
    fx.instance,
    { instance_id: fx.instance.instance_id, model: 'm', patch: noMatch },
    { backend, spec: specFor(fx.instance)!, source: fx.dir, runId: 'r', timeoutS: 30 },
  );

test('a patch that does not apply is apply_failed, kept as the verdict', async () => {
  const r = await run(new LocalBackend(join(root, 'cache')));
  expect(r.result.outcome).toBe('apply_failed');
  expect(r.infra).toBe(false);
});

test('a sandbox that vanished while the patch was applied is an infrastructure error (retried), not apply_failed', async () => {
  const r = await run(new VanishingBackend(join(root, 'cache')));
  expect(r.result.outcome).toBe('infra_error');
  expect(r.result.error).toContain('container vanished');
  expect(r.infra).toBe(true);
});

const conftest = (body: string) =>
  `diff --git a/conftest.py b/conftest.py\n--- a/conftest.py\n+++ b/conftest.py\n@@ -0,0 +1 @@\n+${body}\n`;

test('a patch of nothing but test infrastructure is not run: unresolved, its files recorded as dropped', async () => {
  const r = await runInstance(
    fx.instance,
    { instance_id: fx.instance.instance_id, model: 'm', patch: conftest('import os; os._exit(0)') },
    {
      backend: new LocalBackend(join(root, 'cache')),
      spec: specFor(fx.instance)!,
      source: fx.dir,
      runId: 'r',
      timeoutS: 30,
    },
  );
  expect(r.result).toMatchObject({
    outcome: 'unresolved',
    resolved_status: 'RESOLVED_NO',
    dropped_files: [{ path: 'conftest.py', reason: 'pytest conftest' }],
  });
  expect(r.result.error).toContain('every file of the patch is test infrastructure');
});

test('the gold patch with a conftest: the conftest is dropped (recorded), the rest applied and graded', async () => {
  const patch = conftest('import os; os._exit(0)') + fx.patches.gold;
  const opts = {
    backend: new LocalBackend(join(root, 'cache')),
    spec: specFor(fx.instance)!,
    source: fx.dir,
    runId: 'r',
    timeoutS: 60,
  };
  const r = await runInstance(fx.instance, { instance_id: fx.instance.instance_id, model: 'm', patch }, opts);
  expect(r.result.outcome).toBe('resolved');
  expect(r.result.dropped_files).toEqual([{ path: 'conftest.py', reason: 'pytest conftest' }]);
  expect(r.artifacts['patch.diff']).toBe(fx.patches.gold);
  // `keep`: applied as given — the conftest ends the test process before any test ran
  const kept = await runInstance(
    fx.instance,
    { instance_id: fx.instance.instance_id, model: 'm', patch },
    { ...opts, testInfra: 'keep' },
  );
  expect(kept.result.outcome).not.toBe('resolved');
  expect(kept.result.dropped_files).toBeUndefined();
  expect(kept.artifacts['patch.diff']).toBe(patch);
}, 120_000);
