import { expect, test } from 'bun:test';
import { cfgTestLine, isTestPath, msbRow, parsePointer, splitDiff } from './rows.ts';

const file = (path: string, ...hunks: string[]) =>
  [
    `diff --git a/${path} b/${path}`,
    'index 1111111..2222222 100644',
    `--- a/${path}`,
    `+++ b/${path}`,
    ...hunks,
  ].join('\n');

test('isTestPath: Go test files and test directories, not source files named like tests', () => {
  expect(isTestPath('context_test.go')).toBe(true);
  expect(isTestPath('tests/jq.test')).toBe(true);
  expect(isTestPath('test/format-test.cc')).toBe(true);
  expect(isTestPath('crates/core/tests/regression.rs')).toBe(true);
  expect(isTestPath('src/test.c')).toBe(false);
  expect(isTestPath('testing.go')).toBe(false);
});

test('splitDiff: test files to test_patch, the rest to patch, each ending in a newline', () => {
  const diff = `${file('tree.go', '@@ -1 +1 @@', '-a', '+b')}\n${file('tree_test.go', '@@ -2 +2 @@', '-c', '+d')}\n`;
  const s = splitDiff(diff);
  expect(s.patch).toBe(`${file('tree.go', '@@ -1 +1 @@', '-a', '+b')}\n`);
  expect(s.test_patch).toBe(`${file('tree_test.go', '@@ -2 +2 @@', '-c', '+d')}\n`);
});

test('splitDiff: Rust hunks after #[cfg(test)] go to test_patch, the ones before stay in patch', () => {
  const diff = `${file('src/lib.rs', '@@ -3,1 +3,1 @@', '-x', '+y', '@@ -40,1 +41,2 @@', ' z', '+t')}\n`;
  const s = splitDiff(diff, (p) => (p === 'src/lib.rs' ? 30 : null));
  expect(s.patch).toBe(`${file('src/lib.rs', '@@ -3,1 +3,1 @@', '-x', '+y')}\n`);
  expect(s.test_patch).toBe(`${file('src/lib.rs', '@@ -40,1 +41,2 @@', ' z', '+t')}\n`);
  // Without a #[cfg(test)] module the whole file is the fix.
  expect(splitDiff(diff).test_patch).toBe('');
});

test('cfgTestLine: 1-based line of the attribute, null without one', () => {
  expect(cfgTestLine('fn a() {}\n\n#[cfg(test)]\nmod tests {}\n')).toBe(3);
  expect(cfgTestLine('fn a() {}\n')).toBeNull();
});

test('parsePointer names the line and the field; msbRow has the Multi-SWE-bench shape', () => {
  const good = { language: 'go', repo: 'gin-gonic/gin', pr: 3227, fix_commit: 'e'.repeat(40) };
  expect(parsePointer(good, 'p.jsonl:1')).toEqual(good as never);
  expect(() => parsePointer({ ...good, pr: 0 }, 'p.jsonl:2')).toThrow("p.jsonl:2: field 'pr'");
  expect(() => parsePointer({ ...good, language: 'java' }, 'p.jsonl:3')).toThrow("field 'language'");
  const row = msbRow(parsePointer(good, 'x'), 'b'.repeat(40), { patch: 'P', test_patch: 'T' });
  expect(row).toEqual({
    org: 'gin-gonic',
    repo: 'gin',
    number: 3227,
    lang: 'go',
    base: { sha: 'b'.repeat(40) },
    fix_patch: 'P',
    test_patch: 'T',
    body: '',
  });
});
