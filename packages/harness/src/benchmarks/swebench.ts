/**
 * SWE-bench (pure): rows `{instance_id, repo, base_commit, patch, test_patch, FAIL_TO_PASS, PASS_TO_PASS, …}`
 * with ids `owner__repo-N`; its per-repository parser choice (MAP_REPO_TO_PARSER) and `fail_only`
 * repositories; v5 rows' own `eval_script` in its published images `<ns>/sweb.eval.x86_64.<id>`; its run
 * report `<model>.<run_id>.json`.
 */
import { InputError } from '@faun/kit';
import type { ExecutionInstance } from '@faun/schema';
import type { EvalType } from '../grading/grading-swebench.ts';
import { SWE_MARKERS } from '../grading/grading-swebench.ts';
import { SWEBENCH_PARSERS, tableParser } from '../parsers/select.ts';
import type { Benchmark, IdParts, IssueRow, Row } from './benchmark.ts';
import { faunShape, languageOf, msbShape, optional, str, testList, titleBody } from './row-fields.ts';
import { swebenchReport } from './swebench-report.ts';

/** Repositories SWE-bench grades `fail_only` (their parsers record failures only). */
export const FAIL_ONLY_REPOS: ReadonlySet<string> = new Set([
  'chartjs/Chart.js',
  'processing/p5.js',
  'markedjs/marked',
  'bpmn-io/bpmn-js',
  'openlayers/openlayers',
  'eslint/eslint',
]);

/** SWE-bench's image name: `<ns>/sweb.eval.x86_64.<id lowercased>:latest`, every `__` written `_1776_`. */
export function swebenchImageName(namespace: string, instanceId: string, arch = 'x86_64'): string {
  return `${namespace}/sweb.eval.${arch}.${instanceId}:latest`.toLowerCase().replaceAll('__', '_1776_');
}

/**
 * The eval script SWE-bench runs for a v5 row: the row's script without its shebang and `set` line, the
 * test command's `$?` kept just before the end marker and echoed after it, under `#!/bin/bash` +
 * `set -uxo pipefail`.
 */
export function swebenchEvalScript(evalScript: string): string {
  const lines = evalScript
    .trim()
    .split('\n')
    .filter((l) => l !== '#!/bin/bash' && l !== 'set -uxo pipefail');
  const i = lines.findIndex((l) => l.includes(SWE_MARKERS.end));
  const VAR = 'SWEBENCH_TEST_EXIT_CODE';
  const body =
    i < 0
      ? lines
      : [
          ...lines.slice(0, i),
          `${VAR}=$?`,
          lines[i]!,
          `echo "${SWE_MARKERS.exitCode}: $${VAR}"`,
          ...lines.slice(i + 1),
        ];
  return `${['#!/bin/bash', 'set -uxo pipefail', ...body].join('\n')}\n`;
}

/** A SWE-bench-shaped row (SWE-bench, SWE-bench-java, faun's own) → the instance it describes. */
export function sweInstance(row: Row, where: string): Record<string, unknown> {
  return {
    instance_id: str(row.instance_id),
    repo: str(row.repo),
    language: languageOf(row),
    base_commit: str(row.base_commit),
    patch: str(row.patch ?? row.fix_patch),
    test_patch: str(row.test_patch),
    fail_to_pass: testList(row.FAIL_TO_PASS ?? row.fail_to_pass, `${where}: FAIL_TO_PASS`),
    pass_to_pass: testList(row.PASS_TO_PASS ?? row.pass_to_pass, `${where}: PASS_TO_PASS`),
    problem_statement: str(row.problem_statement ?? row.body),
    version: row.version !== undefined && row.version !== null ? str(row.version) : null,
    environment_setup_commit: row.environment_setup_commit ? str(row.environment_setup_commit) : null,
    test_cmd: row.test_cmd ? str(row.test_cmd) : null,
    image: row.image ? str(row.image) : null,
    source: 'swebench',
    msb: null,
    eval_script: optional(row, 'eval_script'),
    log_parser: optional(row, 'log_parser'),
    eval_type: optional(row, 'eval_type'),
  };
}

/** A SWE-bench-shaped row's issue (its `problem_statement`: first line the title) and fix. */
export function sweIssueRow(row: Row, where: string): IssueRow {
  const need = (cond: unknown, field: string) => {
    if (!cond) throw new InputError(`${where}: ${field}: missing — not a SWE-bench or Multi-SWE-bench row`);
  };
  need(row.instance_id, 'instance_id');
  need(row.repo, 'repo');
  need(row.base_commit, 'base_commit');
  need(typeof row.patch === 'string', 'patch');
  // the issue text is the whole input of FL and CE: a row without it would import with an empty issue
  if (typeof row.problem_statement !== 'string' || row.problem_statement.trim() === '')
    throw new InputError(
      `${where}: problem_statement: ${typeof row.problem_statement === 'string' ? 'empty' : 'missing'} — the issue text is the task's input`,
      { hint: 'use the full SWE-bench rows (they carry problem_statement)' },
    );
  const id = str(row.instance_id);
  const num = id.match(/-(\d+)$/);
  return {
    id,
    repo: str(row.repo),
    baseCommit: str(row.base_commit),
    patch: str(row.patch),
    issueNumber: null,
    ...titleBody(row.problem_statement),
    prNumber: num ? Number(num[1]) : null,
    prTitle: '',
    prBody: '',
  };
}

/** `owner__repo-N` → its parts (an owner has no `_`: the first `__` ends it). */
function parseSweId(id: string): IdParts | null {
  const m = /^([^_/]+(?:_[^_/]+)*)__(.+)-(\d+)$/.exec(id);
  return m ? { org: m[1]!, name: m[2]!, number: Number(m[3]) } : null;
}

/** What SWE-bench and the benchmarks that read its rows share: every method but the row test and name. */
export const SWEBENCH_SHAPE: Omit<Benchmark, 'name' | 'label' | 'recognises' | 'holds'> = {
  toInstance: sweInstance,
  rowId: (row) => str(row.instance_id),
  issueRow: sweIssueRow,
  form: 'swebench',
  defaultModel: 'model',
  idFor: (p) => `${p.org}__${p.name}-${p.number}`,
  parseId: parseSweId,
  aliases: () => [],
  rule: 'swebench',
  referenceParser: (repo) => tableParser(SWEBENCH_PARSERS, repo),
  defaultEvalType: (repo): EvalType | null => (FAIL_ONLY_REPOS.has(repo) ? 'fail_only' : null),
  validation: {
    stages: [
      { side: 'before', name: 'before' },
      { side: 'after', name: 'after' },
    ],
    parseAsIs: false,
    derive: 'sides',
  },
  publishedPlan(inst: ExecutionInstance, ns) {
    if (!inst.eval_script) return null;
    return {
      image: inst.image ?? swebenchImageName(ns.swebench, inst.instance_id),
      workdir: '/testbed',
      script: swebenchEvalScript(inst.eval_script),
      // the row's own script: SWE-bench does not read its exit status
      readsExitCode: false,
    };
  },
  report: swebenchReport,
};

export const SWEBENCH: Benchmark = {
  ...SWEBENCH_SHAPE,
  name: 'swebench',
  label: 'SWE-bench',
  recognises: (row) => !msbShape(row) && !faunShape(row) && languageOf(row) !== 'java',
  holds: (inst) => (inst.source ?? 'swebench') === 'swebench' && inst.language !== 'java',
};
