import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readPointers } from './real-exec.ts';

test('the committed pointer list parses', () => {
  const file = resolve(import.meta.dir, '../../data/real-exec-pointers.jsonl');
  const rows = readPointers(readFileSync(file, 'utf8'), file);
  expect(rows.length).toBeGreaterThanOrEqual(3);
  expect(new Set(rows.map((r) => `${r.repo}#${r.pr}`)).size).toBe(rows.length);
});

test('a bad pointer names its line and field', () => {
  const ok = '{"language":"go","repo":"a/b","pr":1,"fix_commit":"' + 'a'.repeat(40) + '"}';
  expect(() =>
    readPointers(`${ok}\n{"language":"go","repo":"a/b","pr":0,"fix_commit":"x"}\n`, 'p.jsonl'),
  ).toThrow('p.jsonl:2: pr: expected a PR number');
  expect(() => readPointers('{"language":"cobol"}\n', 'p.jsonl')).toThrow('p.jsonl:1: language');
  expect(() => readPointers(ok.replace('"a/b"', '"ab"'), 'p.jsonl')).toThrow('p.jsonl:1: repo');
});
