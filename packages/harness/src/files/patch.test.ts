import { describe, expect, test } from 'bun:test';
import { isEmptyPatch, patchFiles, testPatchTargets, unsafePaths } from './patch.ts';

const edit = `diff --git a/src/calc.py b/src/calc.py
index 1111111..2222222 100644
--- a/src/calc.py
+++ b/src/calc.py
@@ -1 +1 @@
-x = 1
+x = 2
`;
const create = `diff --git a/tests/test_new.py b/tests/test_new.py
new file mode 100644
--- /dev/null
+++ b/tests/test_new.py
@@ -0,0 +1 @@
+def test_new(): pass
`;

describe('patchFiles', () => {
  test('edits, creations, deletions, renames, plain unified diffs', () => {
    const rename =
      'diff --git a/old.txt b/new.txt\nsimilarity index 100%\nrename from old.txt\nrename to new.txt\n';
    const plain = '--- a/README\n+++ b/README\n@@ -1 +1 @@\n-a\n+b\n';
    expect(patchFiles(plain + edit + create + rename)).toEqual([
      { from: 'README', to: 'README' },
      { from: 'src/calc.py', to: 'src/calc.py' },
      { from: null, to: 'tests/test_new.py' },
      { from: 'old.txt', to: 'new.txt' },
    ]);
  });
});

describe('unsafePaths', () => {
  test('accepts in-repo paths', () => {
    expect(unsafePaths(edit + create)).toEqual([]);
  });
  test('rejects ../, absolute and .git paths', () => {
    const outside = edit.replaceAll('src/calc.py', '../outside.py');
    expect(unsafePaths(outside)).toContain('../outside.py');
    const abs = '--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n';
    expect(unsafePaths(abs)).toEqual(['/etc/passwd']);
    expect(unsafePaths(edit.replaceAll('src/calc.py', '.git/hooks/pre-commit'))).toEqual([
      '.git/hooks/pre-commit',
    ]);
    expect(unsafePaths(edit.replaceAll('src/calc.py', 'src/../../x'))).toContain('src/../../x');
  });
});

test('isEmptyPatch', () => {
  expect(isEmptyPatch('')).toBe(true);
  expect(isEmptyPatch('  \n')).toBe(true);
  expect(isEmptyPatch('diff --git a/x b/x\n')).toBe(true);
  expect(isEmptyPatch(edit)).toBe(false);
});

test('testPatchTargets separates files to restore from files to create', () => {
  expect(testPatchTargets(edit + create)).toEqual({
    existing: ['src/calc.py'],
    created: ['tests/test_new.py'],
  });
});

describe('unsafePaths: copies, renames and links', () => {
  test('copy to / rename to outside the tree', () => {
    const copy =
      'diff --git a/a.txt b/a.txt\nsimilarity index 100%\ncopy from a.txt\ncopy to ../../etc/cron.d/x\n';
    expect(unsafePaths(copy)).toContain('../../etc/cron.d/x');
    const rename =
      'diff --git a/a.txt b/a.txt\nsimilarity index 100%\nrename from a.txt\nrename to ../x.txt\n';
    expect(unsafePaths(rename)).toContain('../x.txt');
    const inside = 'diff --git a/a.txt b/b.txt\nsimilarity index 100%\ncopy from a.txt\ncopy to b.txt\n';
    expect(unsafePaths(inside)).toEqual([]);
  });
  test('a symlink, then a write through it', () => {
    const link =
      'diff --git a/lib b/lib\nnew file mode 120000\nindex 0000000..1111111\n--- /dev/null\n+++ b/lib\n@@ -0,0 +1 @@\n+/etc\n\\ No newline at end of file\n';
    const through =
      'diff --git a/lib/passwd b/lib/passwd\nnew file mode 100644\n--- /dev/null\n+++ b/lib/passwd\n@@ -0,0 +1 @@\n+root::0:0::/:/bin/sh\n';
    const bad = unsafePaths(link + through);
    expect(bad).toContain('lib -> /etc');
    expect(bad).toContain('lib/passwd');
    const relOut = link.replace('+/etc', '+../../outside');
    expect(unsafePaths(relOut)).toEqual(['lib -> ../../outside']);
    const inTree = link.replace('+/etc', '+src/real');
    expect(unsafePaths(inTree)).toEqual([]);
    expect(unsafePaths(inTree + through)).toEqual(['lib/passwd']);
  });
});

test('git\'s C-quoted names are decoded (octal UTF-8 bytes, \\n, \\t, \\", \\\\), never a crash', () => {
  const q =
    'diff --git "a/t\\303\\251st/a\\nb\\t\\"c\\\\.py" "b/t\\303\\251st/a\\nb\\t\\"c\\\\.py"\n' +
    '--- "a/t\\303\\251st/a\\nb\\t\\"c\\\\.py"\n+++ "b/t\\303\\251st/a\\nb\\t\\"c\\\\.py"\n@@ -1 +1 @@\n-a\n+b\n';
  const name = 'tést/a\nb\t"c\\.py';
  expect(patchFiles(q)).toEqual([{ from: name, to: name }]);
  // a stray escape git never writes is kept as written
  expect(patchFiles('--- "a/x\\qy"\n+++ "b/x\\qy"\n@@ -1 +1 @@\n-a\n+b\n')).toEqual([
    { from: 'x\\qy', to: 'x\\qy' },
  ]);
});
