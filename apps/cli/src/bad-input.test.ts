/**
 * Bad input through the `faun` command: a clear message naming the file (and line), the right exit code
 * (2 for a bad flag or a missing file named on the command line, 1 for a bad line in a file), never a
 * stack trace.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@faun/kit';
import { testFlItem } from '@faun/schema/testing';

const MAIN = join(REPO_ROOT, 'apps/cli/src/main.ts');
const dir = mkdtempSync(join(tmpdir(), 'faun-bad-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'folder'));
writeFileSync(join(dir, 'bad.jsonl'), '{"instance_id": "a__b-1",\n');
const fl = testFlItem();
writeFileSync(join(dir, 'fl.jsonl'), `${JSON.stringify(fl)}\n`);
writeFileSync(
  join(dir, 'preds.jsonl'),
  `${JSON.stringify({ v: 1, id: 'o/r#1', task: 'fl', model: 'm', output: 'a.py' })}\n`,
);

function faun(...args: string[]) {
  const p = Bun.spawnSync(['bun', MAIN, ...args, '--log-dir', join(dir, 'logs')], {
    cwd: dir,
    env: { ...process.env, CI: '1' },
  });
  const stderr = p.stderr.toString();
  expect(stderr).not.toContain('unexpected error');
  expect(stderr).not.toMatch(/\n\s+at /);
  return { code: p.exitCode, stderr };
}

/** `faun score --task fl --dataset fl.jsonl --predictions FILE ...rest`. */
const scoreFl = (predictions: string, ...rest: string[]) =>
  faun('score', '--task', 'fl', '--dataset', 'fl.jsonl', '--predictions', predictions, ...rest);

/** Runs `faun …args` and expects exit `code` with every one of `messages` on stderr. */
function fails(code: number, messages: string[], ...args: string[]): void {
  const r = faun(...args);
  expect(r.code).toBe(code);
  for (const m of messages) expect(r.stderr).toContain(m);
}

/** `faun predict` over fl.jsonl with `model`. */
const predictFl = (model: string) => [
  'predict',
  '--task',
  'fl',
  '--dataset',
  'fl.jsonl',
  '--model',
  model,
  '--out',
  'o.jsonl',
];

test('a missing file is a usage error (exit 2) in every verb, naming the option and the path', () => {
  const cases: [string[], string][] = [
    [['score-pairs', '--metric', 'bleu', '--input', 'nope.jsonl'], '--input nope.jsonl: no such file'],
    [
      ['score', '--task', 'fl', '--dataset', 'nope.jsonl', '--predictions', 'preds.jsonl'],
      '--dataset nope.jsonl: no such file',
    ],
    [
      ['predict', '--task', 'fl', '--dataset', 'nope.jsonl', '--model', 'bm25', '--out', 'o.jsonl'],
      '--dataset nope.jsonl: no such file',
    ],
    [['build', '--from-swebench', 'nope.jsonl', '--out', 'ds'], '--from-swebench nope.jsonl: no such file'],
    [predictFl('replay:nope.jsonl'), '--model replay:nope.jsonl: no such file'],
    [
      ['verify', '--instances', 'nope.jsonl', '--predictions', 'gold'],
      '--instances nope.jsonl: no such file',
    ],
  ];
  for (const [args, message] of cases) {
    const r = faun(...args);
    expect(r.stderr).toContain(message);
    expect(r.code).toBe(2);
  }
}, 60_000);

test('build --from-swebench: a folder (exit 2) or a line that is not JSON (exit 1) is named', () => {
  fails(2, ['--from-swebench folder: is a directory'], 'build', '--from-swebench', 'folder', '--out', 'ds');
  fails(1, ['bad.jsonl:1: (line): not valid JSON'], 'build', '--from-swebench', 'bad.jsonl', '--out', 'ds');
}, 60_000);

test('predict --model replay:<bad file> names the file and line, exit 1', () => {
  const r = faun(...predictFl('replay:bad.jsonl'));
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('bad.jsonl:1');
}, 60_000);

test('--out pointing at a folder, or at an input, is a usage error (exit 2) for predict and score', () => {
  const p = faun('predict', '--task', 'fl', '--dataset', 'fl.jsonl', '--model', 'bm25', '--out', 'folder');
  expect(p.code).toBe(2);
  expect(p.stderr).toContain('--out folder: is a directory');
  const s = scoreFl('preds.jsonl', '--out', 'folder');
  expect(s.code).toBe(2);
  expect(s.stderr).toContain('--out folder: is a directory');
  const same = scoreFl('preds.jsonl', '--out', './preds.jsonl');
  expect(same.code).toBe(2);
  expect(same.stderr).toContain('is an input file');
}, 60_000);

const inst = {
  instance_id: 'acme__calc-1',
  repo: 'acme/calc',
  base_commit: 'abc1234',
  patch: 'diff --git a/calc.py b/calc.py\n',
  test_patch: '',
  problem_statement: 'add is wrong\nIt subtracts.',
  FAIL_TO_PASS: '["tests/test_calc.py::test_add"]',
  PASS_TO_PASS: '[]',
};
writeFileSync(join(dir, 'inst.jsonl'), `${JSON.stringify(inst)}\n`);
writeFileSync(join(dir, 'empty.jsonl'), '');

test('empty inputs are an error unless --allow-empty (score, build, verify)', () => {
  const cases: [string[], string][] = [
    [
      ['score', '--task', 'fl', '--dataset', 'empty.jsonl', '--predictions', 'preds.jsonl'],
      '--dataset empty.jsonl: no items',
    ],
    [
      ['score', '--task', 'fl', '--dataset', 'fl.jsonl', '--predictions', 'empty.jsonl'],
      '--predictions empty.jsonl: no predictions',
    ],
    [['build', '--from-swebench', 'empty.jsonl', '--out', 'ds-empty'], 'no items were built'],
    [
      ['verify', '--instances', 'empty.jsonl', '--predictions', 'gold', '--run-id', 'e1'],
      '--instances empty.jsonl: no instances',
    ],
    [
      ['verify', '--instances', 'inst.jsonl', '--predictions', 'empty.jsonl', '--run-id', 'e2'],
      '--predictions empty.jsonl: no predictions',
    ],
  ];
  for (const [args, message] of cases) {
    const r = faun(...args);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain('--allow-empty');
    expect(r.code).toBe(1);
  }
  const ok = scoreFl('empty.jsonl', '--allow-empty');
  expect(ok.code).toBe(0);
}, 60_000);

test('verify: a prediction for an unknown instance or without model_patch names its line', () => {
  const cases: [string, object, string][] = [
    [
      'unknown',
      { instance_id: 'other__x-9', model_patch: '' },
      "unknown.jsonl:1: instance_id: 'other__x-9' is not an instance of inst.jsonl",
    ],
    [
      'nopatch',
      { instance_id: 'acme__calc-1', model_name_or_path: 'm' },
      'nopatch.jsonl:1: model_patch: missing',
    ],
  ];
  for (const [name, row, message] of cases) {
    writeFileSync(join(dir, `${name}.jsonl`), `${JSON.stringify(row)}\n`);
    const r = faun('verify', '--instances', 'inst.jsonl', '--predictions', `${name}.jsonl`, '--run-id', name);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(message);
  }
}, 60_000);

test('build --from-swebench: a row without problem_statement names it; rows without files build nothing and fail', () => {
  const { problem_statement: _, ...noStatement } = inst;
  writeFileSync(join(dir, 'nostatement.jsonl'), `${JSON.stringify(noStatement)}\n`);
  const missing = 'nostatement.jsonl:1: problem_statement: missing';
  fails(1, [missing], 'build', '--from-swebench', 'nostatement.jsonl', '--out', 'ds1');
  const none = ['--from-swebench inst.jsonl: no items were built', '--repo-dir'];
  fails(1, none, 'build', '--from-swebench', 'inst.jsonl', '--out', 'ds2');
}, 60_000);

test('`-` reads an input file from standard input', () => {
  const pairs = `${JSON.stringify({ hyp: 'the cat sat', ref: 'the cat sat' })}\n`;
  const p = Bun.spawnSync(
    ['bun', MAIN, 'score-pairs', '--metric', 'em', '--input', '-', '--log-dir', join(dir, 'logs')],
    { cwd: dir, env: { ...process.env, CI: '1' }, stdin: Buffer.from(pairs) },
  );
  expect(p.exitCode).toBe(0);
  expect(JSON.parse(p.stdout.toString())).toMatchObject({ em: 1, hyp: 'the cat sat' });
  expect(p.stderr.toString()).toContain('em'.padEnd(28));
  const preds = Bun.spawnSync(
    ['bun', MAIN, 'score', '--task', 'fl', '--dataset', 'fl.jsonl', '--predictions', '-', '--json'],
    { cwd: dir, env: { ...process.env, CI: '1' }, stdin: Bun.file(join(dir, 'preds.jsonl')) },
  );
  expect(preds.exitCode).toBe(0);
  expect(JSON.parse(preds.stdout.toString()).aggregate.em.mean).toBe(1);
  const two = faun('score', '--task', 'fl', '--dataset', '-', '--predictions', '-');
  expect(two.code).toBe(2);
  expect(two.stderr).toContain('only one option can read standard input');
}, 60_000);

test('verify: a hostile row is refused before anything runs, naming its line and field, no stack trace', () => {
  const cases: [object[], string][] = [
    [[{ ...inst, instance_id: '../..' }], "hostile.jsonl:1: field 'instance_id' '../..' has '..'"],
    [[{ ...inst, repo: '../x' }], "hostile.jsonl:1: field 'repo' owner '..' is not a GitHub user"],
    [
      [inst, { ...inst, instance_id: inst.instance_id.toUpperCase() }],
      "hostile.jsonl:2: field 'instance_id' 'ACME__CALC-1' collides with 'acme__calc-1'",
    ],
  ];
  for (const [rows, message] of cases) {
    writeFileSync(join(dir, 'hostile.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const r = faun('verify', '--instances', 'hostile.jsonl', '--predictions', 'gold', '--run-id', 'h1');
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(r.code).toBe(1);
  }
}, 60_000);
