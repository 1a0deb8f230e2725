/**
 * Validated instances written back in the two reference shapes (pure): SWE-bench rows (`FAIL_TO_PASS` /
 * `PASS_TO_PASS`) and Multi-SWE-bench `Dataset` rows (test categories as `{name: {run, test, fix}}`, stage
 * results with their counts), keeping what the input row carried (title, base ref, created_at…).
 */
import type { ExecutionInstance, MsbStageResult } from '@faun/schema';
import type { Row } from '../benchmarks/benchmark.ts';
import { MSB } from '../benchmarks/msb.ts';
import { benchmarkOfRow } from '../benchmarks/registry.ts';
import { prNumber } from '../benchmarks/row-grading.ts';
import { SWEBENCH } from '../benchmarks/swebench.ts';
import { type EnvSpec, perTestCommand } from '../envs/specs.ts';
import type { MsbTest } from '../grading/grading-msb.ts';
import type { Validation } from './validate.ts';

/** `owner/name` → org, name, and the PR number the instance id ends with (null when none). */
function ids(inst: ExecutionInstance): { org: string; name: string; number: number | null } {
  const [org = '', name = ''] = inst.repo.split('/');
  const m = /(?::pr-|-)(\d+)$/.exec(inst.instance_id);
  return { org, name, number: m ? Number(m[1]) : null };
}

/** Whether the input row is already in `target`'s form (its fields are kept as they are). */
const inFormOf = (row: Row, target: { form: string }) => benchmarkOfRow(row).form === target.form;

/**
 * A SWE-bench row of a validated instance. When the environment runs tests as SWE-bench's Java harness
 * does (`spec.perTestCmd`), the row carries that command over FAIL_TO_PASS ∪ PASS_TO_PASS and
 * `log_parser: parse_log_maven`, so `faun verify` grades it on that path.
 */
export function swebenchRow(inst: ExecutionInstance, row: Row, v: Validation, spec?: EnvSpec | null): Row {
  const { org, name, number } = ids(inst);
  const same = inFormOf(row, SWEBENCH);
  const kept = same ? row : {};
  const f2p = v.derived?.fail_to_pass ?? inst.fail_to_pass;
  const p2p = v.derived?.pass_to_pass ?? inst.pass_to_pass;
  return {
    ...kept,
    instance_id: same ? inst.instance_id : SWEBENCH.idFor({ org, name, number: number as number }),
    repo: inst.repo,
    base_commit: inst.base_commit,
    patch: inst.patch,
    test_patch: inst.test_patch,
    problem_statement: inst.problem_statement,
    hints_text: typeof kept.hints_text === 'string' ? kept.hints_text : '',
    version: inst.version,
    environment_setup_commit: inst.environment_setup_commit ?? inst.base_commit,
    created_at: typeof row.created_at === 'string' ? row.created_at : '',
    language: inst.language,
    FAIL_TO_PASS: f2p,
    PASS_TO_PASS: p2p,
    ...(v.msb ? { NONE_TO_PASS: v.msb.n2p, SKIP_TO_PASS: v.msb.s2p } : {}),
    ...msbParser(inst, v, spec),
    ...perTest(spec, [...f2p, ...p2p]),
  };
}

/**
 * Lists derived under Multi-SWE-bench's rule come from logs of its test commands, read by its parser; a
 * SWE-bench row of the same repository would be read by SWE-bench's (fmt: googletest output, but the logs are
 * ctest's), so the row names the parser its lists came from.
 */
function msbParser(inst: ExecutionInstance, v: Validation, spec?: EnvSpec | null): Row {
  if (!v.msb || !spec) return {};
  const pr = prNumber(inst.instance_id);
  const used = MSB.referenceParser(inst.repo, pr) ?? spec.parser;
  const otherwise = SWEBENCH.referenceParser(inst.repo, pr) ?? spec.parser;
  return used === otherwise ? {} : { log_parser: used };
}

function perTest(spec: EnvSpec | null | undefined, tests: string[]): Row {
  const cmd = spec ? perTestCommand(spec, tests) : null;
  return cmd === null ? {} : { test_cmd: cmd, log_parser: 'parse_log_maven' };
}

function testResult(r: MsbStageResult): Row {
  return {
    passed_count: r.passed_tests.length,
    failed_count: r.failed_tests.length,
    skipped_count: r.skipped_tests.length,
    passed_tests: r.passed_tests,
    failed_tests: r.failed_tests,
    skipped_tests: r.skipped_tests,
  };
}

/** A Multi-SWE-bench `Dataset` row of an instance validated with the multi-swe-bench rule. */
export function msbDatasetRow(inst: ExecutionInstance, row: Row, v: Validation): Row | null {
  const m = v.msb;
  if (!m) return null;
  const { org, name, number } = ids(inst);
  const tests = (names: string[]) => Object.fromEntries(names.map((n) => [n, m.check.tests[n] as MsbTest]));
  const statement = inst.problem_statement;
  const nl = statement.indexOf('\n');
  const title = nl < 0 ? statement.trim() : statement.slice(0, nl).trim();
  const same = inFormOf(row, MSB);
  const base = same ? {} : { title, body: nl < 0 ? '' : statement.slice(nl + 1).trim() };
  return {
    org,
    repo: name,
    number,
    state: 'closed',
    base: { label: `${org}:main`, ref: 'main', sha: inst.base_commit },
    resolved_issues: number === null ? [] : [{ number, title, body: base.body ?? '' }],
    tag: '',
    number_interval: '',
    ...base,
    ...(same ? row : {}),
    lang: inst.language,
    fix_patch: inst.patch,
    test_patch: inst.test_patch,
    fixed_tests: tests(m.fixed),
    p2p_tests: tests(m.pass_to_pass),
    f2p_tests: tests(m.f2p),
    s2p_tests: tests(m.s2p),
    n2p_tests: tests(m.n2p),
    run_result: testResult(m.stages.run),
    test_patch_result: testResult(m.stages.test),
    fix_patch_result: testResult(m.stages.fix),
  };
}

/** Counts and reasons of a validation: what was kept, what was dropped and why. */
export function validationFunnel(results: Validation[]): Row {
  const reasons: Record<string, number> = {};
  // one key per kind of reason: the test a reason names is left out, and only the first line of a reason
  // that quotes a log (an image build's output) is kept
  const kind = (r: string) =>
    r
      .split('\n', 1)[0]!
      .replace(/:$/, '')
      .replace(/^test \S+ passed/, 'a test passed')
      .replace(/pattern for \S+:/, 'pattern for a test:')
      .replace(/ \(.*\)$/, '');
  for (const r of results)
    if (!r.valid && r.reason) reasons[kind(r.reason)] = (reasons[kind(r.reason)] ?? 0) + 1;
  return {
    instances: results.length,
    valid: results.filter((r) => r.valid).length,
    dropped: results.filter((r) => !r.valid).map((r) => ({ instance_id: r.instance_id, reason: r.reason })),
    reasons,
  };
}
