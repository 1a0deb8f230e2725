import { expect, test } from 'bun:test';
import type { TestMap } from '../parsers/index.ts';
import { testInstance } from '../run/test-instance.ts';
import { deriveTests, keptInstances, type Validation } from './validate.ts';

test('deriveTests: F2P, P2P, new tests count as failing before, flaky tests dropped', () => {
  const before = [
    { a: 'FAILED', b: 'PASSED', f: 'PASSED', x: 'FAILED' },
    { a: 'FAILED', b: 'PASSED', f: 'FAILED', x: 'FAILED' },
  ] as const;
  const after = [
    { a: 'PASSED', b: 'PASSED', f: 'PASSED', x: 'FAILED', n: 'PASSED' },
    { a: 'PASSED', b: 'PASSED', f: 'PASSED', x: 'FAILED', n: 'PASSED' },
  ] as const;
  expect(deriveTests([...before], [...after])).toEqual({
    fail_to_pass: ['a', 'n'],
    pass_to_pass: ['b'],
    flaky: ['f'],
  });
});

test('deriveTests: a test that disappears after the fix is neither F2P nor P2P', () => {
  expect(deriveTests([{ a: 'PASSED' }], [{}])).toEqual({ fail_to_pass: [], pass_to_pass: [], flaky: [] });
});

test('deriveTests: a test spelt with a trailing space or a duration in some runs is one test, listed as after the fix', () => {
  const k = 'f.js:Format - : /';
  const before: TestMap[] = [
    { [k]: 'PASSED', 'f.js:new': 'FAILED' },
    { [`${k} `]: 'PASSED', 'f.js:new': 'FAILED' },
  ];
  const after: TestMap[] = [
    { [`${k} `]: 'PASSED', 'f.js:new (12 ms)': 'PASSED' },
    { [k]: 'PASSED', 'f.js:new': 'PASSED' },
  ];
  expect(deriveTests(before, after)).toEqual({
    fail_to_pass: ['f.js:new (12 ms)'],
    pass_to_pass: [`${k} `],
    flaky: [],
  });
});

test('keptInstances: an unstable instance (not valid, its derived instance kept for the report) is not a kept row', () => {
  const v = (id: string, valid: boolean, withInstance: boolean): Validation => ({
    instance_id: id,
    valid,
    reason: valid ? null : 'unstable: gold infra_error in round 2 of 3 (2 of 4 runs): T',
    derived: null,
    instance: withInstance ? testInstance({ instance_id: id }) : null,
  });
  const kept = keptInstances([
    v('o/r:pr-1', true, true),
    v('o/r:pr-2', false, true),
    v('o/r:pr-3', false, false),
  ]);
  expect(kept.map((r) => r.instance_id)).toEqual(['o/r:pr-1']);
});
