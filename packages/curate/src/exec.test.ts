/** The exec builder on fixture git repositories the test creates: rows of a good fix, the funnel reason of each bad input. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { git as gitIn } from '@faun/harness/testing';
import { InputError } from '@faun/kit';
import type { RawEntry } from '@faun/schema';
import { MemoryStore } from '../testing/memory-store.ts';
import { curateStore } from './curate.ts';
import { buildExec, commitsFromStore, parseCommits } from './exec-git.ts';
import { DEFAULT_FILTERS } from './filters.ts';
import { LocalGitSource } from './source.ts';
import { plantedRepo, REPO } from './test-corpus.ts';

let root = '';
let dir = '';
const shas: Record<string, string> = {};

const git = (...args: string[]): string => gitIn(dir, ...args);
function commit(name: string, files: Record<string, string | Uint8Array>, message: string) {
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  git('add', '-A');
  git('commit', '-qm', message);
  shas[name] = git('rev-parse', 'HEAD');
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'faun-exec-'));
  dir = join(root, 'repo');
  mkdirSync(dir);
  git('init', '-q', '-b', 'main');
  commit(
    'root',
    { 'calc.py': 'def add(a, b):\n    return a - b\n', 'tests/test_calc.py': 'def test_x():\n    pass\n' },
    'initial',
  );
  commit(
    'fix',
    {
      'calc.py': 'def add(a, b):\n    return a + b\n',
      'tests/test_calc.py': 'from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n',
    },
    'Fix add (#7)\n\nadd subtracted instead of adding',
  );
  commit('docs', { 'README.md': '# calc\n' }, 'docs (#8)');
  commit('testsonly', { 'tests/test_more.py': 'def test_y():\n    pass\n' }, 'more tests (#9)');
  commit('binary', { 'logo.png': new Uint8Array([0, 1, 2, 0, 255, 0]) }, 'logo (#10)');
  commit(
    'nopr',
    { 'calc.py': 'def add(a, b):\n    return b + a\n', 'tests/test_calc.py': 'def test_z():\n    pass\n' },
    'tweak',
  );
  // a merge commit: its first parent is the base, the diff is the merged branch's change
  git('checkout', '-qb', 'feature', shas.nopr!);
  commit(
    'branch',
    {
      'calc.py': 'def add(a, b):\n    return int(a) + int(b)\n',
      'tests/test_int.py': 'def test_int():\n    pass\n',
    },
    'ints',
  );
  git('checkout', '-q', 'main');
  commit('main2', { 'NOTES.md': 'n\n' }, 'notes (#11)');
  git('merge', '-q', '--no-ff', '-m', 'Merge pull request #12 from t/feature', 'feature');
  shas.merge = git('rev-parse', 'HEAD');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('one good fix gives both rows; every other commit is a skip with its reason', async () => {
  const lines = [
    `${shas.fix}`,
    `${shas.docs}`,
    `${shas.testsonly}`,
    `${shas.binary}`,
    `${shas.nopr}`,
    `${shas.root}`,
    `${shas.merge}`,
    'deadbeefdeadbeef',
    `${shas.fix} 7`,
  ].join('\n');
  const refs = parseCommits(lines, 'commits.txt', ['acme/calc']);
  const src = new LocalGitSource({ 'acme/calc': dir });
  const b = await buildExec(refs, src, { hasSpec: (_r, l) => l === 'python' });
  expect(b.skipped.map((s) => s.reason)).toEqual([
    'no test changes',
    'no code changes',
    'diff only binary',
    'no PR number (give "<commit> <pr_number>" in the commits file, or a message with (#N))',
    'root commit: no parent to diff against',
    'commit deadbeefdeadbeef not found in the clone of acme/calc',
    `duplicate instance acme__calc-7 (commit ${shas.fix!.slice(0, 12)} already gave it)`,
  ]);
  expect(b.swebench.map((r) => r.instance_id)).toEqual(['acme__calc-12', 'acme__calc-7']);
  const row = b.swebench.find((r) => r.instance_id === 'acme__calc-7')!;
  expect(row.base_commit).toBe(shas.root!);
  expect(row.patch).toContain('diff --git a/calc.py b/calc.py');
  expect(row.patch).not.toContain('tests/');
  expect(row.test_patch).toContain('diff --git a/tests/test_calc.py b/tests/test_calc.py');
  expect(row.problem_statement).toBe('Fix add (#7)\n\nadd subtracted instead of adding');
  expect(row.FAIL_TO_PASS).toEqual([]);
  expect(row.language).toBe('python');
  const msb = b.msb.find((r) => r.number === 7)!;
  expect(msb).toMatchObject({
    org: 'acme',
    repo: 'calc',
    base: { sha: shas.root, ref: 'main', label: 'acme:main' },
  });
  expect(msb.fix_patch).toBe(row.patch);
  expect(msb.resolved_issues[0]?.number).toBe(7);
  // merge: base = first parent (main2), the diff is the branch only
  const merged = b.swebench.find((r) => r.instance_id === 'acme__calc-12')!;
  expect(merged.base_commit).toBe(shas.main2!);
  expect(merged.test_patch).toContain('tests/test_int.py');
  expect(merged.patch).not.toContain('NOTES.md');
});

test('a repository without an environment spec is a skip, and a given problem statement wins', async () => {
  const refs = parseCommits(`{"commit": "${shas.fix}", "problem_statement": "add is wrong"}\n`, 'c.jsonl', [
    'acme/calc',
  ]);
  const src = new LocalGitSource({ 'acme/calc': dir });
  const none = await buildExec(refs, src, { hasSpec: () => false });
  expect(none.skipped.map((s) => s.reason)).toEqual([
    'repository without spec (python: no environment spec for acme/calc)',
  ]);
  const ok = await buildExec(refs, src);
  expect(ok.swebench[0]?.problem_statement).toBe('add is wrong');
  expect(ok.swebench[0]?.version).toBeNull();
  // the environment version comes from the PR (a spec's PR range)
  const asked: string[] = [];
  const versioned = await buildExec(refs, src, {
    versionFor: (repo, pr) => {
      asked.push(`${repo}#${pr}`);
      return pr === 7 ? '2.14' : null;
    },
  });
  expect(asked).toEqual(['acme/calc#7']);
  expect(versioned.swebench[0]?.version).toBe('2.14');
});

test('a merge whose first parent is not in a shallow clone is a skip', async () => {
  const shallow = join(root, 'shallow');
  const r = Bun.spawnSync(['git', 'clone', '-q', '--depth', '1', `file://${dir}`, shallow]);
  expect(r.exitCode).toBe(0);
  const b = await buildExec(
    parseCommits(`${shas.merge} 12\n`, 'c.txt', ['acme/calc']),
    new LocalGitSource({ 'acme/calc': shallow }),
  );
  expect(b.skipped.map((s) => s.reason)).toEqual([
    `merge without first parent in the clone (${shas.main2!.slice(0, 12)}; shallow clone?)`,
  ]);
});

test('a bad commits file names file and line', () => {
  expect(() => parseCommits('abc123 7\nnot-a-sha\n', 'c.txt', ['a/b'])).toThrow(
    'c.txt:2: commit: expected a commit sha',
  );
  expect(() => parseCommits('abc123 seven\n', 'c.txt', ['a/b'])).toThrow(InputError);
  expect(() => parseCommits('abc123\n', 'c.txt', ['a/b', 'c/d'])).toThrow('c.txt:1: repo: missing');
  expect(() => parseCommits('{"commit": "abc123", "language": "cobol"}\n', 'c.jsonl', ['a/b'])).toThrow(
    'c.jsonl:1: language',
  );
});

test("from the store: the curated pair's merge commit, the paired issue as the problem statement", async () => {
  const data = plantedRepo();
  data.entries = data.entries.map(
    (e): RawEntry =>
      e.kind === 'pr' && e.pr && e.number === 2 ? { ...e, pr: { ...e.pr, merge_commit_sha: shas.fix } } : e,
  );
  const store = new MemoryStore().add(data);
  await curateStore(store, { filters: DEFAULT_FILTERS, commentOnly: async (_r, pr) => pr.number === 23 });
  const { refs, skipped } = await commitsFromStore(store);
  expect(skipped).toEqual([{ id: `${REPO}#28`, task: 'exec', reason: 'the PR has no merge commit' }]);
  const issue = data.entries.find((e) => e.number === 1)!;
  const b = await buildExec(refs, new LocalGitSource({ [REPO]: dir }));
  expect(b.skipped).toEqual([]);
  expect(b.swebench[0]).toMatchObject({
    instance_id: 'acme__widget-2',
    base_commit: shas.root,
    problem_statement: `${issue.title}\n${issue.body}`.trim(),
  });
  expect(b.msb[0]?.resolved_issues).toEqual([{ number: 1, title: issue.title, body: issue.body ?? '' }]);
});
