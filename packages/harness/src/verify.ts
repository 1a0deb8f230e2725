import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { RunRecord, sha256, within } from '@faun/kit';
import {
  type DeterminismContract,
  type ExecutionInstance,
  ExecutionResult,
  stableStringify,
  writeFileAtomic,
} from '@faun/schema';
import { benchmarkOf } from './benchmarks/registry.ts';
import { type WrittenReport, writeFormatReports } from './benchmarks/report-write.ts';
import { rowGrading } from './benchmarks/row-grading.ts';
import { type ImageLockState, trustedRow } from './envs/image-trust.ts';
import { DEFAULT_NAMESPACES, type ImageNamespaces, type PublishedPlan } from './envs/published.ts';
import { repoSource, treeOf } from './envs/repo.ts';
import { type EnvSpec, specFor, specId, specLimits } from './envs/specs.ts';
import { isEmptyPatch } from './files/patch.ts';
import { instanceDirName, type Meta, readJson } from './files/run-files.ts';
import { DEFAULT_RERUNS, type FlakyPolicy } from './grading/flaky.ts';
import { regradeInstance } from './regrade.ts';
import { appendGoldRuns, goldRun } from './report/health.ts';
import { instanceReport, type RunReport, runReport } from './report/report.ts';
import type { PatchPrediction } from './rows/instances.ts';
import { checkRows } from './rows/row-check.ts';
import { trustedPlan } from './rows/trust-rows.ts';
import { type InstanceRun, runInstance } from './run/run-instance.ts';
import { type TestInfraMode, testInfrastructure } from './run/test-infra.ts';
import { claimRunDir, identityOf, type RunIdentity } from './run-identity.ts';
import type { OutputLimits } from './sandbox/capture.ts';
import { determinismContract } from './sandbox/contract.ts';
import { type Backend, DEFAULT_LIMITS, type Limits } from './sandbox/sandbox.ts';

export interface VerifyOptions {
  instances: ExecutionInstance[];
  predictions: PatchPrediction[];
  runId: string;
  /** The run directory (`<log-dir>/<run-id>`). */
  dir: string;
  backend: Backend;
  workers?: number;
  timeoutS?: number;
  instanceIds?: string[];
  repoDirs?: Record<string, string>;
  /** Where clones of repositories are cached. */
  cacheDir?: string;
  limits?: Limits;
  /** `instance` (default) keeps instance images for later runs; `env` removes each after its instance. */
  cacheLevel?: 'env' | 'instance';
  specs?: EnvSpec[];
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** Called after each instance finishes (progress display). */
  onResult?: (r: ExecutionResult, reused: boolean) => void;
  argv?: string[];
  /** The command line that resumes this run (stored in summary.json when the run is interrupted). */
  resumeCommand?: string;
  /**
   * What the run is made from (default: hashes of `instances` and `predictions`). A run id already
   * holding a run of another identity is refused unless `overwrite` is set.
   */
  identity?: RunIdentity;
  /** Replace a stored run of another identity (its instance results are removed first). */
  overwrite?: boolean;
  /** Also write the reports in SWE-bench's and Multi-SWE-bench's own formats here. */
  reportDir?: string;
  /** `pull`: rows with a published image run in it (pulled when missing); `build` (default): faun builds. */
  images?: 'pull' | 'build';
  namespaces?: ImageNamespaces;
  /** Re-runs of an instance whose listed test failed, each in a fresh sandbox (default 2; 0 = none). */
  reruns?: number;
  /** A test that failed, then passed on a re-run, counts as `failed` (default, SWE-bench's rule) or `passed`. */
  flakyPolicy?: FlakyPolicy;
  /** How much test output each run keeps (head and tail). */
  maxOutput?: OutputLimits;
  /** Namespaces a trusted row's image may come from (default `swebench/`, `mswebench/`). */
  imageAllow?: string[];
  /** Pins every prebuilt image by content id (image-trust.ts); written back when entries were added. */
  imageLock?: ImageLockState;
  /** Where gold runs are recorded (health.ts), when the predictions are the gold patches. */
  healthFile?: string | null;
  /**
   * `drop` (default): files of a prediction that are the benchmark's test infrastructure are dropped before
   * the run and recorded (test-infra.ts); `keep`: applied as given (research on agents that write tests).
   */
  testInfra?: TestInfraMode;
  /**
   * Run an empty prediction (and one left empty by dropping its test infrastructure) like any other: its
   * tests run on the base with the test patch, so an empty-patch control can fail. Off by default: it is
   * graded `empty_patch` without a run, as SWE-bench does.
   */
  runEmpty?: boolean;
  /**
   * Rows are trusted (off by default): a row's own `eval_script` and `test_cmd` run (trust-rows.ts), and its
   * `image` is used when it comes from an `imageAllow` namespace (image-trust.ts).
   */
  trustRows?: boolean;
}

export interface VerifyOutcome {
  report: RunReport;
  results: ExecutionResult[];
  reused: number;
  cancelled: boolean;
  /** Reports written under `reportDir`. */
  formatReports: WrittenReport[];
}

/** Writes one instance's artifacts; result.json last, so its presence means the instance is complete. */
async function persist(
  dir: string,
  run: InstanceRun,
  meta: Meta & {
    nonce: string | null;
    framed: boolean;
    reruns: number;
    flaky_policy: FlakyPolicy;
    test_infra: TestInfraMode;
    run_empty?: boolean;
  },
): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(run.artifacts)) await writeFileAtomic(join(dir, name), text);
  await writeFileAtomic(join(dir, 'meta.json'), `${stableStringify(meta, 2)}\n`);
  await writeFileAtomic(
    join(dir, 'report.json'),
    `${stableStringify(instanceReport(run.result, meta.patch_empty), 2)}\n`,
  );
  await writeFileAtomic(join(dir, 'result.json'), `${stableStringify(run.result, 2)}\n`);
}

function sampleOutcome(r: ExecutionResult) {
  // tampered and flaky are never passes; flaky counts as passed only through --flaky-policy (then resolved)
  if (r.outcome === 'resolved') return 'pass' as const;
  if (r.outcome === 'timeout') return 'timeout' as const;
  if (r.outcome === 'infra_error') return 'error' as const;
  return 'fail' as const;
}

/** Runs (or resumes) a verification run. */
export async function verifyRun(opts: VerifyOptions): Promise<VerifyOutcome> {
  const log = opts.log ?? (() => {});
  checkRows(opts.instances);
  const wanted = opts.instanceIds?.length ? new Set(opts.instanceIds) : null;
  const instances = opts.instances.filter((i) => !wanted || wanted.has(i.instance_id));
  const preds = new Map(opts.predictions.map((p) => [p.instance_id, p]));
  const model = opts.predictions[0]?.model ?? 'none';
  const identity = opts.identity ?? identityOf(opts.instances, opts.predictions);
  if (await claimRunDir(opts.dir, opts.runId, identity, Boolean(opts.overwrite)))
    log(`--overwrite: removed the stored results of run ${opts.runId}`);
  await mkdir(join(opts.dir, 'instances'), { recursive: true });
  const reaped = (await opts.backend.reapOrphans?.()) ?? 0;
  if (reaped) log(`removed ${reaped} container(s) left by runs that are no longer alive`);
  const record = await RunRecord.start({
    dir: opts.dir,
    runId: opts.runId,
    resume: true, // rerunning a run id resumes it (finished instances are reused)
    command: 'verify',
    argv: opts.argv ?? [],
    options: {
      workers: opts.workers ?? 1,
      timeout_s: opts.timeoutS ?? 1800,
      backend: opts.backend.name,
      model,
      identity,
    },
  });

  const todo = instances.filter((i) => preds.has(i.instance_id));
  const own = todo.filter((i) => i.image).length;
  if (own && !opts.trustRows)
    log(`${own} row(s) name their own image: not used (--trust-rows uses images of allowed namespaces)`);
  const results = new Map<string, ExecutionResult>();
  let reused = 0;
  let next = 0;
  const work = async () => {
    while (next < todo.length && !opts.signal?.aborted) {
      const row = todo[next++]!;
      const pred = preds.get(row.instance_id)!;
      const t = trustedRow(row, Boolean(opts.trustRows), opts.imageAllow);
      const inst = 'row' in t ? t.row : row;
      const r = 'row' in t ? await runOne(inst, pred, opts, log) : unrun(inst, pred, 'bad_input', t.problem);
      if (!r) break;
      results.set(inst.instance_id, r.result);
      if (r.reused) reused++;
      else if (opts.healthFile && pred.model === 'gold')
        await appendGoldRuns(opts.healthFile, [goldRun(r.result, opts.runId, 'verify')]);
      if (!r.reused)
        await record.sample({
          id: inst.instance_id,
          outcome: sampleOutcome(r.result),
          duration_ms: r.result.duration_s * 1000,
          data: { outcome: r.result.outcome, resolved_status: r.result.resolved_status },
          error: r.result.error,
        });
      opts.onResult?.(r.result, r.reused);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.workers ?? 1) }, work));
  if (await opts.imageLock?.save()) log(`image lock ${opts.imageLock?.file}: updated`);

  const ordered = instances.flatMap((i) => results.get(i.instance_id) ?? []);
  const report = runReport({
    runId: opts.runId,
    model,
    instances,
    submitted: todo.map((i) => i.instance_id),
    // run empty patches (runEmpty) are graded like any other prediction, so they count as resolved when they are
    emptyPatch: opts.runEmpty
      ? []
      : todo.filter((i) => isEmptyPatch(preds.get(i.instance_id)?.patch)).map((i) => i.instance_id),
    results: ordered,
  });
  await writeFileAtomic(join(opts.dir, 'report.json'), `${stableStringify(report, 2)}\n`);
  const formatReports = opts.reportDir
    ? await writeFormatReports({
        reportDir: opts.reportDir,
        runDir: opts.dir,
        runId: opts.runId,
        model,
        instances,
        predictions: todo.map((i) => ({
          instance_id: i.instance_id,
          empty: isEmptyPatch(preds.get(i.instance_id)?.patch),
        })),
        results: ordered,
        dirName: instanceDirName,
      })
    : [];
  const cancelled = Boolean(opts.signal?.aborted);
  await record.finish(cancelled ? 'cancelled' : 'success', {
    outputs: { report: join(opts.dir, 'report.json') },
    metrics: { resolved_rate: report.resolved_rate, resolved_rate_ci95: report.resolved_rate_ci95, reused },
    resumeCommand: cancelled ? (opts.resumeCommand ?? null) : null,
  });
  return { report, results: ordered, reused, cancelled, formatReports };
}

/** The result of a row that is not run (no environment, a field that cannot be used). */
function unrun(
  inst: ExecutionInstance,
  pred: PatchPrediction,
  outcome: 'bad_input' | 'infra_error',
  error: string,
  specVersion: string | null = null,
): { result: ExecutionResult; reused: boolean } {
  const result = ExecutionResult.parse({
    v: 1,
    instance_id: inst.instance_id,
    model: pred.model,
    patch_sha256: sha256(pred.patch),
    outcome,
    resolved_status: null,
    applied_with: null,
    image_id: null,
    spec_version: specVersion,
    exit_code: null,
    tests_status: emptyStatus(inst),
    duration_s: 0,
    error,
  });
  return { result, reused: false };
}

/** The repository source and environment hash of a row (a published image's name when it runs in one). */
async function envOf(
  inst: ExecutionInstance,
  spec: EnvSpec,
  plan: PublishedPlan | null,
  opts: VerifyOptions,
): Promise<{ source: string; envHash: string } | { error: string }> {
  try {
    if (plan) return { source: '', envHash: sha256(`published:${plan.image}`).slice(0, 16) };
    const source = await repoSource(inst.repo, opts.repoDirs ?? {}, opts.cacheDir ?? '/var/cache/faun/repos');
    const tree = inst.image ? '' : await treeOf(source, inst.base_commit);
    return { source, envHash: opts.backend.envHash(inst, spec, tree) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/**
 * A stored result of the same run; the row's grading inputs (lists, parser) may have changed since: its
 * stored log is graded again, no container.
 */
async function reuse(
  dir: string,
  stored: ExecutionResult,
  current: Meta & { test_infra: string },
): Promise<{ result: ExecutionResult; reused: boolean }> {
  const meta = await readJson<Meta & { nonce: string | null; framed?: boolean }>(join(dir, 'meta.json'));
  const now = { ...meta, ...current, nonce: meta?.nonce ?? null, framed: meta?.framed ?? false };
  if (!meta || stableStringify(now) === stableStringify(meta))
    return { result: ExecutionResult.parse(stored), reused: true };
  const { result } = await regradeInstance(dir, ExecutionResult.parse(stored), now);
  await writeFileAtomic(join(dir, 'meta.json'), `${stableStringify(now, 2)}\n`);
  return { result, reused: true };
}

async function runOne(
  inst: ExecutionInstance,
  pred: PatchPrediction,
  opts: VerifyOptions,
  log: (l: string) => void,
): Promise<{ result: ExecutionResult; reused: boolean } | null> {
  const dir = within(opts.dir, ['instances', instanceDirName(inst.instance_id)], 'instance id');
  const spec = specFor(inst, opts.specs);
  const base = {
    v: 1 as const,
    instance_id: inst.instance_id,
    model: pred.model,
    patch_sha256: sha256(pred.patch),
  };
  if (!spec)
    return unrun(inst, pred, 'infra_error', `no environment spec for ${inst.repo} (${inst.language})`);
  const published =
    opts.images === 'pull'
      ? benchmarkOf(inst).publishedPlan(inst, opts.namespaces ?? DEFAULT_NAMESPACES)
      : null;
  // a row's own eval_script runs only when rows are trusted; otherwise faun builds the environment
  const plan = trustedPlan(published, Boolean(opts.trustRows));
  if (published && !plan)
    log(`${inst.instance_id}: its eval_script runs only with --trust-rows; building faun's environment`);
  const where = await envOf(inst, spec, plan, opts);
  if ('error' in where) return unrun(inst, pred, 'infra_error', where.error, specId(spec));
  const { source, envHash } = where;
  const stored = await readJson<ExecutionResult>(join(dir, 'result.json'));
  const meta0 = await readJson<
    Meta & { reruns?: number; flaky_policy?: string; test_infra?: string; run_empty?: boolean }
  >(join(dir, 'meta.json'));
  const testInfra = opts.testInfra ?? 'drop';
  const grading = rowGrading(inst, spec);
  const ok = 'problem' in grading ? null : grading;
  const gradingMeta = {
    parser: ok?.parser ?? spec.parser,
    exact_ids: ok?.exactIds ?? false,
    eval_type: ok?.evalType ?? spec.evalType ?? 'pass_and_fail',
    msb: inst.msb ?? null,
    fail_to_pass: inst.fail_to_pass,
    pass_to_pass: inst.pass_to_pass,
    language: inst.language,
    patch_empty: isEmptyPatch(pred.patch),
  };
  if (
    stored &&
    stored.outcome !== 'infra_error' &&
    stored.patch_sha256 === base.patch_sha256 &&
    stored.image_id === envHash &&
    stored.spec_version === specId(spec) &&
    sameContract(stored, inst, spec, opts, plan !== null) &&
    sameRunOptions(meta0, opts, inst, pred)
  ) {
    return reuse(dir, stored, { ...gradingMeta, test_infra: testInfra });
  }

  const runOpts = {
    backend: opts.backend,
    spec,
    source,
    runId: opts.runId,
    timeoutS: opts.timeoutS ?? 1800,
    limits: opts.limits,
    log,
    envHash,
    signal: opts.signal,
    published: plan,
    pull: true,
    reruns: opts.reruns,
    flakyPolicy: opts.flakyPolicy,
    maxOutput: opts.maxOutput,
    testInfra,
    runEmpty: opts.runEmpty,
    trustRows: opts.trustRows,
    imageLock: opts.imageLock,
  };
  let run = await runInstance(inst, pred, runOpts);
  if (run.infra && !opts.signal?.aborted) {
    log(`${inst.instance_id}: infrastructure failure (${run.result.error}); retrying once`);
    run = await runInstance(inst, pred, runOpts);
  }
  if (opts.cacheLevel === 'env' && run.env) await opts.backend.release?.(run.env);
  // Interrupted mid-run: nothing is stored or reported, so a resumed run does this instance again.
  if (opts.signal?.aborted) return null;
  await persist(dir, run, {
    nonce: null,
    framed: plan === null,
    reruns: opts.reruns ?? DEFAULT_RERUNS,
    flaky_policy: opts.flakyPolicy ?? 'failed',
    test_infra: testInfra,
    ...(opts.runEmpty ? { run_empty: true } : {}),
    ...gradingMeta,
  });
  return { result: run.result, reused: false };
}

/**
 * The stored run was made with this run's re-run count, flaky policy, empty-patch rule and test-infrastructure
 * rule; a result stored under another test-infrastructure rule (before the rule: `keep`) stands when the rule
 * changes nothing for this prediction.
 */
function sameRunOptions(
  meta: { reruns?: number; flaky_policy?: string; run_empty?: boolean; test_infra?: string } | null,
  opts: VerifyOptions,
  inst: ExecutionInstance,
  pred: PatchPrediction,
): boolean {
  const sameInfra = () =>
    (meta?.test_infra ?? 'keep') === (opts.testInfra ?? 'drop') ||
    testInfrastructure(pred.patch, inst.test_patch, inst.language, inst.patch).dropped.length === 0;
  return (
    meta?.reruns === (opts.reruns ?? DEFAULT_RERUNS) &&
    meta?.flaky_policy === (opts.flakyPolicy ?? 'failed') &&
    (meta?.run_empty ?? false) === Boolean(opts.runEmpty) &&
    sameInfra()
  );
}

/**
 * A stored result is reused only when it was made under the contract this run would apply (the same user,
 * limits, network and fixed environment): a result from before the sandbox changed is run again.
 */
function sameContract(
  stored: ExecutionResult,
  inst: ExecutionInstance,
  spec: EnvSpec,
  opts: VerifyOptions,
  published: boolean,
): boolean {
  if (!stored.contract) return false;
  const want = determinismContract({
    inst,
    network: published ? 'none' : (spec.network ?? 'none'),
    limits: specLimits(opts.limits ?? DEFAULT_LIMITS, spec),
    image: null,
    imageDigest: null,
    isolated: opts.backend.name !== 'local',
  });
  const key = (c: DeterminismContract) => stableStringify({ ...c, image: null, image_digest: null });
  return key(stored.contract) === key(want);
}

function emptyStatus(inst: ExecutionInstance): ExecutionResult['tests_status'] {
  return {
    FAIL_TO_PASS: { success: [], failure: [...inst.fail_to_pass] },
    PASS_TO_PASS: { success: [], failure: [...inst.pass_to_pass] },
    FAIL_TO_FAIL: { success: [], failure: [] },
    PASS_TO_FAIL: { success: [], failure: [] },
  };
}
