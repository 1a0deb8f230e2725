import { describe, expect, test } from 'bun:test';
import { cfgTestRanges, isTestPath, splitPatch } from './exec-split.ts';

const fileDiff = (path: string, minus = 'old', plus = 'new', start = 1) =>
  `diff --git a/${path} b/${path}\nindex 1111111..2222222 100644\n--- a/${path}\n+++ b/${path}\n@@ -${start},1 +${start},1 @@\n-${minus}\n+${plus}\n`;

describe('isTestPath: the per-language split rule on real-looking paths', () => {
  const cases: Array<[string, boolean]> = [
    // SWE-bench directory words
    ['tests/test_calc.py', true],
    ['src/flask/testing.py', false], // a module named testing, not a directory
    ['lib/testing/helpers.py', true],
    ['e2e/login.cy.js', true],
    ['pkg/test/fixtures/data.json', true],
    ['src/requests/models.py', false],
    // Java
    ['src/test/java/org/apache/commons/lang3/StringUtilsTest.java', true],
    ['modules/core/src/test/resources/log4j2.xml', true],
    ['src/main/java/org/apache/commons/lang3/StringUtils.java', false],
    // Go
    ['internal/parser/parser_test.go', true],
    ['internal/parser/parser.go', false],
    ['latest.go', false],
    // Rust
    ['tests/integration.rs', true],
    ['crates/core/tests/cli.rs', true],
    ['src/lib.rs', false],
    // JS / TS
    ['src/__tests__/render.tsx', true],
    ['packages/core/src/index.test.ts', true],
    ['lib/router.spec.js', true],
    ['src/utils/test-utils.ts', false],
    ['src/contest.ts', false],
    ['docs/latest.md', false],
  ];
  for (const [path, want] of cases)
    test(`${path} → ${want ? 'test' : 'code'}`, () => {
      expect(isTestPath(path)).toBe(want);
    });

  test("substring (SWE-bench's exact rule) also takes paths that merely contain 'test'", () => {
    expect(isTestPath('latest.go', 'substring')).toBe(true);
    expect(isTestPath('src/contest.ts', 'substring')).toBe(true);
    expect(isTestPath('src/flask/testing.py', 'substring')).toBe(true);
    expect(isTestPath('src/flask/app.py', 'substring')).toBe(false);
  });
});

describe('splitPatch', () => {
  test('each file goes whole to one side, bytes kept', () => {
    const code = fileDiff('internal/parser/parser.go');
    const t = fileDiff('internal/parser/parser_test.go');
    const r = splitPatch(code + t);
    expect(r.patch).toBe(code);
    expect(r.test_patch).toBe(t);
    expect(r.files.map((f) => f.kind)).toEqual(['code', 'test']);
  });

  test('binary files go in neither patch', () => {
    const bin =
      'diff --git a/logo.png b/logo.png\nindex 1111111..2222222 100644\nBinary files a/logo.png and b/logo.png differ\n';
    const r = splitPatch(bin + fileDiff('src/app.js'));
    expect(r.files).toEqual([
      { path: 'logo.png', kind: 'binary', rule: null },
      { path: 'src/app.js', kind: 'code', rule: null },
    ]);
    expect(r.patch).not.toContain('logo.png');
  });

  const LIB = (body: string, test: string) =>
    `pub fn add(a: i64, b: i64) -> i64 {\n    ${body}\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(${test}, 5);\n    }\n}\n`;

  test('cfgTestRanges finds the module (strings with braces do not confuse it)', () => {
    expect(cfgTestRanges(LIB('a + b', 'add(2, 3)'))).toEqual([[5, 13]]);
    expect(cfgTestRanges('#[cfg(test)]\nmod t {\n    const S: &str = "}";\n}\nfn x() {}\n')).toEqual([
      [1, 4],
    ]);
    expect(cfgTestRanges('#[cfg(test)]\nfn only_in_tests() {}\n')).toEqual([]);
  });

  test('Rust: a src file changed only inside #[cfg(test)] is a test file; mixed stays in the patch', () => {
    const before = LIB('a - b', 'add(2, 3)');
    const testOnly = LIB('a - b', 'add(3, 2)');
    const both = LIB('a + b', 'add(3, 2)');
    const diffTest = fileDiff(
      'src/lib.rs',
      '        assert_eq!(add(2, 3), 5);',
      '        assert_eq!(add(3, 2), 5);',
      11,
    );
    const r1 = splitPatch(diffTest, { text: (_p, side) => (side === 'before' ? before : testOnly) });
    expect(r1.files[0]).toEqual({ path: 'src/lib.rs', kind: 'test', rule: 'rust #[cfg(test)] module' });
    const diffBoth =
      'diff --git a/src/lib.rs b/src/lib.rs\nindex 1111111..2222222 100644\n--- a/src/lib.rs\n+++ b/src/lib.rs\n' +
      '@@ -2,1 +2,1 @@\n-    a - b\n+    a + b\n@@ -11,1 +11,1 @@\n-        assert_eq!(add(2, 3), 5);\n+        assert_eq!(add(3, 2), 5);\n';
    const r2 = splitPatch(diffBoth, { text: (_p, side) => (side === 'before' ? before : both) });
    expect(r2.files[0]?.kind).toBe('code');
    expect(r2.test_patch).toBe('');
    // without file texts the rule cannot apply: the file is code
    expect(splitPatch(diffTest).files[0]?.kind).toBe('code');
  });
});
