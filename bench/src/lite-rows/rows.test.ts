import { expect, test } from 'bun:test';
import { InputError } from '@faun/kit';
import { buildRow, isTestPath, type LitePointer, parsePointer, splitDiff } from './rows.ts';

const SRC =
  'diff --git a/pkg/mod.py b/pkg/mod.py\nindex 11c8007..3aa94d4 100644\n--- a/pkg/mod.py\n+++ b/pkg/mod.py\n' +
  '@@ -1,2 +1,2 @@ def f():\n-    return 1\n+    return 2\n';
const TEST =
  'diff --git a/pkg/tests/test_mod.py b/pkg/tests/test_mod.py\nindex 1cf2e16..a764599 100644\n' +
  '--- a/pkg/tests/test_mod.py\n+++ b/pkg/tests/test_mod.py\n@@ -3,0 +4,2 @@ def test_f():\n+    assert f() == 2\n+index 1..2 stays\n';

const pointer: LitePointer = {
  instance_id: 'o__r-1',
  repo: 'o/r',
  base_commit: 'a'.repeat(40),
  head_commit: 'b'.repeat(40),
  pr: 1,
  issue: 7,
  version: '1.1',
  environment_setup_commit: 'c'.repeat(40),
  created_at: '2017-08-22T20:28:20Z',
  FAIL_TO_PASS: ['test_f'],
  PASS_TO_PASS: ['test_g'],
};

test('splitDiff: test files to test_patch, the rest to patch, index lines dropped, hunk lines kept', () => {
  const { patch, test_patch } = splitDiff(TEST + SRC);
  expect(patch).toBe(SRC.replace('index 11c8007..3aa94d4 100644\n', ''));
  expect(test_patch).toBe(TEST.replace('index 1cf2e16..a764599 100644\n', ''));
  expect(test_patch).toContain('+index 1..2 stays\n');
});

test("isTestPath: SWE-bench's words anywhere in the path", () => {
  expect(isTestPath('sympy/core/tests/test_numbers.py')).toBe(true);
  expect(isTestPath('e2e/run.js')).toBe(true);
  expect(isTestPath('sympy/core/mod.py')).toBe(false);
});

test('buildRow: the dataset fields, lists as JSON text, the issue address as problem statement', () => {
  const row = buildRow(pointer, SRC + TEST);
  expect(row.FAIL_TO_PASS).toBe('["test_f"]');
  expect(row.PASS_TO_PASS).toBe('["test_g"]');
  expect(row.problem_statement).toStartWith('https://github.com/o/r/issues/7 ');
  expect(row.patch.startsWith('diff --git a/pkg/mod.py')).toBe(true);
  expect(() => buildRow(pointer, SRC)).toThrow(/no test file/);
});

test('parsePointer: a bad field is an error naming file:line and the field', () => {
  expect(parsePointer(pointer, 'p.jsonl:1')).toEqual(pointer);
  const bad = (over: Record<string, unknown>) => () => parsePointer({ ...pointer, ...over }, 'p.jsonl:3');
  expect(bad({ head_commit: 'abc' })).toThrow('p.jsonl:3: head_commit: expected a 40-digit commit id');
  expect(bad({ FAIL_TO_PASS: [] })).toThrow(InputError);
  expect(bad({ PASS_TO_PASS: [1] })).toThrow('PASS_TO_PASS');
});
