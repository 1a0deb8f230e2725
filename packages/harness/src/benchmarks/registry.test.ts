import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MSB_ROW } from '../../testing/rows.ts';
import { toExecutionInstance } from '../rows/instances.ts';
import { testInstance } from '../run/test-instance.ts';
import type { Benchmark, Row } from './benchmark.ts';
import { FAUN } from './faun.ts';
import { MSB } from './msb.ts';
import {
  BENCHMARKS,
  benchmarkOf,
  benchmarkOfRow,
  benchmarkOfRule,
  idResolver,
  reportFormats,
} from './registry.ts';
import { SWEBENCH } from './swebench.ts';
import { SWEBENCH_JAVA } from './swebench-java.ts';

const dir = mkdtempSync(join(tmpdir(), 'faun-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const swe: Row = {
  instance_id: 'psf__requests-1',
  repo: 'psf/requests',
  base_commit: 'abc1234',
  patch: 'P',
  test_patch: 'T',
  problem_statement: 'Title\nBody',
  FAIL_TO_PASS: ['t::a'],
  PASS_TO_PASS: [],
};
const java: Row = { ...swe, instance_id: 'google__gson-7', repo: 'google/gson', language: 'java' };
const msb: Row = { ...MSB_ROW, resolved_issues: [{ number: 40, title: 'Issue', body: 'text' }] };
const own: Row = { ...toExecutionInstance(swe, 'swe') };

const forms: Array<[Benchmark, Row]> = [
  [SWEBENCH, swe],
  [SWEBENCH_JAVA, java],
  [MSB, msb],
  [FAUN, own],
];

describe('each benchmark recognises its own row form and no other', () => {
  for (const [b, row] of forms)
    test(b.name, () => {
      for (const [other, otherRow] of forms) expect(b.recognises(otherRow), other.name).toBe(other === b);
      expect(benchmarkOfRow(row)).toBe(b);
    });
  test('every benchmark is in the registry once', () => {
    expect(new Set(BENCHMARKS.map((b) => b.name)).size).toBe(BENCHMARKS.length);
    expect([...BENCHMARKS].sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      forms.map(([b]) => b).sort((a, b) => a.name.localeCompare(b.name)),
    );
  });
});

describe('one id per row', () => {
  test('the instance, the issue row and the row id agree, for every benchmark', () => {
    for (const [b, row] of forms) {
      const id = b.rowId(row);
      expect(toExecutionInstance(row, b.name).instance_id, b.name).toBe(id);
      expect(b.issueRow(row, b.name).id, b.name).toBe(id);
    }
    expect(MSB.rowId(msb)).toBe('fasterxml/jackson-core:pr-42');
  });
  test('ids round-trip through their parts, and neither form parses as the other', () => {
    for (const [b, id] of [
      [SWEBENCH, 'psf__requests-1'],
      [SWEBENCH, 'scikit-learn__scikit-learn-10297'],
      [SWEBENCH, 'a__b__c-3'],
      [MSB, 'fasterxml/jackson-core:pr-42'],
      [MSB, 'org/name.with:colons:pr-7'],
    ] as const) {
      const parts = b.parseId(id);
      expect(parts, id).not.toBeNull();
      expect(b.idFor(parts!)).toBe(id);
    }
    expect(SWEBENCH.parseId('fasterxml/jackson-core:pr-42')).toBeNull();
    expect(MSB.parseId('psf__requests-1')).toBeNull();
    expect(SWEBENCH.parseId('a__b__c-3')).toEqual({ org: 'a', name: 'b__c', number: 3 });
  });
  test("a Multi-SWE-bench instance's SWE-bench-form id resolves to it; other ids stay as given", () => {
    const instances = [toExecutionInstance(msb, 'msb'), toExecutionInstance(swe, 'swe')];
    expect(MSB.aliases(instances[0]!)).toEqual(['fasterxml__jackson-core-42']);
    const resolve = idResolver(instances);
    expect(resolve('fasterxml__jackson-core-42')).toBe('fasterxml/jackson-core:pr-42');
    expect(resolve('fasterxml/jackson-core:pr-42')).toBe('fasterxml/jackson-core:pr-42');
    expect(resolve('psf__requests-1')).toBe('psf__requests-1');
    expect(resolve('nobody__nothing-1')).toBe('nobody__nothing-1');
  });
});

describe('instances are held by the benchmark of their rule', () => {
  test('lookup by instance and by rule', () => {
    expect(benchmarkOf(toExecutionInstance(swe, 'a'))).toBe(SWEBENCH);
    expect(benchmarkOf(toExecutionInstance(java, 'b'))).toBe(SWEBENCH_JAVA);
    expect(benchmarkOf(toExecutionInstance(msb, 'c'))).toBe(MSB);
    // faun's own row validated under Multi-SWE-bench's rule keeps it
    const validated = { ...toExecutionInstance(msb, 'd'), v: 1 };
    expect(benchmarkOfRow(validated)).toBe(FAUN);
    expect(benchmarkOf(toExecutionInstance(validated, 'd'))).toBe(MSB);
    expect(benchmarkOfRule('multi-swe-bench')).toBe(MSB);
    expect(benchmarkOfRule('swebench')).toBe(SWEBENCH);
  });
  test('grading rules differ where the references differ', () => {
    expect(SWEBENCH.defaultEvalType('chartjs/Chart.js')).toBe('fail_only');
    expect(MSB.defaultEvalType('chartjs/Chart.js')).toBeNull();
    expect(SWEBENCH.referenceParser('google/gson', null)).toBe('swebench-maven');
    expect(MSB.referenceParser('google/gson', null)).toBe('msb-gson');
    expect(SWEBENCH_JAVA.referenceParser('google/gson', null)).toBe('swebench-maven');
    expect(MSB.validation.stages.map((s) => s.name)).toEqual(['run', 'test', 'fix']);
    expect(SWEBENCH.validation.stages.map((s) => s.name)).toEqual(['before', 'after']);
  });
});

describe('report format per benchmark', () => {
  test('SWE-bench writes <model>.<run_id>.json for every run; Multi-SWE-bench final_report.json', async () => {
    const a = testInstance({ instance_id: 'psf__requests-1', source: 'swebench' });
    const b = testInstance({ instance_id: 'org/repo:pr-2', source: 'multi-swe-bench' });
    const formats = reportFormats([a, b]);
    expect(formats.map((f) => [f.format.label, f.owned.map((i) => i.instance_id)])).toEqual([
      ['SWE-bench', ['psf__requests-1']],
      ['Multi-SWE-bench', ['org/repo:pr-2']],
    ]);
    expect(reportFormats([b]).map((f) => [f.format.label, f.owned.length])).toEqual([
      ['SWE-bench', 0],
      ['Multi-SWE-bench', 1],
    ]);
    expect(SWEBENCH_JAVA.report).toBe(SWEBENCH.report);
    const input = {
      runId: 'r1',
      model: 'org/m',
      instances: [a.instance_id, b.instance_id],
      predictions: [],
      results: [],
    };
    const ctx = { reportDir: dir, runDir: join(dir, 'run'), input, dirName: (id: string) => id };
    const swePath = (await SWEBENCH.report.write(ctx, [a])).path;
    expect(swePath).toBe(join(dir, 'org__m.r1.json'));
    expect(JSON.parse(readFileSync(swePath, 'utf8')).total_instances).toBe(2);
    const msbPath = (await MSB.report.write(ctx, [b])).path;
    expect(msbPath).toBe(join(dir, 'final_report.json'));
    expect(existsSync(msbPath)).toBe(true);
    expect(Object.keys(JSON.parse(readFileSync(msbPath, 'utf8')))).toContain('resolved_ids');
  });
});
