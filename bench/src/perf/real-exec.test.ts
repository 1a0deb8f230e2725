import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ExecutionInstance } from '@faun/schema';
import { addFigures, buildInputs, emptyFigures, instanceRecord, readPointers } from './real-exec.ts';

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

test('per-repository figures add up per language; mismatches stay null only where nothing was compared', () => {
  const a = { ...emptyFigures(), repositories: 1, instances: 6, gold_resolved: 6 };
  addFigures(a, {
    ...emptyFigures(),
    repositories: 1,
    instances: 4,
    gold_resolved: 3,
    reference_mismatches: 0,
  });
  expect(a).toMatchObject({ repositories: 2, instances: 10, gold_resolved: 9, reference_mismatches: 0 });
  const b = emptyFigures();
  addFigures(b, emptyFigures());
  expect(b.reference_mismatches).toBeNull();
  addFigures(b, { ...emptyFigures(), reference_mismatches: 2 });
  addFigures(b, { ...emptyFigures(), reference_mismatches: 1 });
  expect(b.reference_mismatches).toBe(3);
});

test("a build is reused only while each pointer's environment version is unchanged", () => {
  const ps = readPointers(
    '{"language":"go","repo":"gin-gonic/gin","pr":2755,"fix_commit":"' + 'a'.repeat(40) + '"}\n',
    'p.jsonl',
  );
  const before = buildInputs(ps, 3, []);
  const after = buildInputs(ps, 3, [{ repo: 'gin-gonic/gin', from: 1, to: 2826, version: 'v' }]);
  // The commits file is the same; the stamp is not, so the rows are built again with their new version.
  expect(after.text).toBe(before.text);
  expect(before.inputs).toEndWith('versions 2755 -\n');
  expect(after.inputs).toEndWith('versions 2755 v\n');
  expect(buildInputs(ps, 5, []).inputs).not.toBe(before.inputs);
});

test('a whole-suite instance counts when its suite check is equal; a stand-in POM alone left unchecked does not', () => {
  const repo = 'FasterXML/jackson-dataformat-xml';
  const version = '2.17-woodstox-6.6.0-stax2-4.2.2';
  // the fields an instance record reads
  const row = {
    instance_id: `${repo}:pr-638`,
    repo,
    version,
    language: 'java',
    test_patch: '',
  } as ExecutionInstance;
  const equal = { selected: 2, ran: 2, missing: [], extra: [], equal: true };
  const unchecked = instanceRecord(row);
  expect(unchecked.deviations.map((d) => d.what)).toContain('stand-in POM');
  expect(unchecked.changes_tests_run).toBe(true);
  expect(instanceRecord(row, equal)).toMatchObject({ changes_tests_run: false, suite_check: equal });
  const differs = { ...equal, missing: ['a.B'], equal: false };
  expect(instanceRecord(row, differs).changes_tests_run).toBe(true);
  // jackson-core's touched-classes scope changes which tests run whatever a suite check says
  expect(
    instanceRecord({ ...row, repo: 'FasterXML/jackson-core', version: '2.14' }, equal).changes_tests_run,
  ).toBe(true);
});
