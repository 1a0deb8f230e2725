import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markers } from './grading.ts';
import { appliedWith, applyScript, evalScript, runCommand, sh } from './scripts.ts';

let dir = '';
const git = (...args: string[]) => {
  const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return r.stdout.toString();
};
const bash = (script: string) => {
  const p = join(dir, '..', `s-${Math.random()}.sh`);
  writeFileSync(p, script);
  const r = Bun.spawnSync(['bash', p], { cwd: dir });
  return { code: r.exitCode, out: r.stdout.toString() + r.stderr.toString() };
};

beforeAll(() => {
  dir = join(mkdtempSync(join(tmpdir(), 'faun-scripts-')), 'repo');
  Bun.spawnSync(['mkdir', '-p', dir]);
  git('init', '-q');
  writeFileSync(join(dir, 'calc.txt'), 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n');
  git('add', '-A');
  git('commit', '-qm', 'base');
});
afterAll(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

const fix = `diff --git a/calc.txt b/calc.txt
--- a/calc.txt
+++ b/calc.txt
@@ -2,3 +2,3 @@
 two
-three
+THREE
 four
`;
const reversed = fix.replace('-three\n+THREE', '-THREE\n+three');
const fuzzy = fix.replace(' two\n', ' tw0\n');

describe('applyScript', () => {
  const patchPath = () => join(dir, '..', 'p.diff');
  const run = (diff: string) => {
    writeFileSync(patchPath(), diff);
    const r = bash(applyScript(dir, patchPath()));
    const after = readFileSync(join(dir, 'calc.txt'), 'utf8');
    git('reset', '-q', '--hard');
    return { ...r, after };
  };

  test('a clean patch applies with git apply', () => {
    const r = run(fix);
    expect(r.code).toBe(0);
    expect(appliedWith(r.out)).toBe('git apply');
    expect(r.after).toContain('THREE');
  });

  test('a patch with a wrong context line falls through to patch --fuzz', () => {
    const r = run(fuzzy);
    expect(appliedWith(r.out)).toBe('patch --fuzz');
    expect(r.after).toContain('THREE');
  });

  test('a reversed patch is refused, never applied backwards', () => {
    const r = run(reversed);
    expect(r.code).toBe(3);
    expect(appliedWith(r.out)).toBeNull();
    expect(r.after).toContain('three\n');
    expect(r.after).not.toContain('THREE');
  });

  test('a malformed patch fails every strategy and leaves a clean tree', () => {
    const r = run(
      'diff --git a/calc.txt b/calc.txt\n--- a/calc.txt\n+++ b/calc.txt\n@@ -40,2 +40,2 @@\n-nope\n+yes\n',
    );
    expect(r.code).toBe(1);
    expect(r.out).toContain('>>>>> Patch Apply Failed');
    expect(git('status', '--porcelain')).toBe('');
  });
});

describe('evalScript', () => {
  test('restores test files, applies the test patch, frames output and keeps the exit code', () => {
    writeFileSync(join(dir, 'calc.txt'), 'tampered by the model\n');
    const testPatch = fix.replace('-three\n+THREE', '-three\n+3');
    const tp = join(dir, '..', 't.diff');
    writeFileSync(tp, testPatch);
    const script = evalScript({
      workdir: dir,
      nonce: 'abc',
      testPatchPath: tp,
      testPatch,
      testCmd: 'grep -c 3 calc.txt; echo "FOO=$FOO"; exit 5',
      env: { FOO: "it's" },
    });
    const ev = join(dir, '..', 'eval.sh');
    writeFileSync(ev, script);
    const out = join(dir, '..', 'out.txt');
    const r = Bun.spawnSync(['bash', '-c', runCommand(ev, out, 30)]);
    expect(r.exitCode).toBe(5);
    const log = readFileSync(out, 'utf8');
    const { start, end } = markers('abc');
    expect(log).toContain(
      `${start}\n>>>>> Start Test Output\n1\nFOO=it's\n>>>>> End Test Output\n${end}\n>>>>> Test Exit Code: 5`,
    );
    git('reset', '-q', '--hard');
  });

  test('pre-test steps run after the model patch, before the test patch; a failing step is logged, not fatal', () => {
    const testPatch = fix.replace('-three\n+THREE', '-three\n+3');
    const tp = join(dir, '..', 't2.diff');
    writeFileSync(tp, testPatch);
    const script = evalScript({
      workdir: dir,
      nonce: 'n2',
      testPatchPath: tp,
      testPatch,
      testCmd: 'cat built.txt; grep -c 3 calc.txt',
      preTest: ['grep -c 3 calc.txt > built.txt || echo none > built.txt', 'exit 4'],
    });
    const ev = join(dir, '..', 'eval2.sh');
    writeFileSync(ev, script);
    const out = join(dir, '..', 'out2.txt');
    const r = Bun.spawnSync(['bash', '-c', runCommand(ev, out, 30)]);
    expect(r.exitCode).toBe(0);
    const log = readFileSync(out, 'utf8');
    // The step saw the tree before the test patch (no "3" yet); the test after it.
    expect(log).toContain('>>>>> pre-test step failed');
    expect(log).toContain('>>>>> Start Test Output\nnone\n1\n>>>>> End Test Output');
    git('reset', '-q', '--hard');
    git('clean', '-fdq');
  });

  test('runCommand kills a runaway test at the timeout', () => {
    const ev = join(dir, '..', 'loop.sh');
    writeFileSync(ev, 'sleep 30 & while true; do :; done\n');
    const t0 = Date.now();
    const r = Bun.spawnSync(['bash', '-c', runCommand(ev, join(dir, '..', 'loop.txt'), 1)]);
    expect(r.exitCode).toBe(124);
    expect(Date.now() - t0).toBeLessThan(8000);
  });
});

test('sh quotes single quotes', () => {
  expect(Bun.spawnSync(['bash', '-c', `echo ${sh("a'b c")}`]).stdout.toString()).toBe("a'b c\n");
});
