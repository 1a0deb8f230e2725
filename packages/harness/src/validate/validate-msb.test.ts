import { expect, test } from 'bun:test';
import type { ExecutionInstance } from '@faun/schema';
import type { TestMap } from '../parsers/index.ts';
import type { Validation } from './validate.ts';
import { deriveMsb, flakyTests } from './validate-msb.ts';
import { msbDatasetRow, swebenchRow, validationFunnel } from './validate-rows.ts';

const P = 'PASSED' as const;
const F = 'FAILED' as const;
const S = 'SKIPPED' as const;
const three = (m: TestMap) => [m, m, m];

test('categories: f2p, s2p, n2p and p2p as Multi-SWE-bench assigns them; FAIL_TO_PASS is their union', () => {
  const run = three({ keep: P, bug: F });
  const testStage = three({ keep: P, bug: F, skipped: S });
  const fix = three({ keep: P, bug: P, skipped: P, added: P });
  const d = deriveMsb(run, testStage, fix);
  expect(d.valid).toBe(true);
  expect({ f2p: d.f2p, s2p: d.s2p, n2p: d.n2p, p2p: d.pass_to_pass }).toEqual({
    f2p: ['bug'],
    s2p: ['skipped'],
    n2p: ['added'],
    p2p: ['keep'],
  });
  expect(d.fail_to_pass).toEqual(['added', 'bug', 'skipped']);
  expect(d.fixed).toEqual(['added', 'bug', 'skipped']);
  expect(d.stages.run).toEqual({ passed_tests: ['keep'], failed_tests: ['bug'], skipped_tests: [] });
});

test('a test that flips between repeats of any stage is dropped from every stage', () => {
  const run = three({ a: P });
  const testStage = [
    { a: P, b: F, flip: P },
    { a: P, b: F, flip: F },
    { a: P, b: F, flip: P },
  ];
  const fix = three({ a: P, b: P, flip: P });
  expect(flakyTests(run, testStage, fix)).toEqual(['flip']);
  const d = deriveMsb(run, testStage, fix);
  expect(d.flaky).toEqual(['flip']);
  expect(d.fail_to_pass).toEqual(['b']);
  expect(d.stages.fix.passed_tests).toEqual(['a', 'b']);
  // present in one repeat and absent in another is a flip too (NONE vs PASS)
  expect(flakyTests([{ x: P }, {}, { x: P }])).toEqual(['x']);
});

test('a test read with a trailing space in one repeat only (a duration printed once) is not flaky', () => {
  const spelt: TestMap[] = [{ 'f.js:t - : /': P }, { 'f.js:t - : / ': P }, { 'f.js:t - : /': P }];
  expect(flakyTests(spelt)).toEqual([]);
  // a real flip is still one, under every spelling it had
  expect(flakyTests([{ 'f.js:t ': P }, { 'f.js:t': F }, { 'f.js:t ': P }])).toEqual(['f.js:t', 'f.js:t ']);
});

test("invalid as Multi-SWE-bench's Report.check says: regression, nothing fixed, anomaly, no results", () => {
  expect(deriveMsb(three({ a: P }), three({ a: P, b: F }), three({ a: F, b: P })).error).toBe(
    'test a passed before the fix patch and fails after it',
  );
  expect(deriveMsb(three({ a: P }), three({ a: P, b: F }), three({ a: P, b: F })).error).toBe(
    'after the fix patch, no test went from not passing to passing',
  );
  // run PASS, test NONE, fix FAIL
  expect(deriveMsb(three({ a: P, c: P }), three({ b: F }), three({ a: F, b: P })).error).toBe(
    'anomalous pattern for a: run PASS, test NONE, fix FAIL',
  );
  expect(deriveMsb(three({ a: P }), three({ a: P }), three({})).valid).toBe(false);
});

const inst: ExecutionInstance = {
  v: 1,
  instance_id: 'acme/calc:pr-7',
  repo: 'acme/calc',
  language: 'go',
  base_commit: 'b'.repeat(40),
  patch: 'P',
  test_patch: 'T',
  fail_to_pass: [],
  pass_to_pass: [],
  problem_statement: 'Fix add\n\nit subtracts',
  version: null,
  environment_setup_commit: null,
  test_cmd: null,
  image: null,
};

test('validated rows in both shapes, and the funnel of dropped rows', () => {
  const m = deriveMsb(
    three({ keep: P, bug: F }),
    three({ keep: P, bug: F }),
    three({ keep: P, bug: P, added: P }),
  );
  const v: Validation = {
    instance_id: inst.instance_id,
    valid: true,
    reason: null,
    derived: { fail_to_pass: m.fail_to_pass, pass_to_pass: m.pass_to_pass, flaky: [] },
    msb: m,
    instance: inst,
  };
  const msbIn = {
    org: 'acme',
    repo: 'calc',
    number: 7,
    base: { label: 'acme:dev', ref: 'dev', sha: inst.base_commit },
    title: 'Fix add',
  };
  const swe = swebenchRow(inst, msbIn, v);
  expect(swe).toMatchObject({
    instance_id: 'acme__calc-7',
    FAIL_TO_PASS: ['added', 'bug'],
    PASS_TO_PASS: ['keep'],
    NONE_TO_PASS: ['added'],
    SKIP_TO_PASS: [],
  });
  const row = msbDatasetRow(inst, msbIn, v)!;
  expect(row).toMatchObject({ org: 'acme', repo: 'calc', number: 7, base: { ref: 'dev' }, fix_patch: 'P' });
  expect(row.f2p_tests).toEqual({ bug: { run: 'FAIL', test: 'FAIL', fix: 'PASS' } });
  expect(row.n2p_tests).toEqual({ added: { run: 'NONE', test: 'NONE', fix: 'PASS' } });
  expect(row.fix_patch_result).toMatchObject({ passed_count: 3, failed_count: 0, skipped_count: 0 });
  const dropped = (id: string, reason: string): Validation => ({
    ...v,
    instance_id: id,
    valid: false,
    reason,
    instance: null,
  });
  const f = validationFunnel([
    v,
    dropped('x', 'test a passed before the fix patch and fails after it'),
    dropped('y', 'test b passed before the fix patch and fails after it'),
    dropped('z', 'no environment spec for acme/calc'),
    dropped(
      'w',
      'run run 1: infra_error (environment build failed: image build failed for faun/env-x:1a2b:\nStep 1/7 : FROM t\nnpm ERR! Invalid comparator\n)',
    ),
  ]);
  expect(f).toMatchObject({
    instances: 5,
    valid: 1,
    reasons: {
      'a test passed before the fix patch and fails after it': 2,
      'no environment spec for acme/calc': 1,
      'run run 1: infra_error (environment build failed: image build failed for faun/env-x:1a2b': 1,
    },
  });
});

test('a test spelt with a trailing space in one stage only is one test to Report.check, spelt as after the fix', () => {
  const k = 'f.js:Format - : /';
  const d = deriveMsb([{ [k]: P }], [{ [k]: P, 'f.js:new': F }], [{ [`${k} `]: P, 'f.js:new': P }]);
  expect(d.valid).toBe(true);
  expect(d.pass_to_pass).toEqual([`${k} `]);
  expect(d.fail_to_pass).toEqual(['f.js:new']);
  expect(d.n2p).toEqual([]);
});
