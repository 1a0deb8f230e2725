import { expect, test } from 'bun:test';
import { InputError } from '@faun/kit';
import { readPublishedRows } from './rows.ts';

const SHA = 'a'.repeat(40);
const PATCH = 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n';
const row = (over: Record<string, unknown> = {}) => ({
  org: 'acme',
  repo: 'widgets',
  number: 7,
  base: { label: 'acme:main', ref: 'main', sha: SHA },
  fix_patch: PATCH,
  test_patch: PATCH,
  f2p_tests: { 'w.FooTest': { run: 'PASS', test: 'FAIL', fix: 'PASS' } },
  p2p_tests: { 'w.BTest': {}, 'w.ATest': {} },
  n2p_tests: {},
  s2p_tests: {},
  run_result: { passed_tests: ['w.ATest', 'w.BTest'], failed_tests: [], skipped_tests: ['w.CTest'] },
  instance_id: 'acme__widgets-7',
  ...over,
});
const jsonl = (...rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n');

test('a published row: its own id, base, sorted categories and the suite its run stage ran', () => {
  const [r] = readPublishedRows(`${jsonl(row())}\n`, 'rows.jsonl');
  expect(r!.id).toBe('acme__widgets-7');
  expect(r!.base_sha).toBe(SHA);
  expect(r!.published).toEqual({
    f2p_tests: ['w.FooTest'],
    p2p_tests: ['w.ATest', 'w.BTest'],
    n2p_tests: [],
    s2p_tests: [],
  });
  expect(r!.run_tests).toEqual(['w.ATest', 'w.BTest', 'w.CTest']);
  expect(r!.instance.base_commit).toBe(SHA);
  expect(r!.instance.patch).toBe(PATCH);
  expect(r!.instance.fail_to_pass).toEqual(['w.FooTest']);
});

test('a row without instance_id gets Multi-SWE-bench’s form from org, repo and number', () => {
  const { instance_id: _, ...bare } = row({ number: '12' });
  expect(readPublishedRows(jsonl(bare), 'f')[0]!.id).toBe('acme__widgets-12');
});

const errorOf = (text: string): string => {
  try {
    readPublishedRows(text, 'rows.jsonl');
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error('no error');
};

test('a bad row is an error naming the file, the line and the field', () => {
  const good = JSON.stringify(row());
  expect(errorOf(`${good}\n\n{not json`)).toStartWith('rows.jsonl:3: not valid JSON');
  expect(errorOf(`${good}\n${JSON.stringify(row({ base: { sha: 'abc' } }))}`)).toBe(
    'rows.jsonl:2: base.sha: expected a 40-hex commit',
  );
  expect(errorOf(JSON.stringify(row({ org: 'a b; rm -rf /' })))).toBe(
    'rows.jsonl:1: org: expected a GitHub owner name',
  );
  expect(errorOf(JSON.stringify(row({ number: -3 })))).toBe(
    'rows.jsonl:1: number: expected a pull-request number',
  );
  expect(errorOf(JSON.stringify(row({ fix_patch: '  ' })))).toBe(
    'rows.jsonl:1: fix_patch: expected a non-empty patch',
  );
  expect(errorOf(JSON.stringify(row({ n2p_tests: 'x' })))).toStartWith(
    'rows.jsonl:1: n2p_tests: expected an object',
  );
  expect(errorOf(JSON.stringify(row({ s2p_tests: undefined })))).toBe(
    'rows.jsonl:1: s2p_tests: expected a test category',
  );
  expect(errorOf(JSON.stringify(row({ instance_id: '../x' })))).toStartWith('rows.jsonl:1: instance_id:');
  expect(errorOf(`${good}\n${good}`)).toBe('rows.jsonl:2: instance_id: acme__widgets-7 appears twice');
  expect(errorOf('[1]')).toBe('rows.jsonl:1: expected a JSON object');
  expect(errorOf('\n')).toBe('rows.jsonl: no rows');
});
