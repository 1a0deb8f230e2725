import { expect, test } from 'bun:test';
import { isTestPath, rowOf, splitDiff, splitPatch } from './rows.ts';

const file = (path: string, body = '-a\n+b\n') =>
  `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n${body}`;

test('isTestPath: test directories and *.test.* / *.spec.* names, not look-alikes', () => {
  for (const p of [
    'src/test/java/com/x/FooTest.java',
    'test/plugin/duration.test.js',
    'tests/a.py',
    'src/__tests__/string.test.ts',
    'deno/lib/__tests__/x.ts',
    'lib/foo.spec.ts',
    'pkg/x.test.tsx',
  ])
    expect(isTestPath(p)).toBe(true);
  for (const p of [
    'src/plugin/duration/index.js',
    'src/testing.ts',
    'contest/a.js',
    'src/main/java/Test.java',
  ])
    expect(isTestPath(p)).toBe(false);
});

test('splitDiff / splitPatch: per-file chunks, fix and tests apart, nothing lost', () => {
  const diff = file('src/a.js') + file('test/a.test.js') + file('types/index.d.ts');
  expect(splitDiff(diff).map((c) => c.path)).toEqual(['src/a.js', 'test/a.test.js', 'types/index.d.ts']);
  const { patch, test_patch } = splitPatch(diff);
  expect(patch).toBe(file('src/a.js') + file('types/index.d.ts'));
  expect(test_patch).toBe(file('test/a.test.js'));
});

test('splitDiff: a new file takes its path from the +++ side, a deleted one from the diff header', () => {
  const added =
    'diff --git a/test/n.test.js b/test/n.test.js\nnew file mode 100644\n--- /dev/null\n+++ b/test/n.test.js\n@@ -0,0 +1 @@\n+x\n';
  const deleted =
    'diff --git a/src/old.js b/src/old.js\ndeleted file mode 100644\n--- a/src/old.js\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n';
  expect(splitDiff(added + deleted).map((c) => c.path)).toEqual(['test/n.test.js', 'src/old.js']);
});

test('rowOf: SWE-bench-shaped row with the instance id, base commit and PR-picked version', () => {
  const row = rowOf(
    { language: 'java', repo: 'FasterXML/jackson-core', pr: 973, fix_commit: 'f'.repeat(40) },
    'b'.repeat(40),
    file('src/main/java/A.java') + file('src/test/java/ATest.java'),
  );
  expect(row).toMatchObject({
    instance_id: 'FasterXML__jackson-core-973',
    repo: 'FasterXML/jackson-core',
    language: 'java',
    base_commit: 'b'.repeat(40),
    version: '2.14',
    FAIL_TO_PASS: [],
  });
  expect(row.patch).toBe(file('src/main/java/A.java'));
  expect(row.test_patch).toBe(file('src/test/java/ATest.java'));
});
