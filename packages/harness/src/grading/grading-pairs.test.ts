/**
 * The same tests run twice, the runs differing only in timing, ordering, worker count or colour
 * (vectors/stable-names, rebuilt by vectors/scripts/pair-logs.sh): every parser that reads the runner's
 * output must give both logs the same stable name → status map, and grading must give both the same verdict
 * whichever run a row's test lists were taken from — by SWE-bench's rule and by Multi-SWE-bench's.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { MsbGrading } from '@faun/schema';
import { isParserName, type ParserName, parseLog, stableTestMap, type TestMap } from '../parsers/index.ts';
import { type GradeInput, gradeLog } from './grading.ts';
import { stageResult } from './grading-msb.ts';

const ROOT = join(import.meta.dir, '..', '..', 'vectors', 'stable-names');

interface Pair {
  runner: string;
  dir: string;
  a: string;
  b: string;
  /** What differs between the two runs. */
  differs: string;
  parsers: string[];
  source: Record<string, unknown>;
}

const PAIRS = JSON.parse(readFileSync(join(ROOT, 'pairs.json'), 'utf8')) as Pair[];

function readLog(dir: string, name: string): string {
  const raw = readFileSync(join(ROOT, dir, name));
  return (name.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
}

const MARK = (log: string) => `>>>>> Start Test Output\n${log}\n>>>>> End Test Output\n`;

/** A row's lists as a reference run of `tests` would give them: three FAIL_TO_PASS, the other passing P2P. */
function lists(tests: TestMap): { f2p: string[]; p2p: string[] } {
  const passed = Object.keys(tests)
    .filter((k) => tests[k] === 'PASSED')
    .sort();
  return { f2p: passed.slice(0, 3), p2p: passed.slice(3) };
}

function sweGrade(parser: ParserName, log: string, l: { f2p: string[]; p2p: string[] }) {
  const input: GradeInput = {
    log: MARK(log),
    framed: false,
    exitCode: null,
    parser,
    exactIds: true,
    failToPass: l.f2p,
    passToPass: l.p2p,
  };
  const g = gradeLog(input);
  return { resolved: g.resolved_status, tests_status: g.tests_status };
}

/** Multi-SWE-bench's rule, the stored run and test stages being run `from` with the F2P tests failing. */
function msbGrade(parser: ParserName, log: string, from: TestMap) {
  const l = lists(from);
  const before = stageResult(from);
  const moved = {
    passed_tests: before.passed_tests.filter((t) => !l.f2p.includes(t)),
    failed_tests: [...before.failed_tests, ...l.f2p].sort(),
    skipped_tests: before.skipped_tests,
  };
  const msb: MsbGrading = {
    fixed_tests: l.f2p,
    run_result: moved,
    test_patch_result: moved,
    fix_patch_result: null,
    p2p_tests: l.p2p,
    f2p_tests: l.f2p,
    s2p_tests: [],
    n2p_tests: [],
  };
  const g = gradeLog({
    log,
    framed: false,
    exitCode: null,
    parser,
    failToPass: [],
    passToPass: [],
    msb,
  });
  return { resolved: g.resolved_status, note: g.note, tests_status: g.tests_status };
}

describe('two real runs of the same tests give the same names and verdicts', () => {
  test('the pairs cover jest, vitest, mocha, TAP, node --test, go test (-v and -json), cargo, pytest, unittest, sympy, ctest, GoogleTest, Surefire, Gradle and automake', () => {
    const runners = new Set(PAIRS.map((p) => p.runner));
    const want = [
      'jest',
      'vitest',
      'mocha',
      'tap',
      'node-test',
      'go-v',
      'go-json',
      'cargo',
      'pytest',
      'pytest-colour',
    ];
    want.push('unittest', 'sympy', 'ctest', 'gtest', 'surefire', 'gradle', 'automake');
    for (const r of want) expect(runners).toContain(r);
  });
  for (const p of PAIRS) {
    const a = readLog(p.dir, p.a);
    const b = readLog(p.dir, p.b);
    for (const name of p.parsers) {
      const label = `${p.dir} ${p.a} / ${p.b} (${p.differs}) — ${name}`;
      const parser = name as ParserName;
      test(`${label}: stable names`, () => {
        if (!isParserName(name)) throw new Error(`vectors/stable-names/pairs.json: unknown parser "${name}"`);
        const [ma, mb] = [stableTestMap(parseLog(parser, a)), stableTestMap(parseLog(parser, b))];
        expect(Object.keys(ma).length).toBeGreaterThanOrEqual(3);
        expect(mb).toEqual(ma);
      });
      test(`${label}: SWE-bench's rule`, () => {
        const [ta, tb] = [parseLog(parser, a), parseLog(parser, b)];
        for (const l of [lists(ta), lists(tb)]) {
          const ga = sweGrade(parser, a, l);
          expect(ga.resolved).toBe('RESOLVED_FULL');
          expect(sweGrade(parser, b, l)).toEqual(ga);
        }
      });
      test(`${label}: Multi-SWE-bench's rule`, () => {
        const [ta, tb] = [parseLog(parser, a), parseLog(parser, b)];
        for (const from of [ta, tb]) {
          const ga = msbGrade(parser, a, from);
          expect(ga.resolved).toBe('RESOLVED_FULL');
          expect(msbGrade(parser, b, from)).toEqual(ga);
        }
      });
    }
  }
});
