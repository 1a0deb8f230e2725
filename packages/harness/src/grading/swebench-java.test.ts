/** SWE-bench's Java path: one Maven run per test, read by parse_log_maven, carried by --swebench-out rows. */
import { expect, test } from 'bun:test';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionInstance } from '@faun/schema';
import { rowGrading } from '../benchmarks/row-grading.ts';
import { type EnvSpec, perTestCommand, specFor } from '../envs/specs.ts';
import { parseLog } from '../parsers/index.ts';
import { testInstance } from '../run/test-instance.ts';
import type { Validation } from '../validate/validate.ts';
import { swebenchRow } from '../validate/validate-rows.ts';

const jackson = testInstance({ repo: 'FasterXML/jackson-core', language: 'java', version: '2.14' });

/** Runs `cmd` with a stand-in `mvn` that passes the tests named in `passing` and fails the others. */
function runWithFakeMaven(cmd: string, passing: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'faun-mvn-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'mvn'),
    [
      '#!/bin/bash',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
      'for a in "$@"; do case "$a" in -Dtest=*) t="${a#-Dtest=}";; esac; done',
      'echo "[INFO] Running $t"',
      `case ' ${passing.join(' ')} ' in *" $t "*) echo '[INFO] BUILD SUCCESS';; *) echo '[INFO] BUILD FAILURE'; exit 1;; esac`,
    ].join('\n'),
  );
  chmodSync(join(bin, 'mvn'), 0o755);
  const p = Bun.spawnSync(['bash', '-c', cmd], { cwd: dir, env: { PATH: `${bin}:${process.env.PATH}` } });
  return p.stdout.toString() + p.stderr.toString();
}

test("jackson-core's per-test command runs every test once, whatever the previous gave, and parse_log_maven reads each", () => {
  const spec = specFor(jackson)!;
  const tests = ['com.fasterxml.jackson.core.read.FooTest', 'a.B$Inner', 'c.D#testX', 'a.B$Inner'];
  const cmd = perTestCommand(spec, tests)!;
  expect(cmd.split('\n')[0]).toBe('rm -rf target');
  const log = runWithFakeMaven(cmd, ['a.B$Inner']);
  expect(parseLog('swebench-maven', log)).toEqual({
    'com.fasterxml.jackson.core.read.FooTest': 'FAILED',
    'a.B$Inner': 'PASSED',
    'c.D#testX': 'FAILED',
  });
});

test('a spec without a per-test command gives none; an id that is not one word is refused', () => {
  const spec: EnvSpec = { ...specFor(jackson)!, perTestCmd: undefined };
  expect(perTestCommand(spec, ['a.B'])).toBeNull();
  expect(() => perTestCommand(specFor(jackson)!, ['a.B; rm -rf /'])).toThrow("test id 'a.B; rm -rf /'");
});

test('--swebench-out rows of jackson-core carry the per-test command and parse_log_maven, and grade on that path', () => {
  const inst = { ...jackson, fail_to_pass: ['x.FTest'], pass_to_pass: ['x.PTest'] };
  const v: Validation = {
    instance_id: inst.instance_id,
    valid: true,
    reason: null,
    derived: { fail_to_pass: ['x.FTest'], pass_to_pass: ['x.PTest'], flaky: [] },
    instance: inst,
  };
  const row = swebenchRow(inst, {}, v, specFor(inst));
  expect(row.log_parser).toBe('parse_log_maven');
  expect(String(row.test_cmd)).toContain("-Dtest='x.FTest'");
  expect(String(row.test_cmd)).toContain("-Dtest='x.PTest'");
  const grading = rowGrading({ ...inst, source: 'swebench', log_parser: 'parse_log_maven' }, specFor(inst)!);
  expect(grading).toMatchObject({ parser: 'swebench-maven' });
  // Other languages' rows are unchanged.
  const py = testInstance({ repo: 'o/r', language: 'python' });
  expect(swebenchRow(py, {}, { ...v, instance: py }, specFor(py))).not.toHaveProperty('test_cmd');
});

test("rows validated under Multi-SWE-bench's rule name its parser when SWE-bench's would read another log", () => {
  const msb = { f2p: [], n2p: ['format-test'], s2p: [], p2p: [] } as unknown as Validation['msb'];
  const row = (repo: string, language: ExecutionInstance['language']) => {
    const inst = testInstance({ repo, language, instance_id: `${repo.replace('/', '__')}-3900` });
    const v: Validation = {
      instance_id: inst.instance_id,
      valid: true,
      reason: null,
      derived: { fail_to_pass: ['format-test'], pass_to_pass: [], flaky: [] },
      instance: inst,
      msb,
    };
    return swebenchRow(inst, {}, v, specFor(inst));
  };
  // fmt: the logs are ctest's (Multi-SWE-bench's command); SWE-bench's parser for fmt reads googletest output
  const fmt = row('fmtlib/fmt', 'cpp');
  expect(fmt.log_parser).toBe('msb-ctest');
  const g = rowGrading(
    { ...testInstance({ repo: 'fmtlib/fmt', language: 'cpp' }), log_parser: 'msb-ctest' },
    specFor(testInstance({ repo: 'fmtlib/fmt', language: 'cpp' }))!,
  );
  expect(g).toMatchObject({ parser: 'msb-ctest', exactIds: true });
  // bytes: SWE-bench has no parser of its own for it; the spec's (Multi-SWE-bench's) is used anyway
  expect(row('tokio-rs/bytes', 'rust')).not.toHaveProperty('log_parser');
});
