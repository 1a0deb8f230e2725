import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executionResult } from '../../testing/results.ts';
import { appendGoldRuns, goldRun, healthLines, healthReport, readGoldRuns } from './health.ts';

const root = mkdtempSync(join(tmpdir(), 'faun-health-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const at = (d: string) => new Date(`2026-12-0${d}T00:00:00Z`);
const failing = (ids: string[]) => ({
  FAIL_TO_PASS: { success: [], failure: ids },
  PASS_TO_PASS: { success: [], failure: [] },
  FAIL_TO_FAIL: { success: [], failure: [] },
  PASS_TO_FAIL: { success: [], failure: [] },
});

test('gold runs are appended per instance and read back; health lists those that ever failed, with per-test rates', async () => {
  const file = join(root, 'logs', 'gold-health.jsonl');
  await appendGoldRuns(file, [
    goldRun(executionResult('a', 'resolved'), 'r1', 'verify', at('1')),
    goldRun(executionResult('b', 'resolved'), 'r1', 'verify', at('1')),
    goldRun(executionResult('c', 'empty_patch'), 'r1', 'verify', at('1')), // not a run: nothing graded
  ]);
  await appendGoldRuns(file, [
    goldRun(
      executionResult('a', 'unresolved', { tests_status: failing(['t1', 't2']) }),
      'r2',
      'verify',
      at('2'),
    ),
    goldRun(executionResult('a', 'flaky', { tests_status: failing(['t1']) }), 'r3', 'validate', at('3')),
    goldRun(executionResult('b', 'resolved'), 'r3', 'validate', at('3')),
  ]);
  const runs = await readGoldRuns(file);
  expect(runs.map((r) => `${r.instance_id}:${r.outcome}`)).toEqual([
    'a:resolved',
    'b:resolved',
    'a:unresolved',
    'a:flaky',
    'b:resolved',
  ]);
  const h = healthReport(runs);
  expect(h).toEqual([
    {
      instance_id: 'a',
      runs: 3,
      failed: 2,
      outcomes: { flaky: 1, unresolved: 1 },
      last_run: '2026-12-03T00:00:00.000Z',
      last_failure: '2026-12-03T00:00:00.000Z',
      tests: [
        { test: 't1', failures: 2, runs: 3, rate: 2 / 3 },
        { test: 't2', failures: 1, runs: 3, rate: 1 / 3 },
      ],
    },
  ]);
  expect(healthReport(runs, true).map((x) => x.instance_id)).toEqual(['a', 'b']);
  expect(healthLines(h, 2)).toEqual([
    '1 of 2 instance(s) with gold runs had a gold failure',
    'a: gold failed 2/3 (unresolved 1, flaky 1); last failure 2026-12-03T00:00:00.000Z',
    '  67% 2/3 t1',
    '  33% 1/3 t2',
  ]);
});

test('a torn last line is skipped; a broken line elsewhere names the file and line', async () => {
  const file = join(root, 'torn.jsonl');
  const good = JSON.stringify(goldRun(executionResult('a', 'resolved'), 'r', 'verify', at('1')));
  writeFileSync(file, `${good}\n{"instance_id":"b","da`);
  expect((await readGoldRuns(file)).length).toBe(1);
  writeFileSync(file, `{oops\n${good}\n`);
  await expect(readGoldRuns(file)).rejects.toThrow(`${file}:1: not a JSON gold run`);
  await expect(readGoldRuns(join(root, 'missing.jsonl'))).rejects.toThrow('no gold health file');
  expect(readFileSync(file, 'utf8')).toContain('oops');
});

test('a test is one test in the health report whatever its spelling (trailing space, duration) in a run', () => {
  const runs = [
    goldRun(
      executionResult('d', 'unresolved', { tests_status: failing(['f.js:t - : / ']) }),
      'r1',
      'verify',
      at('1'),
    ),
    goldRun(
      executionResult('d', 'unresolved', { tests_status: failing(['f.js:t - : /']) }),
      'r2',
      'verify',
      at('2'),
    ),
    goldRun(executionResult('d', 'resolved'), 'r3', 'verify', at('3')),
  ];
  expect(runs.map((r) => r?.failing)).toEqual([['f.js:t - : /'], ['f.js:t - : /'], []]);
  // records written before names were stable are read by stable name too
  const old = { ...runs[0]!, failing: ['f.js:t - : /  (14ms)'] };
  const h = healthReport([old, runs[1]!, runs[2]!]);
  expect(h[0]!.tests).toEqual([{ test: 'f.js:t - : /', failures: 2, runs: 3, rate: 2 / 3 }]);
});
