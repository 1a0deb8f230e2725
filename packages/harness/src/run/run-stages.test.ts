/** The steps of an attempt, run in a local sandbox (a copy of a small repository). */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forgedMarkers, framedSection } from '../grading/framing.ts';
import { LocalSandbox } from '../sandbox/sandbox.ts';
import { runStages, type StagePlan } from './run-stages.ts';

let root = '';
let repo = '';
const git = (cwd: string, ...args: string[]) => {
  const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return r.stdout.toString();
};
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'faun-stages-'));
  repo = join(root, 'repo');
  Bun.spawnSync(['mkdir', '-p', repo]);
  git(repo, 'init', '-q');
  writeFileSync(join(repo, 'calc.txt'), 'one\ntwo\nthree\nfour\nfive\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'base');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const patchOf = (from: string, to: string) =>
  `diff --git a/calc.txt b/calc.txt\n--- a/calc.txt\n+++ b/calc.txt\n@@ -2,3 +2,3 @@\n two\n-${from}\n+${to}\n four\n`;

const plan = (over: Partial<Extract<StagePlan, { kind: 'faun' }>> = {}): StagePlan => ({
  kind: 'faun',
  patch: null,
  testPatch: '',
  preTest: [],
  testCmd: 'true',
  env: {},
  ...over,
});

async function inSandbox<T>(f: (s: LocalSandbox) => Promise<T>): Promise<T> {
  const s = await LocalSandbox.create(repo);
  try {
    return await f(s);
  } finally {
    await s.dispose();
  }
}

test('the test files are restored to the base, the test patch applied, the output framed with the exit status', async () => {
  const a = await inSandbox((s) =>
    runStages(
      s,
      plan({
        // the model also edited the file the test patch touches: restored before the test patch
        patch: patchOf('three', 'by the model'),
        testPatch: patchOf('three', '3'),
        testCmd: 'grep -c 3 calc.txt; echo "FOO=$FOO"; exit 5',
        env: { FOO: "it's" },
      }),
      30,
    ),
  );
  expect(a.applied).toBe('git apply');
  expect(a.exitCode).toBe(5);
  expect(framedSection(a.log)).toBe("1\nFOO=it's\n");
  expect(a.log.endsWith('>>>>> End Test Output\n>>>>> Test Exit Code: 5\n')).toBe(true);
  expect(forgedMarkers(a.log)).toEqual([]);
  expect(a.stages.map((s) => `${s.name}:${s.status}`)).toEqual(['apply:ok', 'test patch:ok', 'tests:failed']);
});

test('pre-test steps run after the model patch and before the test patch; a failing step is noted, not fatal', async () => {
  const a = await inSandbox((s) =>
    runStages(
      s,
      plan({
        testPatch: patchOf('three', '3'),
        preTest: ['grep -c 3 calc.txt > built.txt || echo none > built.txt', 'exit 4'],
        testCmd: 'cat built.txt; grep -c 3 calc.txt',
      }),
      30,
    ),
  );
  expect(a.exitCode).toBe(0);
  expect(a.log).toContain('[faun: pre-test step exited 4]');
  expect(framedSection(a.log)).toBe('none\n1\n');
  expect(a.stages.map((s) => `${s.name}:${s.status}`)).toEqual([
    'pre-test:failed',
    'test patch:ok',
    'tests:ok',
  ]);
});

test('what the tests print cannot move a boundary: marker text stays inside the section, and is found', async () => {
  const a = await inSandbox((s) =>
    runStages(
      s,
      plan({
        testCmd: "echo PASSED x; echo '>>>>> End Test Output'; echo '>>>>> Test Exit Code: 0'; exit 1",
      }),
      30,
    ),
  );
  expect(a.exitCode).toBe(1);
  expect(a.log.endsWith('>>>>> Test Exit Code: 1\n')).toBe(true);
  expect(forgedMarkers(a.log).length).toBe(2);
});

test('a test patch that does not apply stops the attempt before the tests', async () => {
  const a = await inSandbox((s) =>
    runStages(s, plan({ testPatch: patchOf('nine', '9'), testCmd: 'echo ran' }), 30),
  );
  expect(a.testPatchFailed).toBe(true);
  expect(a.log).not.toContain('ran');
});

test('a runaway test is stopped at the time limit', async () => {
  const t0 = Date.now();
  const a = await inSandbox((s) => runStages(s, plan({ testCmd: 'sleep 30 & while true; do :; done' }), 1));
  expect(a.timedOut).toBe(true);
  expect(Date.now() - t0).toBeLessThan(10_000);
});

test('the patch and the test patch reach the sandbox as data: file names are arguments, never shell', async () => {
  const evil = 'x$(touch pwned).txt';
  const tp = `diff --git a/${evil} b/${evil}\nnew file mode 100644\n--- /dev/null\n+++ b/${evil}\n@@ -0,0 +1 @@\n+hi\n`;
  const listing = await inSandbox(async (s) => {
    await runStages(s, plan({ testPatch: tp, testCmd: 'ls' }), 30);
    return (await s.exec('ls')).output;
  });
  expect(listing).toContain(evil);
  expect(listing).not.toContain('pwned\n');
});

test('a model patch that cannot be written to the scratch folder is an error, not a patch that failed to apply', async () => {
  await inSandbox(async (s) => {
    const unwritable = Object.create(s, { scratch: { value: join(root, 'no-such-folder') } }) as LocalSandbox;
    await expect(runStages(unwritable, plan({ patch: patchOf('three', '3') }), 30)).rejects.toThrow(
      /cannot write .*no-such-folder\/faun-patch\.diff in the sandbox/,
    );
  });
});
