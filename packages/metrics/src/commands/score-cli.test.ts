/** `faun score` end to end: input errors, duplicates, several models, run record outcomes, --quiet. */
import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliSandbox, flItem, predRow, qaItem, readJsonlFile } from './test-helpers.ts';

const { dir, faun, write, cleanup } = cliSandbox('faun-score-cli-');
afterAll(cleanup);
/** `faun score --task fl --dataset DATASET --predictions PREDS ...rest`. */
const scoreFl = (dataset: string, predictions: string, ...rest: string[]) =>
  faun(['score', '--task', 'fl', '--dataset', dataset, '--predictions', predictions, ...rest]);

describe('faun score input files', () => {
  test('a missing file or a folder is a usage error (exit 2) naming the option and the path', () => {
    const ds = write('fl.jsonl', [flItem('f1')]);
    const preds = write('fl-preds.jsonl', [predRow('f1', 'fl', 'm', 'pkg/b.py')]);
    const noDs = faun(['score', '--task', 'fl', '--dataset', 'nosuch.jsonl', '--predictions', preds]);
    expect(noDs.code).toBe(2);
    expect(noDs.stderr).toContain('faun: --dataset nosuch.jsonl: no such file');
    expect(noDs.stderr).not.toContain('unexpected error');
    const noPreds = faun(['score', '--task', 'fl', '--dataset', ds, '--predictions', 'gone.jsonl']);
    expect(noPreds.code).toBe(2);
    expect(noPreds.stderr).toContain('faun: --predictions gone.jsonl: no such file');
    mkdirSync(join(dir, 'adir'));
    const isDir = faun(['score', '--task', 'fl', '--dataset', 'adir', '--predictions', preds]);
    expect(isDir.code).toBe(2);
    expect(isDir.stderr).toContain('faun: --dataset adir: is a directory');
  }, 60_000);
});

describe('faun score duplicates', () => {
  const ds = write('dup-fl.jsonl', [flItem('f1'), flItem('f2')]);
  const preds = write('dup-preds.jsonl', [
    predRow('f1', 'fl', 'm', 'pkg/c.py'),
    predRow('f2', 'fl', 'm', 'pkg/b.py'),
    predRow('f1', 'fl', 'm', 'pkg/b.py'),
  ]);
  test('a repeated prediction id is an input error naming both lines', () => {
    const r = faun(['score', '--task', 'fl', '--dataset', ds, '--predictions', preds]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('dup-preds.jsonl:3: id: duplicate of line 1');
    expect(r.stderr).toContain('--dedupe');
  }, 60_000);
  test('--dedupe first|last keeps that line', () => {
    const args = ['score', '--task', 'fl', '--dataset', ds, '--predictions', preds, '--json'];
    const first = faun([...args, '--dedupe', 'first']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).aggregate.em.mean).toBe(0.5);
    const last = faun([...args, '--dedupe', 'last']);
    expect(last.code).toBe(0);
    expect(JSON.parse(last.stdout).aggregate.em.mean).toBe(1);
  }, 60_000);
});

describe('faun score files of another task', () => {
  const fl = write('task-fl.jsonl', [flItem('f1'), flItem('f2'), flItem('f3')]);
  test('QA predictions scored as FL: an input error naming the file, the first line and both tasks', () => {
    const preds = write('task-preds.jsonl', [
      predRow('f1', 'fl', 'm', 'pkg/b.py'),
      predRow('q1', 'qa', 'm', 'an answer'),
      predRow('q2', 'qa', 'm', 'another'),
    ]);
    const r = faun(['score', '--task', 'fl', '--dataset', fl, '--predictions', preds]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'task-preds.jsonl:2: task: this prediction is for task qa, but --task is fl (2 of 3 predictions are not fl)',
    );
  }, 60_000);
  test('an FL dataset scored as QA says so once', () => {
    const preds = write('task-qa-preds.jsonl', [predRow('f1', 'qa', 'm', 'x')]);
    const r = faun(['score', '--task', 'qa', '--dataset', fl, '--predictions', preds]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('task-fl.jsonl:1: task: this is an FL dataset; use --task fl');
    expect(r.stderr).not.toContain('task-fl.jsonl:2');
    const qa = write('task-qa.jsonl', [qaItem('q1', 'a')]);
    const asCe = faun(['score', '--task', 'ce', '--dataset', qa, '--predictions', preds]);
    expect(asCe.stderr).toContain('task-qa.jsonl:1: task: this is a QA dataset; use --task qa');
    const swapped = faun(['score', '--task', 'qa', '--dataset', preds, '--predictions', preds]);
    expect(swapped.code).toBe(1);
    expect(swapped.stderr).toContain('task-qa-preds.jsonl:1: this is a predictions file, not a dataset');
  }, 60_000);
});

describe('faun score prediction ids', () => {
  const fl = write('ids-fl.jsonl', [flItem('o/r#1'), flItem('o/r#2')]);
  test('ids not in the dataset are counted and listed on the terminal', () => {
    const preds = write('ids-some.jsonl', [
      predRow('o/r#1', 'fl', 'm', 'pkg/b.py'),
      ...['x1', 'x2', 'x3', 'x4', 'x5', 'x6'].map((id) => predRow(id, 'fl', 'm', 'a.py')),
    ]);
    const r = faun(['score', '--task', 'fl', '--dataset', fl, '--predictions', preds, '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('predictions for ids not in');
    expect(r.stderr).toContain('(ignored): 6: x1, x2, x3, x4, x5, …');
    expect(JSON.parse(r.stdout).unknown.count).toBe(6);
  }, 60_000);
  test('no prediction id matching the dataset is an input error showing an id of each', () => {
    const preds = write('ids-none.jsonl', [predRow('1', 'fl', 'm', 'a.py'), predRow('2', 'fl', 'm', 'a.py')]);
    const r = faun(['score', '--task', 'fl', '--dataset', fl, '--predictions', preds]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('none of the 2 prediction id(s)');
    expect(r.stderr).toContain('prediction ids look like "1", dataset ids like "o/r#1"');
    const empty = write('ids-empty.jsonl', []);
    const e = faun(['score', '--task', 'fl', '--dataset', fl, '--predictions', empty]);
    expect(e.code).toBe(1);
    expect(e.stderr).toContain('ids-empty.jsonl: no predictions');
  }, 60_000);
  test('--limit: predictions for items past the limit are neither scored nor unknown', () => {
    const preds = write('ids-limit.jsonl', [predRow('o/r#2', 'fl', 'm', 'pkg/b.py')]);
    const r = scoreFl(fl, preds, '--limit', '1', '--json');
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.unknown.count).toBe(0);
    expect(s.missing.ids).toEqual(['o/r#1']);
  }, 60_000);
});

describe('faun score with several models in one file', () => {
  const fl = write('models-fl.jsonl', [flItem('f1'), flItem('f2'), flItem('f3')]);
  const preds = write('models-preds.jsonl', [
    predRow('f1', 'fl', 'm', 'pkg/b.py'),
    predRow('f1', 'fl', 'm2', 'a.py'),
    predRow('f2', 'fl', 'm', 'pkg/b.py'),
  ]);
  test('one aggregate per model, each over the whole dataset', () => {
    const out = join(dir, 'models-scores.jsonl');
    const args = ['score', '--task', 'fl', '--dataset', fl, '--predictions', preds, '--out', out];
    const j = faun([...args, '--json', '--bootstrap', '0']);
    expect(j.code).toBe(0);
    const s = JSON.parse(j.stdout);
    expect(s.models).toEqual(['m', 'm2']);
    expect(s.aggregate).toBeUndefined();
    expect(s.by_model.m.aggregate.em.mean).toBeCloseTo(2 / 3, 12);
    expect(s.by_model.m.aggregate.em.n).toBe(3);
    expect(s.by_model.m.missing).toEqual({ count: 1, ids: ['f3'] });
    expect(s.by_model.m2.aggregate.em.mean).toBe(0);
    expect(s.by_model.m2.missing).toEqual({ count: 2, ids: ['f2', 'f3'] });
    expect(readJsonlFile(out).map((r) => `${r.model} ${r.id}`)).toEqual([
      'm f1',
      'm f2',
      'm f3',
      'm2 f1',
      'm2 f2',
      'm2 f3',
    ]);
    const t = faun(args);
    expect(t.code).toBe(0);
    expect(t.stdout).toContain('FL — model m: 3 items');
    expect(t.stdout).toContain('FL — model m2: 3 items');
    expect(t.stdout).toMatch(/model m: 3 items\n(.*\n){2}em\s+0\.6667/);
    expect(t.stdout).toMatch(/model m2: 3 items\n(.*\n){2}em\s+0\.0000/);
  }, 60_000);
  test('a model with no prediction for a dataset item is scored as all empty and named on stderr', () => {
    const p = write('models-stray.jsonl', [
      predRow('f1', 'fl', 'm', 'pkg/b.py'),
      predRow('zz', 'fl', 'm3', 'a.py'),
    ]);
    const r = scoreFl(fl, p, '--json', '--bootstrap', '0');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: model m3 has no prediction for any of the 3 scored items');
    const s = JSON.parse(r.stdout);
    expect(s.by_model.m3.aggregate.em.mean).toBe(0);
    expect(s.by_model.m3.missing.count).toBe(3);
  }, 60_000);
});

test('the score table labels every column and its separator has one dash run per column', () => {
  const fl = write('table-fl.jsonl', [flItem('f1')]);
  const preds = write('table-preds.jsonl', [predRow('f1', 'fl', 'm', 'pkg/b.py')]);
  const r = faun(['score', '--task', 'fl', '--dataset', fl, '--predictions', preds, '--bootstrap', '0']);
  expect(r.code).toBe(0);
  const lines = r.stdout.split('\n');
  const h = lines.findIndex((l) => l.startsWith('metric'));
  expect(lines[h]!.split(/\s{2,}/)).toEqual(['metric', 'mean', '95% CI (bootstrap)', 'n', 'better']);
  expect(lines[h + 1]).toBe('----------  ------  ------------------  -  --------'); // metric is as wide as em_lenient
  expect(lines[h + 2]!.split(/\s{2,}/)).toEqual(['em', '1.0000', '[1.0000, 1.0000]', '1', '↑ higher']);
}, 60_000);

test('run record outcomes: skipped without a prediction, error for a model error, pass when scored', () => {
  const fl = write('rec-fl.jsonl', [flItem('f1'), flItem('f2'), flItem('f3')]);
  const preds = write('rec-preds.jsonl', [
    predRow('f1', 'fl', 'm', 'a.py'),
    predRow('f2', 'fl', 'm', '', 'HTTP 500 from provider'),
  ]);
  const logs = join(dir, 'logs');
  const before = new Set(existsSync(logs) ? readdirSync(logs) : []);
  const r = faun(['score', '--task', 'fl', '--dataset', fl, '--predictions', preds]);
  expect(r.code).toBe(0);
  const run = readdirSync(logs).filter((d) => !before.has(d) && d.includes('score-fl'));
  expect(run.length).toBe(1);
  const summary = JSON.parse(readFileSync(join(logs, run[0]!, 'summary.json'), 'utf8'));
  expect(summary.counts).toEqual({ pass: 1, fail: 0, error: 1, timeout: 0, skipped: 1 });
  const samples = readJsonlFile(join(logs, run[0]!, 'samples.jsonl'));
  expect(samples.map((s) => [s.id, s.outcome])).toEqual([
    ['f1', 'pass'],
    ['f2', 'error'],
    ['f3', 'skipped'],
  ]);
  expect(samples[1]!.error).toBe('model error: HTTP 500 from provider');
}, 60_000);

test('--quiet prints the aggregate table and nothing else', () => {
  const fl = write('quiet-fl.jsonl', [flItem('f1'), flItem('f2')]);
  const preds = write('quiet-preds.jsonl', [predRow('f1', 'fl', 'm', 'pkg/b.py')]);
  const r = scoreFl(fl, preds, '--quiet', '--bootstrap', '0');
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  expect(lines[0]).toBe('FL — model m: 2 items');
  expect(lines[1]!.split(/\s{2,}/)).toEqual(['metric', 'mean', '95% CI (bootstrap)', 'n', 'better']);
  expect(lines.length).toBe(3 + 6); // title, head, separator, six FL metrics
  expect(lines[3]!.split(/\s{2,}/)).toEqual(['em', '0.5000', '[0.5000, 0.5000]', '2', '↑ higher']);
  expect(r.stdout).not.toContain('missing predictions');
  expect(r.stdout).not.toContain('per-item scores');
  expect(r.stderr).toBe('');
}, 60_000);
