import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  appliedWith,
  applyScript,
  evalScript,
  PREPARE_TEST_PATCH,
  prepareTestPatchArgs,
  sh,
} from './scripts.ts';

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

test('evalScript records the steps in the order they run, the test patch as a here-document', () => {
  const script = evalScript({
    workdir: '/testbed',
    testPatch: fix,
    testCmd: 'pytest t.py',
    env: { FOO: "it's" },
    preTest: ['make'],
  });
  const at = (s: string) => script.indexOf(s);
  expect(at("export FOO='it'\\''s'")).toBeGreaterThan(0);
  expect(at('( make )')).toBeLessThan(at("set -- 'calc.txt'"));
  expect(at("set -- 'calc.txt'")).toBeLessThan(at('git apply --whitespace=nowarn - <<'));
  expect(at('git apply --whitespace=nowarn - <<')).toBeLessThan(at('>>>>> Start Test Output'));
  expect(script).toContain(fix.trimEnd());
  expect(Bun.spawnSync(['bash', '-n', '-c', script]).exitCode).toBe(0);
});

test('sh quotes single quotes', () => {
  expect(Bun.spawnSync(['bash', '-c', `echo ${sh("a'b c")}`]).stdout.toString()).toBe("a'b c\n");
});

describe('PREPARE_TEST_PATCH', () => {
  const testPatch = `${fix}diff --git a/new test.txt b/new test.txt
new file mode 100644
--- /dev/null
+++ b/new test.txt
@@ -0,0 +1 @@
+from the test patch
`;
  const run = (existing: string[], created: string[], patch: string) => {
    const r = Bun.spawnSync(
      ['bash', '-c', PREPARE_TEST_PATCH, 'bash', ...prepareTestPatchArgs(existing, created)],
      { cwd: dir, stdin: new TextEncoder().encode(patch) },
    );
    return { code: r.exitCode, out: r.stdout.toString() + r.stderr.toString() };
  };
  const cleanUp = () => {
    git('reset', '-q', '--hard');
    rmSync(join(dir, 'new test.txt'), { force: true });
  };

  test('restores the existing files, removes the created ones, then applies the patch from standard input', () => {
    // the model patch edited the test file and wrote the one the test patch creates
    writeFileSync(join(dir, 'calc.txt'), 'edited by the model\n');
    writeFileSync(join(dir, 'new test.txt'), 'written by the model\n');
    const r = run(['calc.txt'], ['new test.txt'], testPatch);
    expect(r).toEqual({ code: 0, out: '' });
    expect(readFileSync(join(dir, 'calc.txt'), 'utf8')).toBe('one\ntwo\nTHREE\nfour\nfive\nsix\nseven\n');
    expect(readFileSync(join(dir, 'new test.txt'), 'utf8')).toBe('from the test patch\n');
    cleanUp();
  });

  test('without files to restore or remove it only applies; a patch that does not apply fails it', () => {
    expect(run([], [], fix).code).toBe(0);
    expect(readFileSync(join(dir, 'calc.txt'), 'utf8')).toContain('THREE');
    cleanUp();
    writeFileSync(join(dir, 'new test.txt'), 'in the way\n');
    // not restored: the patch meets an unexpected file
    const r = run([], [], testPatch);
    expect(r.code).not.toBe(0);
    expect(r.out).toContain('new test.txt');
    cleanUp();
  });
});
