/**
 * A Multi-SWE-bench row whose only new test is in `n2p_tests` (absent after the test patch, as when the new
 * test does not compile before the fix), through `faun verify --backend local` on a two-file Python
 * repository: gold resolves it; an empty and a comment-only patch do not.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runFaun } from '../../testing/cli.ts';
import { instanceDirName } from '../files/run-files.ts';

let root = '';
const env = {
  ...process.env,
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};
const git = (cwd: string, ...a: string[]) => {
  const r = Bun.spawnSync(['git', ...a], { cwd, env });
  if (r.exitCode !== 0) throw new Error(`git ${a.join(' ')}: ${r.stderr.toString()}`);
  return r.stdout.toString();
};

/** The diff from the committed tree to `files` (the tree is restored afterwards). */
function diffTo(dir: string, files: Record<string, string>): string {
  for (const [p, t] of Object.entries(files)) writeFileSync(join(dir, p), t);
  git(dir, 'add', '-A');
  const d = git(dir, 'diff', '--cached', '--full-index');
  git(dir, 'reset', '-q', '--hard');
  return d;
}

const LIB = 'def greet():\n    return None\n';
const TESTS = 'from lib import greet\n\n\ndef test_old():\n    assert greet() is None or True\n';

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'faun-n2p-'));
  const repo = join(root, 'repo');
  Bun.spawnSync(['mkdir', '-p', repo]);
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(join(repo, 'lib.py'), LIB);
  writeFileSync(join(repo, 'test_lib.py'), TESTS);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'base');
  const sha = git(repo, 'rev-parse', 'HEAD').trim();
  const testPatch = diffTo(repo, {
    'test_lib.py': `${TESTS}\n\ndef test_new():\n    assert greet() == "hi"\n`,
  });
  const gold = diffTo(repo, { 'lib.py': 'def greet():\n    return "hi"\n' });
  const comment = diffTo(repo, { 'lib.py': `# greet says hi\n${LIB}` });
  const stage = { passed_tests: ['test_lib.py::test_old'], failed_tests: [], skipped_tests: [] };
  const row = {
    org: 'acme',
    repo: 'greeter',
    number: 7,
    lang: 'python',
    base: { label: 'acme:main', ref: 'main', sha },
    fix_patch: gold,
    test_patch: testPatch,
    p2p_tests: { 'test_lib.py::test_old': { run: 'PASS', test: 'PASS', fix: 'PASS' } },
    f2p_tests: {},
    s2p_tests: {},
    n2p_tests: { 'test_lib.py::test_new': { run: 'NONE', test: 'NONE', fix: 'PASS' } },
    fixed_tests: { 'test_lib.py::test_new': { run: 'NONE', test: 'NONE', fix: 'PASS' } },
    run_result: { passed_count: 1, failed_count: 0, skipped_count: 0, ...stage },
    test_patch_result: { passed_count: 1, failed_count: 0, skipped_count: 0, ...stage },
    fix_patch_result: {
      passed_count: 2,
      failed_count: 0,
      skipped_count: 0,
      passed_tests: ['test_lib.py::test_new', 'test_lib.py::test_old'],
      failed_tests: [],
      skipped_tests: [],
    },
  };
  writeFileSync(join(root, 'rows.jsonl'), `${JSON.stringify(row)}\n`);
  const pred = (fix_patch: string) =>
    `${JSON.stringify({ org: 'acme', repo: 'greeter', number: 7, fix_patch })}\n`;
  writeFileSync(join(root, 'empty.jsonl'), pred(''));
  writeFileSync(join(root, 'comment.jsonl'), pred(comment));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function verify(predictions: string, runId: string) {
  const r = runFaun(
    [
      'verify',
      '--backend',
      'local',
      '--instances',
      join(root, 'rows.jsonl'),
      '--predictions',
      predictions,
      '--run-id',
      runId,
      '--repo-dir',
      `acme/greeter=${join(root, 'repo')}`,
      '--log-dir',
      join(root, 'logs'),
    ],
    { ...env, FAUN_STATE_DIR: join(root, 'state') },
  );
  const out = `${r.stdout}\n${r.stderr}`;
  const result = JSON.parse(
    readFileSync(
      join(root, 'logs', runId, 'instances', instanceDirName('acme/greeter:pr-7'), 'result.json'),
      'utf8',
    ),
  );
  return { code: r.code, out, result };
}

test('n2p-only row: gold resolved, empty and comment-only patches not', () => {
  const gold = verify('gold', 'gold');
  expect(gold.code).toBe(0);
  expect(gold.result.outcome).toBe('resolved');
  expect(gold.out).toContain('1/1 resolved');

  const empty = verify(join(root, 'empty.jsonl'), 'empty');
  expect(empty.result.outcome).toBe('empty_patch');
  expect(empty.out).toContain('0/1 resolved');

  const comment = verify(join(root, 'comment.jsonl'), 'comment');
  expect(comment.result.outcome).toBe('unresolved');
  expect(comment.result.error).toContain('no test went from not passing to passing');
  expect(comment.out).toContain('0/1 resolved');
}, 120_000);
