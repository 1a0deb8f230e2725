import { expect, test } from 'bun:test';
import type { ExecutionInstance } from '@faun/schema';
import { SWEBENCH_PARSERS } from './parsers/select.ts';
import {
  djangoModules,
  LANGUAGE_DEFAULTS,
  REPO_SPECS,
  specFor,
  specId,
  testCommand,
  testFiles,
} from './specs.ts';

const inst = (over: Partial<ExecutionInstance>): ExecutionInstance => ({
  v: 1,
  instance_id: 'x',
  repo: 'org/repo',
  language: 'python',
  base_commit: 'abc',
  patch: '',
  test_patch: '',
  fail_to_pass: [],
  pass_to_pass: [],
  problem_statement: '',
  version: null,
  environment_setup_commit: null,
  test_cmd: null,
  image: null,
  ...over,
});

const tp = (...files: string[]) =>
  files.map((f) => `diff --git a/${f} b/${f}\n--- a/${f}\n+++ b/${f}\n@@ -1 +1 @@\n-a\n+b\n`).join('');

test('specFor: repository spec by version, bullseye for old versions, language default otherwise', () => {
  expect(specFor(inst({ repo: 'pytest-dev/pytest', version: '5.4' }))?.suite).toBe('bullseye');
  expect(specFor(inst({ repo: 'pytest-dev/pytest', version: '8.0' }))?.suite).toBeUndefined();
  expect(specFor(inst({ repo: 'django/django', version: '3.2' }))?.suite).toBe('bullseye');
  expect(specFor(inst({ repo: 'django/django', version: '5.0' }))?.parser).toBe('django');
  expect(specFor(inst({ language: 'go' }))?.name).toBe('default:go');
  expect(specFor(inst({ language: 'other' }))).toBeNull();
});

test('test command: data files dropped, django modules, row override wins', () => {
  expect(testFiles(tp('tests/test_a.py', 'tests/static/config.toml', 'tests/data.json'))).toEqual([
    'tests/test_a.py',
  ]);
  expect(djangoModules(['tests/model_fields/test_x.py', 'django/db/x.py'])).toEqual(['model_fields.test_x']);
  const dj = inst({ repo: 'django/django', version: '4.2', test_patch: tp('tests/admin_views/tests.py') });
  expect(testCommand(specFor(dj)!, dj)).toContain('--parallel 1 admin_views.tests');
  expect(testCommand(specFor(dj)!, { ...dj, test_cmd: 'make test' })).toBe('make test');
});

test('specId changes when the spec content changes', () => {
  const s = specFor(inst({ language: 'python' }))!;
  expect(specId(s)).toMatch(/^default:python@2\+[0-9a-f]{8}$/);
  expect(specId({ ...s, testCmd: `${s.testCmd} -x` })).not.toBe(specId(s));
});

test('pytest 7.x runs on bookworm (its tomli dependency is not in bullseye)', () => {
  expect(specFor(inst({ repo: 'pytest-dev/pytest', version: '7.0' }))?.suite).toBeUndefined();
  expect(specFor(inst({ repo: 'pytest-dev/pytest', version: '6.3' }))?.suite).toBe('bullseye');
});

test("Python specs run pytest in SWE-bench's -rA form (no -v) and read logs with SWE-bench's parser", () => {
  const pythonSpecs = [LANGUAGE_DEFAULTS.python!, ...REPO_SPECS.filter((s) => s.toolchain === 'python')];
  for (const s of pythonSpecs) {
    if (s.testCmd.includes('pytest')) {
      expect(s.testCmd).toContain(' -rA');
      expect(s.testCmd).not.toMatch(/ -v\b/);
    }
    const ref = SWEBENCH_PARSERS[s.name];
    if (ref) expect(`${s.name}: ${s.parser}`).toBe(`${s.name}: ${ref}`);
  }
  expect(specFor(inst({ repo: 'psf/requests', version: '2.27' }))?.parser).toBe('pytest-options');
});
