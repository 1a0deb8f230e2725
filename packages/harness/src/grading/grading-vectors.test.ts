/**
 * Hand-made grading cases (vectors/grading/cases.json) against the verdicts SWE-bench's and
 * Multi-SWE-bench's own grading code gave for them (vectors/grading/expected.json, see compute.py).
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MsbGrading, MsbStageResult } from '@faun/schema';
import { gradeLog } from './grading.ts';
import { msbEvaluate } from './grading-msb.ts';

const DIR = join(import.meta.dir, '..', '..', 'vectors', 'grading');
const read = (f: string) => JSON.parse(readFileSync(join(DIR, f), 'utf8'));

interface MsbCase {
  name: string;
  row: Partial<MsbGrading>;
  fix: MsbStageResult;
}
interface SweCase {
  name: string;
  log: string[];
  f2p: string[];
  p2p: string[];
  eval_type: 'pass_and_fail' | 'fail_only';
}
const cases = read('cases.json') as { msb: MsbCase[]; swebench: SweCase[] };
const expected = read('expected.json') as {
  msb: Array<{
    name: string;
    expected: { resolved: boolean; valid: boolean; categories: Record<string, string[]> };
  }>;
  swebench: Array<{
    name: string;
    expected: {
      resolved: boolean;
      patch_successfully_applied: boolean;
      tests_status?: Record<string, { success: string[]; failure: string[] }>;
    };
  }>;
};

const row = (r: Partial<MsbGrading>): MsbGrading => ({
  fixed_tests: [],
  p2p_tests: [],
  f2p_tests: [],
  s2p_tests: [],
  n2p_tests: [],
  run_result: null,
  test_patch_result: null,
  fix_patch_result: null,
  ...r,
});

test('every case has a reference verdict', () => {
  expect(expected.msb.map((e) => e.name)).toEqual(cases.msb.map((c) => c.name));
  expect(expected.swebench.map((e) => e.name)).toEqual(cases.swebench.map((c) => c.name));
  expect(cases.msb.length).toBeGreaterThanOrEqual(10);
  expect(cases.swebench.length).toBeGreaterThanOrEqual(10);
});

describe('Multi-SWE-bench rule', () => {
  cases.msb.forEach((c, i) => {
    test(c.name, () => {
      const want = expected.msb[i]!.expected;
      const v = msbEvaluate(row(c.row), c.fix);
      expect({ resolved: v.resolved, valid: v.valid }).toEqual({
        resolved: want.resolved,
        valid: want.valid,
      });
      expect(
        Object.fromEntries(Object.entries(v.check.categories).map(([k, ids]) => [k, [...ids].sort()])),
      ).toEqual(want.categories);
      // Through gradeLog too, from a log of the fix stage (faun's pytest parser reads these lines).
      const log = [
        ...c.fix.passed_tests.map((t) => `PASSED ${t}`),
        ...c.fix.failed_tests.map((t) => `FAILED ${t}`),
        ...c.fix.skipped_tests.map((t) => `SKIPPED ${t}`),
      ].join('\n');
      const g = gradeLog({
        log,
        framed: false,
        exitCode: null,
        parser: 'pytest',
        failToPass: [],
        passToPass: [],
        msb: row(c.row),
      });
      expect(g.resolved_status === 'RESOLVED_FULL').toBe(want.resolved);
    });
  });
});

describe('SWE-bench rule', () => {
  cases.swebench.forEach((c, i) => {
    test(c.name, () => {
      const want = expected.swebench[i]!.expected;
      const g = gradeLog({
        log: `${c.log.join('\n')}\n`,
        framed: false,
        exitCode: null,
        parser: 'pytest',
        exactIds: true,
        failToPass: c.f2p,
        passToPass: c.p2p,
        evalType: c.eval_type,
      });
      expect(g.valid).toBe(want.patch_successfully_applied);
      expect(g.resolved_status === 'RESOLVED_FULL').toBe(want.resolved);
      if (want.tests_status) {
        expect(g.tests_status.FAIL_TO_PASS).toEqual(want.tests_status.FAIL_TO_PASS!);
        expect(g.tests_status.PASS_TO_PASS).toEqual(want.tests_status.PASS_TO_PASS!);
      }
    });
  });
});
