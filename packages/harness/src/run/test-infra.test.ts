import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedPath } from '@faun/kit';
import { FIXTURE_LANGUAGES, infraPatch, makeFixture } from '../../testing/fixtures.ts';
import { patchChunks, patchFiles } from '../files/patch.ts';
import { loadInstances } from '../rows/instances.ts';
import { infraReason, testInfrastructure } from './test-infra.ts';

/** A git diff chunk editing `path` (one hunk). */
const edit = (path: string, old = 'a', next = 'b') =>
  `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n@@ -1 +1 @@\n-${old}\n+${next}\n`;
const create = (path: string, line = 'x') =>
  `diff --git a/${path} b/${path}\nnew file mode 100644\nindex 0000000..3333333\n--- /dev/null\n+++ b/${path}\n@@ -0,0 +1 @@\n+${line}\n`;
const remove = (path: string) =>
  `diff --git a/${path} b/${path}\ndeleted file mode 100644\nindex 3333333..0000000\n--- a/${path}\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n`;
const rename = (from: string, to: string) =>
  `diff --git a/${from} b/${to}\nsimilarity index 100%\nrename from ${from}\nrename to ${to}\n`;

const code = edit('src/calc.py');
const testPatch = edit('tests/test_calc.py');

describe('patchChunks', () => {
  test('one chunk per file, byte for byte; lines inside hunks never start a chunk', () => {
    // a removed SQL comment `-- x` reads `--- x`, an added line can read `+++ y` or `diff --git`
    const tricky =
      'diff --git a/q.sql b/q.sql\n--- a/q.sql\n+++ b/q.sql\n@@ -1,2 +1,2 @@\n--- x\n+++ y\n keep\n' +
      'diff --git a/r.txt b/r.txt\n--- a/r.txt\n+++ b/r.txt\n@@ -1 +1,2 @@\n a\n+diff --git a/z b/z\n';
    const diff = tricky + create('new.py') + remove('old.py') + rename('a.txt', 'b.txt');
    const chunks = patchChunks(diff);
    expect(chunks.map((c) => [c.from, c.to])).toEqual([
      ['q.sql', 'q.sql'],
      ['r.txt', 'r.txt'],
      [null, 'new.py'],
      ['old.py', null],
      ['a.txt', 'b.txt'],
    ]);
    expect(chunks.map((c) => c.text).join('')).toBe(diff);
  });
  test('plain unified diffs, quoted paths, binary chunks with spaces, no newline at the end', () => {
    const plain = '--- a/README\n+++ b/README\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n';
    const quoted =
      'diff --git "a/t\\303\\251st/conftest.py" "b/t\\303\\251st/conftest.py"\n--- "a/t\\303\\251st/conftest.py"\n+++ "b/t\\303\\251st/conftest.py"\n@@ -1 +1 @@\n-a\n+b\n';
    const binary = 'diff --git a/my img.png b/my img.png\nindex 1..2 100644\nBinary files differ\n';
    const chunks = patchChunks(plain + quoted + binary);
    expect(chunks.map((c) => c.to)).toEqual(['README', 'tést/conftest.py', 'my img.png']);
    expect(testInfrastructure(quoted, '', 'python').dropped).toEqual([
      { path: 'tést/conftest.py', reason: 'pytest conftest' },
    ]);
    expect(patchChunks('')).toEqual([]);
  });
});

describe('testInfrastructure', () => {
  test('code only: nothing dropped, the patch unchanged', () => {
    expect(testInfrastructure(code, testPatch, 'python')).toEqual({ patch: code, dropped: [] });
  });
  test('python: conftest anywhere, pytest/tox/setup.cfg/pyproject, test modules, the test patch files', () => {
    const diff =
      code +
      create('conftest.py') +
      edit('pkg/sub/conftest.py') +
      edit('pytest.ini', 'x', 'addopts = -p forged') +
      edit('tox.ini') +
      edit('setup.cfg') +
      edit('pyproject.toml') +
      create('tests/test_more.py') +
      edit('tests/test_calc.py');
    const r = testInfrastructure(diff, testPatch, 'python');
    expect(r.patch).toBe(code);
    expect(r.dropped).toEqual([
      { path: 'conftest.py', reason: 'pytest conftest' },
      { path: 'pkg/sub/conftest.py', reason: 'pytest conftest' },
      { path: 'pytest.ini', reason: 'Python test configuration' },
      { path: 'tox.ini', reason: 'Python test configuration' },
      { path: 'setup.cfg', reason: 'Python test configuration' },
      { path: 'pyproject.toml', reason: 'Python test configuration' },
      { path: 'tests/test_more.py', reason: 'Python test module' },
      { path: 'tests/test_calc.py', reason: 'touched by the test patch' },
    ]);
  });
  test('javascript: package.json, jest/vitest/mocha/karma configs, test files and directories', () => {
    const src = edit('src/index.js');
    const diff =
      edit('package.json', '"test": "jest"', '"test": "echo ok"') +
      src +
      create('jest.config.js') +
      edit('vitest.config.ts') +
      create('.mocharc.yml') +
      edit('karma.conf.js') +
      create('src/__mocks__/fs.js') +
      create('lib/util.spec.ts');
    const r = testInfrastructure(diff, '', 'javascript');
    expect(r.patch).toBe(src);
    expect(r.dropped.map((d) => d.path)).toEqual([
      'package.json',
      'jest.config.js',
      'vitest.config.ts',
      '.mocharc.yml',
      'karma.conf.js',
      'src/__mocks__/fs.js',
      'lib/util.spec.ts',
    ]);
  });
});

describe('testInfrastructure: other languages, renames, edge cases', () => {
  test('go, java, rust, c/cpp', () => {
    expect(testInfrastructure(edit('calc_test.go') + edit('calc.go'), '', 'go')).toEqual({
      patch: edit('calc.go'),
      dropped: [{ path: 'calc_test.go', reason: 'Go test file' }],
    });
    const java = testInfrastructure(
      edit('pom.xml') +
        create('.mvn/maven.config') +
        edit('build.gradle.kts') +
        create('src/test/java/A.java'),
      '',
      'java',
    );
    expect(java.patch).toBe('');
    expect(java.dropped.map((d) => d.reason)).toEqual([
      'Maven/Gradle build',
      'Maven configuration',
      'Maven/Gradle build',
      'Java test source',
    ]);
    const rust = testInfrastructure(
      edit('Cargo.toml') + create('tests/forge.rs') + edit('src/lib.rs'),
      '',
      'rust',
    );
    expect(rust.patch).toBe(edit('src/lib.rs'));
    expect(rust.dropped.map((d) => d.path)).toEqual(['Cargo.toml', 'tests/forge.rs']);
    const cpp = testInfrastructure(
      edit('CMakeLists.txt', 'x', 'add_test(NAME add COMMAND true)') +
        edit('cmake/Tests.cmake') +
        edit('calc.cpp'),
      '',
      'cpp',
    );
    expect(cpp.patch).toBe(edit('calc.cpp'));
    expect(cpp.dropped.map((d) => d.path)).toEqual(['CMakeLists.txt', 'cmake/Tests.cmake']);
  });
  test('renames and deletions: either side being test infrastructure drops the chunk', () => {
    const diff =
      rename('conftest.py', 'helpers.py') + rename('util.py', 'conftest.py') + remove('pytest.ini');
    const r = testInfrastructure(diff, '', 'python');
    expect(r.patch).toBe('');
    expect(r.dropped.map((d) => d.path)).toEqual(['conftest.py', 'conftest.py', 'pytest.ini']);
  });
  test('a file the test patch creates, named by the model patch too', () => {
    const tp = create('tests/data/input.json');
    const r = testInfrastructure(create('tests/data/input.json', 'forged') + code, tp, 'python');
    expect(r).toEqual({
      patch: code,
      dropped: [{ path: 'tests/data/input.json', reason: 'touched by the test patch' }],
    });
  });
  test('language-specific rules stay in their language; configuration rules apply everywhere', () => {
    const none = new Set<string>();
    expect(infraReason('tests/forge.rs', 'python', none)).toBeNull();
    expect(infraReason('src/test/java/A.java', 'go', none)).toBeNull();
    expect(infraReason('test_utils.py', 'javascript', none)).toBeNull();
    expect(infraReason('sub/dir/conftest.py', 'java', none)).toBe('pytest conftest');
    expect(infraReason('api/handler_test.go', 'javascript', none)).toBe('Go test file');
    expect(infraReason('src/conftest.py.bak', 'python', none)).toBeNull();
    expect(infraReason('docs/package.json.md', 'javascript', none)).toBeNull();
  });
  test('text that is no diff is kept as it is (the apply step judges it)', () => {
    expect(testInfrastructure('not a diff\n', '', 'python')).toEqual({ patch: 'not a diff\n', dropped: [] });
  });
});

describe('the fixtures’ test-infrastructure forgeries (every language)', () => {
  const root = mkdtempSync(join(tmpdir(), 'faun-test-infra-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  for (const lang of FIXTURE_LANGUAGES)
    test(`${lang}: every infrastructure file is dropped, the rest kept`, () => {
      const fx = makeFixture(lang, root);
      const { patch, infra } = infraPatch(fx);
      const r = testInfrastructure(patch, fx.instance.test_patch, fx.instance.language);
      expect(r.dropped.map((d) => d.path).sort()).toEqual(infra);
      // the gold patch of the same fixture touches no test infrastructure
      expect(
        testInfrastructure(fx.patches.gold, fx.instance.test_patch, fx.instance.language).dropped,
      ).toEqual([]);
    });
});

test('SWE-bench Lite rows (../shared): every gold and test patch splits back byte for byte; no gold patch loses a file', async () => {
  let rows = 0;
  for (const f of ['django', 'other-repos', 'with-files']) {
    const path = sharedPath(`data/swebench-lite/${f}.jsonl`);
    if (!path) continue;
    for (const i of await loadInstances(path)) {
      rows++;
      for (const diff of [i.patch, i.test_patch]) {
        const chunks = patchChunks(diff);
        expect(chunks.map((c) => c.text).join('')).toBe(diff);
        expect(chunks.map((c) => [c.from, c.to])).toEqual(patchFiles(diff).map((p) => [p.from, p.to]));
      }
      expect({
        id: i.instance_id,
        dropped: testInfrastructure(i.patch, i.test_patch, i.language).dropped,
      }).toEqual({
        id: i.instance_id,
        dropped: [],
      });
    }
  }
  if (process.env.FAUN_NO_SHARED !== '1') expect(rows).toBeGreaterThan(200);
});

test("a file the row's own fix changes is code under test for that row, unless its test patch touches it", () => {
  const gold = edit('package.json', '"dep": "1"', '"dep": "2"') + edit('src/a.js');
  const pred = edit('package.json', '"dep": "1"', '"dep": "3"') + edit('jest.config.js') + edit('src/a.js');
  const r = testInfrastructure(pred, edit('test/a.test.js'), 'javascript', gold);
  expect(r.dropped).toEqual([{ path: 'jest.config.js', reason: 'JavaScript test runner configuration' }]);
  expect(r.patch).toBe(edit('package.json', '"dep": "1"', '"dep": "3"') + edit('src/a.js'));
  // without the row's fix, or when the test patch also touches the file, it is infrastructure again
  expect(testInfrastructure(pred, '', 'javascript').dropped.map((d) => d.path)).toEqual([
    'package.json',
    'jest.config.js',
  ]);
  const both = testInfrastructure(pred, edit('package.json'), 'javascript', gold);
  expect(both.dropped.map((d) => d.path)).toEqual(['package.json', 'jest.config.js']);
});
