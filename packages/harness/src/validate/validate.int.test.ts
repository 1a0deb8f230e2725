/** `faun validate` on the fixtures: the planted F2P/P2P lists come back and a planted flaky test is dropped. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDocker } from '@faun/services';
import { FAUN_MAIN } from '../../testing/cli.ts';
import { type Fixture, makeFixture } from '../../testing/fixtures.ts';
import { instanceDirName } from '../run/stage-logs.ts';

let root = '';
let fxs: Fixture[] = [];

beforeAll(async () => {
  await ensureDocker();
  root = mkdtempSync(join(tmpdir(), 'faun-validate-int-'));
  fxs = [makeFixture('python', root, { flaky: true }), makeFixture('go', root)];
  // The rows carry no test lists: validation derives them. Plus one instance whose "fix" fixes nothing.
  const rows = fxs.map((f) => ({ ...f.instance, fail_to_pass: [], pass_to_pass: [] }));
  rows.push({ ...rows[1]!, instance_id: 'go-no-fix', patch: '' });
  writeFileSync(join(root, 'new.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const validateArgs = () => [
  'bun',
  FAUN_MAIN,
  'validate',
  '--instances',
  join(root, 'new.jsonl'),
  '--out',
  join(root, 'valid.jsonl'),
  ...'--repeats 3 --workers 2 --timeout 120'.split(' '),
  '--log-dir',
  join(root, 'logs'),
  '--stage-logs',
  join(root, 'stages'),
  ...fxs.flatMap((f) => ['--repo-dir', `${f.repo}=${f.dir}`]),
];

test('faun validate --repeats 3', async () => {
  const out = join(root, 'valid.jsonl');
  const p = Bun.spawn([...validateArgs(), '--quiet'], { stdout: 'ignore', stderr: 'inherit' });
  expect(await p.exited).toBe(0);
  const valid = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(valid.map((v) => v.instance_id)).toEqual(fxs.map((f) => f.instance.instance_id));
  for (const [i, f] of fxs.entries()) {
    expect(valid[i].fail_to_pass).toEqual([...f.instance.fail_to_pass].sort());
    expect(valid[i].pass_to_pass).toEqual([...f.instance.pass_to_pass].sort());
  }
  const report = JSON.parse(readFileSync(`${out}.report.json`, 'utf8'));
  expect(report[0].flaky).toEqual(['tests/test_calc.py::test_flaky']);
  // kept because gold resolved 3 rounds of 2 runs side by side (the default stability check)
  for (const r of report.filter((x: { valid: boolean }) => x.valid))
    expect(r.gold_checks).toEqual({ rounds: 3, parallel: 2, resolved: 6, runs: 6 });
  const health = readFileSync(join(root, 'logs', 'gold-health.jsonl'), 'utf8')
    .trim()
    .split('\n');
  expect(health.length).toBe(6 * report.filter((x: { valid: boolean }) => x.valid).length);
  expect(report[2]).toMatchObject({ instance_id: 'go-no-fix', valid: false, reason: 'no FAIL_TO_PASS test' });
  // Every stage run's test section is kept, named per stage and repeat, with what read it — the gold
  // stability check's six runs included.
  const py = fxs[0]!.instance;
  const d = join(root, 'stages', instanceDirName(py.instance_id));
  expect(readdirSync(d).sort()).toEqual([
    'after.2.log',
    'after.3.log',
    'after.log',
    'before.2.log',
    'before.3.log',
    'before.log',
    'gold-check.2.log',
    'gold-check.3.log',
    'gold-check.4.log',
    'gold-check.5.log',
    'gold-check.6.log',
    'gold-check.log',
    'instance.json',
  ]);
  expect(readFileSync(join(d, 'gold-check.6.log'), 'utf8')).toMatch(/PASSED/);
  expect(JSON.parse(readFileSync(join(d, 'instance.json'), 'utf8'))).toMatchObject({
    instance_id: py.instance_id,
    repo: py.repo,
    parser: expect.any(String),
  });
  const after = readFileSync(join(d, 'after.log'), 'utf8');
  for (const id of py.fail_to_pass) expect(after).toContain(id.split('::').at(-1) ?? id);
  expect(after).not.toContain('>>>>> faun test');
}, 600_000);

test('the same command again resumes from the journal: nothing runs, the same bytes', async () => {
  const out = join(root, 'valid.jsonl');
  const before = [out, `${out}.report.json`, `${out}.funnel.json`].map((f) => readFileSync(f, 'utf8'));
  const logs = fxs.map((f) => join(root, 'stages', instanceDirName(f.instance.instance_id), 'after.3.log'));
  const written = logs.map((l) => statSync(l).mtimeMs);
  const p = Bun.spawn(validateArgs(), { stdout: 'pipe', stderr: 'pipe' });
  const [out1, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  expect(await p.exited).toBe(0);
  expect(out1 + err).toContain('resuming: 3 validation(s)');
  expect(err).toContain('go-no-fix: rejected (journal)');
  // No stage ran again: its logs were not rewritten.
  expect(logs.map((l) => statSync(l).mtimeMs)).toEqual(written);
  expect([out, `${out}.report.json`, `${out}.funnel.json`].map((f) => readFileSync(f, 'utf8'))).toEqual(
    before,
  );
}, 120_000);
