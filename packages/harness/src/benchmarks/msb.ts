/**
 * Multi-SWE-bench (pure): rows `{org, repo, number, base.sha, fix_patch, test_patch, resolved_issues,
 * f2p/s2p/n2p/p2p_tests, run/test_patch/fix_patch_result}` with ids `org/repo:pr-N` (its `PullRequest.id`,
 * the keys of its `final_report.json`); the parser of its instance class per repository and PR range; its
 * three validation stages; its published images `<ns>/<org>_m_<repo>:pr-N` running `/home/fix-run.sh`;
 * its `final_report.json`.
 *
 * Input may also name an instance `org__repo-N` (SWE-bench's form, which prediction files made for
 * Multi-SWE-bench by SWE-bench-style agents carry, and which `faun build --from-swebench` gave
 * Multi-SWE-bench rows before): `aliases` lists it, and predictions are matched through it.
 */
import { join } from 'node:path';
import { InputError } from '@faun/kit';
import { type MsbGrading, type MsbStageResult, writeFileAtomic } from '@faun/schema';
import { prRangeHit, versionForPr } from '../envs/spec-versions.ts';
import { MSB_PARSERS, MSB_PR_PARSERS, tableParser } from '../parsers/select.ts';
import { formatCounts, msbFinalReport } from '../report/report-formats.ts';
import type { Benchmark, IdParts, ReportFormat, Row } from './benchmark.ts';
import { languageOf, msbShape, optional, str, testList } from './row-fields.ts';
import { SWEBENCH } from './swebench.ts';

/** A stored Multi-SWE-bench stage result (`TestResult`), or null when absent. */
function stageOf(v: unknown, where: string): MsbStageResult | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'object' || Array.isArray(v))
    throw new InputError(`${where}: expected {passed_tests, failed_tests, skipped_tests}`);
  const o = v as Record<string, unknown>;
  return {
    passed_tests: testList(o.passed_tests, `${where}.passed_tests`),
    failed_tests: testList(o.failed_tests, `${where}.failed_tests`),
    skipped_tests: testList(o.skipped_tests, `${where}.skipped_tests`),
  };
}

/** Every test category and stored stage result of a Multi-SWE-bench row. */
export function msbGrading(row: Row, where: string): MsbGrading {
  const cat = (k: string) => testList(row[k], `${where}: ${k}`);
  return {
    fixed_tests: cat('fixed_tests'),
    p2p_tests: cat('p2p_tests'),
    f2p_tests: cat('f2p_tests'),
    s2p_tests: cat('s2p_tests'),
    n2p_tests: cat('n2p_tests'),
    run_result: stageOf(row.run_result, `${where}: run_result`),
    test_patch_result: stageOf(row.test_patch_result, `${where}: test_patch_result`),
    fix_patch_result: stageOf(row.fix_patch_result, `${where}: fix_patch_result`),
  };
}

/** Multi-SWE-bench's image name: `<ns>/<org>_m_<repo>:pr-<N>` (name lowercased). */
export function msbImageName(namespace: string, org: string, repo: string, number: string | number): string {
  return `${`${namespace}/${org}_m_${repo}`.toLowerCase()}:pr-${number}`;
}

const idFor = (p: IdParts) => `${p.org}/${p.name}:pr-${p.number}`;

function parseId(id: string): IdParts | null {
  const m = /^([^/]+)\/(.+):pr-(\d+)$/.exec(id);
  return m ? { org: m[1]!, name: m[2]!, number: Number(m[3]) } : null;
}

const rowId = (row: Row) => `${row.org}/${row.repo}:pr-${row.number}`;

function toInstance(row: Row, where: string): Record<string, unknown> {
  const repo = `${row.org}/${row.repo}`;
  const base = row.base as { sha?: string } | undefined;
  const msb = msbGrading(row, where);
  return {
    instance_id: rowId(row),
    repo,
    language: languageOf(row),
    base_commit: str(base?.sha ?? row.base_commit),
    patch: str(row.patch ?? row.fix_patch),
    test_patch: str(row.test_patch),
    // every test that must pass after the fix and did not before (f2p, s2p, n2p)
    fail_to_pass: [...new Set([...msb.f2p_tests, ...msb.s2p_tests, ...msb.n2p_tests])],
    pass_to_pass: msb.p2p_tests,
    problem_statement: str(row.problem_statement ?? row.body),
    // rows carry no version: Multi-SWE-bench picks the environment by PR range, as versionForPr does
    version:
      row.version !== undefined && row.version !== null
        ? str(row.version)
        : versionForPr(repo, Number(row.number)),
    environment_setup_commit: row.environment_setup_commit ? str(row.environment_setup_commit) : null,
    test_cmd: row.test_cmd ? str(row.test_cmd) : null,
    image: row.image ? str(row.image) : null,
    source: 'multi-swe-bench',
    msb,
    eval_script: optional(row, 'eval_script'),
    log_parser: optional(row, 'log_parser'),
    eval_type: optional(row, 'eval_type'),
  };
}

export const msbReport: ReportFormat = {
  label: 'Multi-SWE-bench',
  async write(ctx) {
    const report = msbFinalReport(ctx.input);
    const path = join(ctx.reportDir, 'final_report.json');
    await writeFileAtomic(path, `${JSON.stringify(report, null, 4)}\n`);
    return { path, counts: formatCounts(report) };
  },
};

export const MSB: Benchmark = {
  name: 'multi-swe-bench',
  label: 'Multi-SWE-bench',
  recognises: msbShape,
  holds: (inst) => inst.source === 'multi-swe-bench',
  toInstance,
  rowId,
  issueRow(row, where) {
    const base = (row.base ?? {}) as { sha?: string };
    const issue = (Array.isArray(row.resolved_issues) ? row.resolved_issues[0] : null) as {
      number?: number;
      title?: string;
      body?: string;
    } | null;
    if (!base.sha)
      throw new InputError(`${where}: base.sha: missing — not a SWE-bench or Multi-SWE-bench row`);
    return {
      id: rowId(row),
      repo: `${row.org}/${str(row.repo)}`,
      baseCommit: base.sha,
      patch: typeof row.fix_patch === 'string' ? row.fix_patch : '',
      issueNumber: issue?.number ?? null,
      title: issue?.title ?? (typeof row.title === 'string' ? row.title : ''),
      body: issue?.body ?? (typeof row.body === 'string' ? row.body : ''),
      prNumber: typeof row.number === 'number' ? row.number : null,
      prTitle: typeof row.title === 'string' ? row.title : '',
      prBody: typeof row.body === 'string' ? row.body : '',
    };
  },
  form: 'multi-swe-bench',
  defaultModel: 'msb',
  idFor,
  parseId,
  aliases(inst) {
    const p = parseId(inst.instance_id);
    return p ? [SWEBENCH.idFor(p)] : [];
  },
  rule: 'multi-swe-bench',
  referenceParser(repo, pr) {
    const hit = pr === null ? null : prRangeHit(MSB_PR_PARSERS, repo, pr);
    return hit ? hit.parser : tableParser(MSB_PARSERS, repo);
  },
  defaultEvalType: () => null,
  validation: {
    stages: [
      { side: 'run', name: 'run' },
      { side: 'before', name: 'test' },
      { side: 'after', name: 'fix' },
    ],
    parseAsIs: true,
    derive: 'stages',
  },
  publishedPlan(inst, ns) {
    const p = parseId(inst.instance_id);
    if (!p) return null;
    return {
      image: inst.image ?? msbImageName(ns.msb, p.org, p.name, p.number),
      workdir: '/home',
      script: null,
      readsExitCode: true,
    };
  },
  report: msbReport,
};
