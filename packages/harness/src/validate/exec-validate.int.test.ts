/**
 * Fix commits in fixture repositories (Python, Go, JavaScript) → `faun build --tasks exec` →
 * `faun validate --rule multi-swe-bench --repeats 2` in containers: the derived lists are the planted ones
 * (f2p, p2p, n2p for a test patch that does not compile without the fix), a planted flaky test is dropped,
 * and rows Multi-SWE-bench would reject are dropped with its reason.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureDocker } from '@faun/services';
import { type Fixture, git, makeFixture } from '../../testing/fixtures.ts';

const MAIN = resolve(import.meta.dir, '../../../../apps/cli/src/main.ts');
let root = '';
let fx: Record<'python' | 'go' | 'javascript', Fixture>;

/** A commit on a new branch from `from` writing `files`; returns its sha. */
function branchCommit(f: Fixture, branch: string, from: string, files: Record<string, string>): string {
  git(f.dir, 'checkout', '-q', '-b', branch, from);
  for (const [p, text] of Object.entries(files)) writeFileSync(join(f.dir, p), text);
  git(f.dir, 'add', '-A');
  git(f.dir, 'commit', '-qm', `${branch}`);
  const sha = git(f.dir, 'rev-parse', 'HEAD');
  git(f.dir, 'checkout', '-q', from);
  return sha;
}

const PY = (add: string, neg: string) =>
  `def add(a, b):\n    return ${add}\n\n\ndef mul(a, b):\n    return a * b + 1\n\n\ndef neg(a):\n    return ${neg}\n`;
const PY_TEST =
  'from calc import add, neg\n\n\ndef test_neg():\n    assert neg(2) == -2\n\n\ndef test_add():\n    assert add(2, 3) == 5\n';
const GO_SUB =
  'package calc\n\nfunc Add(a, b int) int { return a + b }\n\nfunc Mul(a, b int) int { return a * b }\n\nfunc Neg(a int) int { return -a }\n\nfunc Sub(a, b int) int { return a - b }\n';
const GO_SUB_TEST =
  'package calc\n\nimport "testing"\n\nfunc TestNeg(t *testing.T) {\n\tif Neg(2) != -2 {\n\t\tt.Fatal("neg")\n\t}\n}\n\nfunc TestSub(t *testing.T) {\n\tif Sub(5, 3) != 2 {\n\t\tt.Fatal("sub")\n\t}\n}\n';

let commits: Record<string, string> = {};

beforeAll(async () => {
  await ensureDocker();
  root = mkdtempSync(join(tmpdir(), 'faun-exec-validate-'));
  fx = {
    python: makeFixture('python', root, { flaky: true }),
    go: makeFixture('go', root),
    javascript: makeFixture('javascript', root),
  };
  const base = (f: Fixture) => f.instance.base_commit;
  commits = {
    py: git(fx.python.dir, 'rev-parse', 'main'),
    go: git(fx.go.dir, 'rev-parse', 'main'),
    js: git(fx.javascript.dir, 'rev-parse', 'main'),
    // the test patch calls Sub, which only the fix adds: without the fix nothing compiles (n2p)
    goN2p: branchCommit(fx.go, 'sub', base(fx.go), { 'calc.go': GO_SUB, 'calc_test.go': GO_SUB_TEST }),
    // the fix breaks neg, which passed with the test patch alone: Multi-SWE-bench rejects it
    pyRegress: branchCommit(fx.python, 'regress', base(fx.python), {
      'calc.py': PY('a + b', 'a'),
      'tests/test_calc.py': PY_TEST,
    }),
    // the "fix" fixes nothing the tests see
    pyNoFix: branchCommit(fx.python, 'nofix', base(fx.python), {
      'calc.py': `# a comment\n${PY('a - b', '-a')}`,
      'tests/test_calc.py': PY_TEST,
    }),
    // no test change at all: a build skip
    pyDocs: branchCommit(fx.python, 'docs', base(fx.python), { 'calc.py': PY('a + b', '-a') }),
  };
  const row = (f: Fixture, commit: string, pr: number) =>
    JSON.stringify({ repo: f.repo, commit, pr, problem_statement: `issue ${pr}: add and mul are wrong` });
  writeFileSync(
    join(root, 'commits.jsonl'),
    `${[
      row(fx.python, commits.py!, 1),
      row(fx.go, commits.go!, 1),
      row(fx.javascript, commits.js!, 1),
      row(fx.go, commits.goN2p!, 2),
      row(fx.python, commits.pyRegress!, 2),
      row(fx.python, commits.pyNoFix!, 3),
      row(fx.python, commits.pyDocs!, 4),
    ].join('\n')}\n`,
  );
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cli = async (...args: string[]) => {
  const p = Bun.spawn(['bun', MAIN, ...args, '--quiet'], { stdout: 'ignore', stderr: 'inherit' });
  return p.exited;
};
const jsonl = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** `faun build --tasks exec` over the fixtures' commits: six instances, each test file in its test patch. */
async function buildExec(out: string, repoDirs: string[]): Promise<void> {
  expect(
    await cli(
      'build',
      '--tasks',
      'exec',
      '--commits',
      join(root, 'commits.jsonl'),
      '--out',
      out,
      ...repoDirs,
    ),
  ).toBe(0);
  const funnel = JSON.parse(readFileSync(join(out, 'exec.funnel.json'), 'utf8'));
  expect(funnel).toMatchObject({ commits: 7, instances: 6, reasons: { 'no test changes': 1 } });
  const built = jsonl(join(out, 'exec.msb.jsonl'));
  expect(built.map((r) => r.instance_id)).toEqual([
    'fixtures/fixture-go:pr-1',
    'fixtures/fixture-go:pr-2',
    'fixtures/fixture-javascript:pr-1',
    'fixtures/fixture-python-flaky:pr-1',
    'fixtures/fixture-python-flaky:pr-2',
    'fixtures/fixture-python-flaky:pr-3',
  ]);
  // the split sends each fixture's test file to test_patch, the code to fix_patch
  expect(built[0].test_patch).toContain('calc_test.go');
  expect(built[0].fix_patch).not.toContain('calc_test.go');
  expect(built[2].test_patch).toContain('test/calc.test.js');
  expect(built[3].test_patch).toContain('tests/test_calc.py');
}

test('build --tasks exec → validate --rule multi-swe-bench --repeats 2', async () => {
  const repoDirs = Object.values(fx).flatMap((f) => ['--repo-dir', `${f.repo}=${f.dir}`]);
  const out = join(root, 'ds');
  await buildExec(out, repoDirs);

  const valid = join(root, 'valid.jsonl');
  const code = await cli(
    'validate',
    '--instances',
    join(out, 'exec.msb.jsonl'),
    '--rule',
    'multi-swe-bench',
    // two runs a stage find the planted flaky test (it fails on odd repeats)
    '--repeats',
    '2',
    // the stability check has its own tests: one round here
    '--gold-checks',
    '1',
    '--workers',
    '2',
    '--timeout',
    '120',
    '--out',
    valid,
    '--msb-out',
    join(root, 'valid.msb.jsonl'),
    '--swebench-out',
    join(root, 'valid.swebench.jsonl'),
    ...repoDirs,
  );
  expect(code).toBe(0);
  const swe = jsonl(join(root, 'valid.swebench.jsonl'));
  const by = Object.fromEntries(swe.map((r) => [r.instance_id, r]));
  expect(Object.keys(by).sort()).toEqual([
    'fixtures__fixture-go-1',
    'fixtures__fixture-go-2',
    'fixtures__fixture-javascript-1',
    'fixtures__fixture-python-flaky-1',
  ]);
  for (const f of [fx.python, fx.go, fx.javascript]) {
    const r = by[f.instance.instance_id];
    expect(r.FAIL_TO_PASS).toEqual([...f.instance.fail_to_pass].sort());
    expect(r.PASS_TO_PASS).toEqual([...f.instance.pass_to_pass].sort());
    expect(r.NONE_TO_PASS).toEqual([]);
  }
  // nothing compiles with the test patch alone: every test is NONE → PASS
  const n2p = ['TestNeg', 'TestSub'];
  expect(by['fixtures__fixture-go-2']).toMatchObject({
    FAIL_TO_PASS: n2p,
    PASS_TO_PASS: [],
    NONE_TO_PASS: n2p,
  });

  const msb = Object.fromEntries(jsonl(join(root, 'valid.msb.jsonl')).map((r) => [r.instance_id, r]));
  const py = msb['fixtures/fixture-python-flaky:pr-1'];
  expect(Object.keys(py.f2p_tests).sort()).toEqual([...fx.python.instance.fail_to_pass].sort());
  expect(py.p2p_tests['tests/test_calc.py::test_neg']).toEqual({ run: 'PASS', test: 'PASS', fix: 'PASS' });
  expect(py.run_result.passed_tests).toEqual(['tests/test_calc.py::test_neg']);
  expect(py.fix_patch_result.passed_count).toBe(3); // test_flaky dropped
  expect(Object.keys(msb['fixtures/fixture-go:pr-2'].n2p_tests).sort()).toEqual(n2p);

  const report = JSON.parse(readFileSync(`${valid}.report.json`, 'utf8'));
  const pyReport = report.find(
    (r: { instance_id: string }) => r.instance_id === 'fixtures/fixture-python-flaky:pr-1',
  );
  expect(pyReport.flaky).toEqual(['tests/test_calc.py::test_flaky']);
  const vf = JSON.parse(readFileSync(`${valid}.funnel.json`, 'utf8'));
  expect(vf).toMatchObject({ instances: 6, valid: 4 });
  expect(vf.dropped).toEqual([
    {
      instance_id: 'fixtures/fixture-python-flaky:pr-2',
      reason: 'test tests/test_calc.py::test_neg passed before the fix patch and fails after it',
    },
    {
      instance_id: 'fixtures/fixture-python-flaky:pr-3',
      reason: 'after the fix patch, no test went from not passing to passing',
    },
  ]);
}, 900_000);
