import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '@faun/kit';
import { repoProblem } from '../files/repo-name.ts';
import { testInstance } from '../run/test-instance.ts';
import { loadInstances } from './instances.ts';
import { badPatchPaths, checkRows, idProblem, rowProblem } from './row-check.ts';

const dir = mkdtempSync(join(tmpdir(), 'faun-row-check-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const row = (extra: Record<string, unknown> = {}) => ({
  instance_id: 'psf__requests-1',
  repo: 'psf/requests',
  base_commit: 'a'.repeat(40),
  patch: 'diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\n',
  test_patch: '',
  FAIL_TO_PASS: '[]',
  PASS_TO_PASS: '[]',
  ...extra,
});

/** A test patch creating `name` (git's C quoting when the name needs it). */
const creating = (name: string) => {
  const q = /[\n"\\]/.test(name) ? (p: string) => JSON.stringify(p) : (p: string) => p;
  return `diff --git ${q(`a/${name}`)} ${q(`b/${name}`)}\nnew file mode 100644\n--- /dev/null\n+++ ${q(`b/${name}`)}\n@@ -0,0 +1 @@\n+x\n`;
};

describe('instance ids', () => {
  test('ordinary SWE-bench and Multi-SWE-bench ids pass', () => {
    for (const id of [
      'django__django-11099',
      'psf__requests-2317',
      'fasterxml/jackson-core:pr-42',
      'a.b-c_d+1',
    ])
      expect({ id, p: idProblem(id) }).toEqual({ id, p: null });
  });
  test('../.., a/b, backslashes, control characters, leading dots, overlong ids are refused', () => {
    expect(idProblem('../..')).toBe("has '..'");
    expect(idProblem('..')).toBe("has '..'");
    expect(idProblem('a/b')).toContain("has a '/'");
    expect(idProblem('o/r:pr-1/../x')).not.toBeNull();
    expect(idProblem('../r:pr-1')).not.toBeNull();
    expect(idProblem('a\\b')).toBe("has a '\\'");
    expect(idProblem('a\nb')).toContain('control character');
    expect(idProblem('a\0b')).toContain('control character');
    expect(idProblem('.hidden')).toBe("starts with '.'");
    expect(idProblem('-rf')).toBe("starts with '-'");
    expect(idProblem('x'.repeat(201))).toContain('longer than 200');
    expect(idProblem('')).toBe('is empty');
  });
});

test('repo: owner/name in GitHub characters only', () => {
  expect(repoProblem('psf/requests')).toBeNull();
  expect(repoProblem('nlohmann/json')).toBeNull();
  expect(repoProblem('owner/.github')).toBeNull();
  expect(repoProblem('../x')).toContain('is not a GitHub user or organisation name');
  expect(repoProblem('a/..')).toContain('is not a GitHub repository name');
  expect(repoProblem('a/b/c')).toContain('is not owner/name');
  expect(repoProblem('a')).toContain('is not owner/name');
  expect(repoProblem('a;b/c')).not.toBeNull();
  expect(repoProblem('a/$(id)')).not.toBeNull();
});

test('patch file names: absolute, .. and control characters (newline, NUL) are refused', () => {
  expect(badPatchPaths(creating('tests/test_x.py'))).toEqual([]);
  expect(badPatchPaths(creating('tests/a\nRUN curl x|sh'))).toEqual(['tests/a\nRUN curl x|sh']);
  expect(badPatchPaths(creating('../outside.py'))).toEqual(['../outside.py']);
  expect(badPatchPaths('--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n')).toEqual(['/etc/passwd']);
});

describe('rowProblem', () => {
  test('names the field', () => {
    const i = testInstance();
    expect(rowProblem(i)).toBeNull();
    expect(rowProblem({ ...i, base_commit: 'HEAD~1' })?.field).toBe('base_commit');
    expect(rowProblem({ ...i, base_commit: '--upload-pack=x' })?.field).toBe('base_commit');
    expect(rowProblem({ ...i, environment_setup_commit: 'main' })?.field).toBe('environment_setup_commit');
    expect(rowProblem({ ...i, version: '1.0; rm -rf /' })?.field).toBe('version');
    expect(rowProblem({ ...i, repo: '../x' })).toMatchObject({ field: 'repo' });
    expect(rowProblem({ ...i, test_patch: creating('t/$(touch pwned)\n.py') })).toMatchObject({
      field: 'test_patch',
    });
  });
});

describe('loading rows: the file, line and field are named; nothing runs', () => {
  const load = async (rows: object[]) => {
    const f = join(dir, `r${Math.random()}.jsonl`);
    writeFileSync(f, rows.map((r) => JSON.stringify(r)).join('\n'));
    return loadInstances(f).then(
      () => null,
      (e: unknown) => e,
    );
  };
  test('an id of ../.. or a/b, a repo of ../x, a test patch file with a newline', async () => {
    for (const [extra, field] of [
      [{ instance_id: '../..' }, 'instance_id'],
      [{ instance_id: 'a/b' }, 'instance_id'],
      [{ repo: '../x' }, 'repo'],
      [{ test_patch: creating('tests/a\nb.py') }, 'test_patch'],
    ] as const) {
      const e = await load([row(), row({ instance_id: 'ok-2', ...extra })]);
      expect(e).toBeInstanceOf(InputError);
      expect((e as Error).message).toMatch(new RegExp(`\\.jsonl:2: field '${field}' `));
    }
  });
  test('ids that differ only in case (or name the same folder) are refused', async () => {
    const e = await load([row({ instance_id: 'Org__Repo-1' }), row({ instance_id: 'org__repo-1' })]);
    expect((e as Error).message).toMatch(/:2: field 'instance_id' 'org__repo-1' collides with 'Org__Repo-1'/);
    expect(await load([row({ instance_id: 'a__b-1' }), row({ instance_id: 'a__b-2' })])).toBeNull();
  });
  test('rows given as data to a run are checked the same way', () => {
    const i = testInstance();
    expect(() => checkRows([i, { ...i, instance_id: i.instance_id.toUpperCase() }])).toThrow(/collides/);
    expect(() => checkRows([{ ...i, instance_id: '../..' }])).toThrow(/instance 1: field 'instance_id'/);
    expect(() => checkRows([i])).not.toThrow();
  });
});
