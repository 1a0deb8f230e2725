/**
 * Runs published rows (I/O): per row, in faun's offline environment for its repository, the three stages
 * as Multi-SWE-bench runs them — run (no patch), test (test patch), fix (test patch + fix patch) — with the
 * whole-suite command. The test stage is the empty-patch control and the fix stage the gold run: each is
 * one run, graded against the published row's categories by Multi-SWE-bench's rule (gold is not re-run
 * until it passes). A fourth run is the test-patch-only control (the model patch is the test patch).
 * Each run's log is kept under OUT/runs/ and reused unless `fresh`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DockerBackend,
  deriveMsb,
  type EnvSpec,
  type InstanceRun,
  parseLog,
  runInstance,
  type TestMap,
} from '@faun/harness';
import type { ExecutionInstance } from '@faun/schema';
import { gitFileAt } from '../git-file.ts';
import { compareSets, diff, type InstanceRecord } from './compare.ts';
import type { PublishedRow, TestSets } from './rows.ts';
import { type BaseTree, planFor, type RepoPlan } from './upstream.ts';

export interface RunOptions {
  out: string;
  /** Git directories by `org/repo` (lowercased). */
  mirrors: Record<string, string>;
  specs: readonly EnvSpec[];
  fresh: boolean;
  timeoutS: number;
  log: (line: string) => void;
}

/** One stored run: the outcome, the graded status, the test output. */
interface StoredRun {
  outcome: string;
  resolved_status: string | null;
  error: string | null;
  duration_s: number;
  log: string;
}

const STAGES = ['run', 'test', 'fix', 'test-only'] as const;
type Stage = (typeof STAGES)[number];

function stageInputs(
  stage: Stage,
  row: PublishedRow,
  lang: RepoPlan['language'],
): { inst: ExecutionInstance; patch: string } {
  const inst: ExecutionInstance = { ...row.instance, language: lang };
  if (stage === 'run')
    return { inst: { ...inst, test_patch: '', fail_to_pass: [], pass_to_pass: [], msb: null }, patch: '' };
  if (stage === 'test') return { inst, patch: '' };
  if (stage === 'fix') return { inst, patch: row.instance.patch };
  return { inst, patch: row.instance.test_patch };
}

async function runStage(
  stage: Stage,
  row: PublishedRow,
  plan: RepoPlan,
  backend: DockerBackend,
  source: string,
  o: RunOptions,
): Promise<StoredRun & { reused: boolean }> {
  const file = join(o.out, 'runs', `${row.id}.${stage}.json`);
  if (!o.fresh && existsSync(file))
    return { ...(JSON.parse(readFileSync(file, 'utf8')) as StoredRun), reused: true };
  const { inst, patch } = stageInputs(stage, row, plan.language);
  o.log(`${row.id}: ${stage} …`);
  const r: InstanceRun = await runInstance(
    inst,
    { instance_id: inst.instance_id, model: `msb-published-${stage}`, patch },
    {
      backend,
      spec: plan.spec,
      source,
      runId: 'msb-published',
      timeoutS: o.timeoutS,
      log: (l) => o.log(`  ${l}`),
      runEmpty: true,
      reruns: 0,
    },
  );
  const stored: StoredRun = {
    outcome: r.result.outcome,
    resolved_status: r.result.resolved_status,
    error: r.result.error,
    duration_s: r.result.duration_s,
    log: r.artifacts['test_output.txt'],
  };
  o.log(`${row.id}: ${stage} ${stored.outcome} in ${stored.duration_s} s`);
  mkdirSync(join(o.out, 'runs'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(stored)}\n`);
  return { ...stored, reused: false };
}

/** What the plan reads of the base tree (null without a pom.xml): its POM, and which sources have mirrors. */
function baseTree(dir: string, commit: string, mirrors: Record<string, string>): BaseTree | null {
  const pomXml = gitFileAt(dir, commit, 'pom.xml');
  return pomXml === null ? null : { pomXml, hasSource: (repo) => repo.toLowerCase() in mirrors };
}

/** Runs that say nothing about the tests (the environment or the sandbox failed, or the run timed out). */
const BROKEN = new Set(['infra_error', 'timeout', 'apply_failed', 'bad_input']);

/** Runs one row; never throws for a row faun cannot run: the record says why. */
export async function runRow(row: PublishedRow, o: RunOptions): Promise<InstanceRecord> {
  const source = o.mirrors[`${row.org}/${row.repo}`.toLowerCase()];
  const p = planFor(
    row.org,
    row.repo,
    row.number,
    o.specs,
    source ? baseTree(source, row.base_sha, o.mirrors) : null,
  );
  const rec: InstanceRecord = {
    instance_id: row.id,
    repo: `${row.org}/${row.repo}`,
    number: row.number,
    base_sha: row.base_sha,
    error: null,
    upstream_command: null,
    command: null,
    deviations: [],
    faun: null,
    published: row.published,
    comparison: null,
    tests_run: null,
    gold_resolved: null,
    empty_resolved: null,
    test_only_resolved: null,
    outcomes: {},
  };
  if ('unsupported' in p) return { ...rec, error: p.unsupported };
  const { plan } = p;
  Object.assign(rec, {
    upstream_command: plan.upstream_command,
    command: plan.command,
    deviations: plan.deviations,
  });
  if (!source) return { ...rec, error: `no mirror of ${rec.repo} under --mirrors` };
  // the repository and the sources its environment is built with (their mirrors)
  const repoDirs: Record<string, string> = { [row.instance.repo]: source };
  for (const s of plan.spec.sources ?? []) {
    const dir = o.mirrors[s.repo.toLowerCase()];
    if (!dir)
      return { ...rec, error: `no mirror of ${s.repo} (a source of its environment) under --mirrors` };
    repoDirs[s.repo] = dir;
  }
  const backend = new DockerBackend('msb-published', { repoDirs });
  const runs: Partial<Record<Stage, StoredRun>> = {};
  const timings: Record<string, number> = {};
  for (const stage of STAGES) {
    const r = await runStage(stage, row, plan, backend, source, o);
    runs[stage] = r;
    rec.outcomes[stage] = r.outcome;
    // the duration of the run as measured when it ran (a reused run keeps it)
    timings[stage] = r.duration_s;
    if (BROKEN.has(r.outcome) && stage !== 'test-only')
      return {
        ...rec,
        error: `${stage} stage: ${r.outcome}${r.error ? ` (${r.error.split('\n')[0]})` : ''}`,
      };
  }
  writeFileSync(join(o.out, 'runs', `${row.id}.timings.json`), `${JSON.stringify(timings)}\n`);
  const parser = plan.spec.parser;
  if (!parser) return { ...rec, error: `the spec of ${rec.repo} names no parser` };
  const parse = (s: Stage): TestMap => parseLog(parser, runs[s]!.log);
  const d = deriveMsb([parse('run')], [parse('test')], [parse('fix')]);
  const faun: TestSets = {
    f2p_tests: [...d.f2p].sort(),
    p2p_tests: [...d.pass_to_pass].sort(),
    n2p_tests: [...d.n2p].sort(),
    s2p_tests: [...d.s2p].sort(),
  };
  const ranHere = Object.keys(parse('run'));
  const resolved = (s: Stage) => runs[s]!.resolved_status === 'RESOLVED_FULL';
  const controls = {
    gold_resolved: resolved('fix'),
    empty_resolved: resolved('test'),
    test_only_resolved: resolved('test-only'),
  };
  if (!ranHere.length && !Object.keys(parse('fix')).length)
    return {
      ...rec,
      ...controls,
      error: `no test ran in the run and fix stages: ${firstError(runs.run!.log)}`,
    };
  return {
    ...rec,
    faun,
    comparison: compareSets(faun, row.published),
    tests_run: row.run_tests
      ? (({ missing, extra }) => ({ missing, extra }))(diff(ranHere, row.run_tests))
      : null,
    ...controls,
  };
}

/** The first error line of a build log (what stopped it), or a note that there is none. */
export function firstError(log: string): string {
  const lines = log.split('\n');
  const line =
    lines.find((l) => /^\[ERROR\] \S.*\.java:\[\d+/.test(l)) ??
    lines.find((l) => /^\[ERROR\] \S/.test(l) || /^error[:[]/.test(l));
  return line ? line.replace(/^\[ERROR\] /, '').trim() : 'the log shows no error line';
}
