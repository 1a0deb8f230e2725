/**
 * Runs one instance: prepare the environment, run the stages in a fresh sandbox (run-stages.ts), grade the
 * framed log, and — when a listed test failed — run again in fresh sandboxes to tell flaky tests from
 * failing ones (grading/flaky.ts). Every sandbox is disposed of. Returns the result plus the artifacts of the first
 * run (patch.diff, eval.sh, apply_output.txt, test_output.txt) for the instance directory.
 */
import { sha256 } from '@faun/kit';
import type { ExecutionInstance, ExecutionResult, ExecutionStage } from '@faun/schema';
import { type RowGrading, rowGrading } from '../benchmarks/row-grading.ts';
import type { ImageLockState } from '../envs/image-trust.ts';
import type { PublishedPlan } from '../envs/published.ts';
import { type EnvSpec, specId, specLimits, testCommand } from '../envs/specs.ts';
import { isEmptyPatch, unsafePaths } from '../files/patch.ts';
import { DEFAULT_RERUNS, type FlakyPolicy, mergedOutcome, mergeRuns, wantsRerun } from '../grading/flaky.ts';
import { failedStatus, type Grade, gradeLog, resolvedStatus, type TestsStatus } from '../grading/grading.ts';
import type { TestMap } from '../parsers/index.ts';
import type { PatchPrediction } from '../rows/instances.ts';
import { untrustedTestCmd } from '../rows/trust-rows.ts';
import type { OutputLimits } from '../sandbox/capture.ts';
import { contractEnv, determinismContract } from '../sandbox/contract.ts';
import {
  type Backend,
  DEFAULT_LIMITS,
  type Limits,
  type PreparedEnv,
  type Sandbox,
} from '../sandbox/sandbox.ts';
import { type Attempt, runStages, type StagePlan } from './run-stages.ts';
import { evalScript } from './scripts.ts';
import { type DroppedFile, type TestInfraMode, testInfrastructure } from './test-infra.ts';

export interface RunOptions {
  backend: Backend;
  /** Pins prebuilt images (published ones, a trusted row's) by content id. */
  imageLock?: ImageLockState;
  spec: EnvSpec;
  /** Git directory with the repository's objects. */
  source: string;
  runId: string;
  timeoutS: number;
  limits?: Limits;
  log?: (line: string) => void;
  /** The environment hash computed by the caller (recorded even when no environment is built). */
  envHash?: string;
  /** Aborting removes the sandbox at once (Ctrl+C); the result is then an infra error marked cancelled. */
  signal?: AbortSignal;
  /** Extra environment variables for the test command (validation passes FAUN_REPEAT). */
  extraEnv?: Record<string, string>;
  /** Run the tests even for an empty patch (validation's "before" side); otherwise an empty patch is not run. */
  runEmpty?: boolean;
  /** Run in the row's published image (its eval_script, or Multi-SWE-bench's fix-run.sh). */
  published?: PublishedPlan | null;
  /** With `published`: pull the image when it is not present locally. */
  pull?: boolean;
  /** Re-runs, in fresh sandboxes, of an instance whose listed test failed (default 2; 0 = none). */
  reruns?: number;
  /** Whether a test that failed and then passed on a re-run counts as failed (default) or passed. */
  flakyPolicy?: FlakyPolicy;
  /** How much test output to keep. */
  maxOutput?: OutputLimits;
  /** `drop` (default): the prediction's test-infrastructure files are dropped before the run (test-infra.ts). */
  testInfra?: TestInfraMode;
  /** Run a row's own test command (`test_cmd`) even when faun's spec would not give it (trust-rows.ts). */
  trustRows?: boolean;
}

export interface InstanceRun {
  result: ExecutionResult;
  /** Every parsed test status of the first run (for validation and auditing). */
  tests: TestMap;
  artifacts: {
    'patch.diff': string;
    'eval.sh': string;
    'test_output.txt': string;
    'apply_output.txt': string;
  };
  /** An infrastructure failure (worth one retry). */
  infra: boolean;
  /** The environment the instance ran in (null when none was built). */
  env: PreparedEnv | null;
}

/** Where attempts run: the instance (label), its limits and network. */
interface Box {
  instance: string;
  limits: Limits;
  network: 'none' | 'tarpit';
}

/** The same listed tests, every one failed. */
function allFailed(s: TestsStatus): TestsStatus {
  const both = (b: { success: string[]; failure: string[] }) => [...b.success, ...b.failure];
  return {
    ...failedStatus(both(s.FAIL_TO_PASS), both(s.PASS_TO_PASS)),
    FAIL_TO_FAIL: { success: [], failure: both(s.FAIL_TO_FAIL) },
    PASS_TO_FAIL: { success: [], failure: both(s.PASS_TO_FAIL) },
  };
}

/** What one attempt gave: the stages' record, its grade, or why it could not be graded. */
interface Graded {
  attempt: Attempt | null;
  grade: Grade | null;
  /** An infrastructure problem (the sandbox died, the engine failed). */
  infra: string | null;
}

const round = (ms: number) => Math.round(ms / 10) / 100;

/**
 * A prebuilt image's content id goes into the contract (`image_digest`); with an image lock, an image that
 * moved or is not pinned is refused (the message says what to do).
 */
async function pinPrebuilt(env: PreparedEnv, prebuilt: boolean, opts: RunOptions): Promise<string | null> {
  if (!prebuilt || !opts.backend.imageEntry) return null;
  const entry = await opts.backend.imageEntry(env.ref);
  if (!entry) return `image ${env.ref} has no content id`;
  env.digest = entry.id;
  return opts.imageLock?.check(env.ref, entry) ?? null;
}

/** The environment of one instance (built, or a published image), as the `build` stage. */
async function prepareEnv(
  inst: ExecutionInstance,
  opts: RunOptions,
  pub: PublishedPlan | null,
  log: (l: string) => void,
): Promise<{ prepared: PreparedEnv; build: ExecutionStage } | { failed: ExecutionStage; error: string }> {
  const tBuild = performance.now();
  const stage = (status: 'ok' | 'failed', detail: string): ExecutionStage => ({
    name: 'build',
    status,
    duration_s: round(performance.now() - tBuild),
    detail,
    log: null,
  });
  try {
    const prepared = pub
      ? await opts.backend.preparePublished!(pub, Boolean(opts.pull), log)
      : await opts.backend.prepare(inst, opts.spec, opts.source, log);
    return { prepared, build: stage('ok', prepared.ref) };
  } catch (e) {
    const what = pub ? `published image ${pub.image} unavailable` : 'environment build failed';
    const message = (e as Error).message;
    return { failed: stage('failed', message.split('\n')[0]!), error: `${what}: ${message}` };
  }
}

/** The evaluation script as recorded beside the run (a record only: the stages run as separate processes). */
function evalScriptOf(plan: StagePlan, prepared: PreparedEnv, env: Record<string, string>): string {
  if (plan.kind === 'faun')
    return evalScript({
      workdir: prepared.workdir ?? '/testbed',
      testPatch: plan.testPatch,
      testCmd: plan.testCmd,
      env,
      preTest: plan.preTest,
    });
  return plan.kind === 'script' ? plan.script : '#!/bin/bash\nbash /home/fix-run.sh\n';
}

type Finish = (
  outcome: ExecutionResult['outcome'],
  extra: Partial<ExecutionResult> & { tests_status?: TestsStatus },
  tests?: TestMap,
  infra?: boolean,
) => InstanceRun;

/**
 * The verdict of the first attempt: infrastructure, apply, test-patch and time-out failures first, then a
 * forged log (`tampered`), then the grade; an unresolved run of a non-empty patch goes to `rerun` (flaky tests).
 */
function judge(
  first: Graded,
  empty: boolean,
  opts: RunOptions,
  finish: Finish,
  rerun: (g: Grade, graded: Partial<ExecutionResult>) => Promise<InstanceRun>,
): InstanceRun | Promise<InstanceRun> {
  const a = first.attempt;
  if (first.infra)
    return finish(
      'infra_error',
      { applied_with: a?.applied ?? null, exit_code: a?.exitCode ?? null, error: first.infra },
      {},
      true,
    );
  if (!a) return finish('infra_error', { error: 'the sandbox did not start' }, {}, true);
  if (a.applyFailed) return finish('apply_failed', { error: a.applyFailed });
  const base = { applied_with: a.applied, exit_code: a.exitCode };
  if (a.testPatchFailed) return finish('invalid_log', { ...base, error: 'the test patch did not apply' });
  if (a.timedOut)
    return finish('timeout', { ...base, error: `tests did not finish within ${opts.timeoutS} s` });
  const g = first.grade!;
  const flags = [...g.flags, ...(a.omittedBytes ? [`output-truncated:${a.omittedBytes}`] : [])];
  if (g.tampered.length)
    return finish('tampered', { ...base, tampered: g.tampered, error: g.invalidReason, flags }, g.tests);
  // a run empty patch (runEmpty: a control) is graded like any other, so it can fail
  const outcome = gradeOutcome(g, empty && !opts.runEmpty);
  const graded = {
    ...base,
    resolved_status: g.valid ? g.resolved_status : ('RESOLVED_NO' as const),
    tests_status: g.tests_status,
    error: g.invalidReason ?? g.note,
    flags,
  };
  if (outcome !== 'unresolved' || empty) return finish(outcome, graded, g.tests);
  return rerun(g, graded);
}

/** How an attempt's log is graded: the row's parser and rule, its lists; the runtime's exit code unless the
 * published plan says its benchmark does not read it (a SWE-bench row's own script). */
function graderFor(inst: ExecutionInstance, grading: RowGrading, pub: PublishedPlan | null) {
  return (a: Attempt) =>
    gradeLog({
      log: a.log,
      framed: a.framed,
      exitCode: pub && !pub.readsExitCode ? null : a.exitCode,
      parser: grading.parser,
      exactIds: grading.exactIds,
      failToPass: inst.fail_to_pass,
      passToPass: inst.pass_to_pass,
      evalType: grading.evalType,
      msb: inst.msb ?? null,
    });
}

/** The files kept beside a result, before anything ran: the patch as applied. */
function emptyArtifacts(patch: string): InstanceRun['artifacts'] {
  return { 'patch.diff': patch, 'eval.sh': '', 'test_output.txt': '', 'apply_output.txt': '' };
}

/** Runs one instance with one prediction; never throws for model or infrastructure failures. */
export async function runInstance(
  inst: ExecutionInstance,
  pred: PatchPrediction,
  opts: RunOptions,
): Promise<InstanceRun> {
  const t0 = performance.now();
  const log = opts.log ?? (() => {});
  const submitted = pred.patch ?? '';
  const split =
    opts.testInfra === 'keep'
      ? { patch: submitted, dropped: [] }
      : testInfrastructure(submitted, inst.test_patch, inst.language, inst.patch);
  const patch = split.patch;
  const empty = isEmptyPatch(patch);
  const pub = opts.published ?? null;
  const limits = specLimits(opts.limits ?? DEFAULT_LIMITS, opts.spec);
  const network = pub ? 'none' : (opts.spec.network ?? 'none');
  const env: Record<string, string> = { ...opts.spec.env, ...opts.extraEnv, ...contractEnv(inst) };
  const artifacts = emptyArtifacts(patch);
  let prepared: PreparedEnv | null = null;
  let stages: ExecutionStage[] = [];
  let imageId: string | null = null;
  const contract = () =>
    determinismContract({
      inst,
      network,
      limits,
      image: prepared?.ref ?? null,
      imageDigest: prepared?.digest ?? imageId,
      isolated: opts.backend.name !== 'local',
    });
  const finish = (
    outcome: ExecutionResult['outcome'],
    extra: Partial<ExecutionResult> & { tests_status?: TestsStatus },
    tests: TestMap = {},
    infra = false,
  ): InstanceRun => ({
    result: {
      v: 1,
      instance_id: inst.instance_id,
      model: pred.model,
      outcome,
      resolved_status: outcome === 'infra_error' ? null : 'RESOLVED_NO',
      applied_with: null,
      patch_sha256: sha256(submitted),
      image_id: prepared?.hash ?? opts.envHash ?? null,
      spec_version: specId(opts.spec),
      exit_code: null,
      tests_status: failedStatus(inst.fail_to_pass, inst.pass_to_pass),
      duration_s: round(performance.now() - t0),
      error: null,
      flags: [],
      contract: contract(),
      ...(stages.length ? { stages } : {}),
      ...(split.dropped.length ? { dropped_files: split.dropped } : {}),
      ...extra,
    },
    tests,
    artifacts,
    infra,
    env: prepared,
  });

  const grading = rowGrading(inst, opts.spec);
  if ('problem' in grading) return finish('bad_input', { resolved_status: null, error: grading.problem });
  const refused = notRun(inst, opts, submitted, split.patch, split.dropped, pub);
  if (refused) return finish(refused.outcome, refused.extra);

  const ready = await prepareEnv(inst, opts, pub, log);
  if ('error' in ready) {
    stages = [ready.failed];
    return finish('infra_error', { error: ready.error }, {}, true);
  }
  prepared = ready.prepared;
  const pinned = await pinPrebuilt(prepared, Boolean(pub || inst.image), opts);
  if (pinned) return finish('infra_error', { error: pinned });
  const build = ready.build;

  const plan = stagePlan(inst, opts, pub, empty ? null : patch, env);
  artifacts['eval.sh'] = evalScriptOf(plan, prepared, env);
  const gradeOf = graderFor(inst, grading, pub);

  const box = { instance: inst.instance_id, limits, network };
  const first = await attempt(prepared, plan, opts, box, gradeOf, (id) => {
    imageId = id;
  });
  stages = [build, ...(first.attempt?.stages ?? [])];
  const a = first.attempt;
  if (a) {
    artifacts['apply_output.txt'] = a.applyOutput;
    artifacts['test_output.txt'] = a.log;
  }
  return judge(first, empty, opts, finish, (g, graded) =>
    rerunFlaky(g, opts, prepared!, plan, box, gradeOf, (r) =>
      finish(r.outcome, { ...graded, ...r.extra }, g.tests),
    ),
  );
}

/**
 * Why this prediction is not run at all, and the outcome that says so (null: run it): a row's own test
 * command while rows are untrusted, paths outside the repository, a patch of nothing but test
 * infrastructure, an empty patch, a published image the backend cannot run.
 */
function notRun(
  inst: ExecutionInstance,
  opts: RunOptions,
  submitted: string,
  patch: string,
  dropped: DroppedFile[],
  pub: PublishedPlan | null,
): { outcome: ExecutionResult['outcome']; extra: Partial<ExecutionResult> } | null {
  const untrusted = opts.trustRows || pub ? null : untrustedTestCmd(inst, opts.spec);
  if (untrusted) return { outcome: 'bad_input', extra: { resolved_status: null, error: untrusted } };
  const unsafe = unsafePaths(submitted);
  if (unsafe.length)
    return {
      outcome: 'apply_failed',
      extra: { error: `patch touches paths outside the repository: ${unsafe.join(', ')}` },
    };
  const empty = isEmptyPatch(patch);
  // Nothing but test infrastructure: nothing of the prediction is left to run, and it resolves nothing.
  if (empty && !isEmptyPatch(submitted) && !opts.runEmpty) {
    const files = dropped.map((d) => d.path).join(', ');
    return {
      outcome: 'unresolved',
      extra: { error: `not run: every file of the patch is test infrastructure (dropped: ${files})` },
    };
  }
  // As SWE-bench: an empty patch is not run, and never resolves anything.
  if (empty && !opts.runEmpty) return { outcome: 'empty_patch', extra: { error: 'empty patch: not run' } };
  if (pub && !opts.backend.preparePublished)
    return {
      outcome: 'bad_input',
      extra: { error: `the ${opts.backend.name} backend cannot run published images` },
    };
  return null;
}

/** The steps to run for this instance and prediction. */
function stagePlan(
  inst: ExecutionInstance,
  opts: RunOptions,
  pub: PublishedPlan | null,
  patch: string | null,
  env: Record<string, string>,
): StagePlan {
  if (pub)
    return pub.script === null
      ? { kind: 'fix-run', patch: patch ?? '', env }
      : { kind: 'script', patch, script: pub.script, env };
  return {
    kind: 'faun',
    patch,
    testPatch: inst.test_patch,
    preTest: opts.spec.preTest ?? [],
    testCmd: testCommand(opts.spec, inst),
    env,
  };
}

/** One attempt in a fresh sandbox, graded; the sandbox is always disposed of. */
async function attempt(
  env: PreparedEnv,
  plan: StagePlan,
  opts: RunOptions,
  box: Box,
  gradeOf: (a: Attempt) => Grade,
  onImage: (id: string | null) => void = () => {},
): Promise<Graded> {
  let sbx: Sandbox | null = null;
  try {
    sbx = await opts.backend.start(env, {
      labels: { 'org.faun.harness.instance': box.instance },
      limits: box.limits,
      network: box.network,
      localHosts: opts.spec.localHosts,
      writable: opts.spec.writable,
    });
    onImage(sbx.imageId);
    const s = sbx;
    if (opts.signal) {
      const kill = () => void s.dispose().catch(() => {});
      if (opts.signal.aborted) kill();
      else opts.signal.addEventListener('abort', kill, { once: true });
    }
    const a = await runStages(s, plan, opts.timeoutS, opts.maxOutput);
    // A container that died or was removed fails every step: that is the infrastructure's doing.
    const infra = await s.infraProblem();
    if (infra)
      return {
        attempt: a,
        grade: null,
        infra: a.applyFailed ? `${infra} (while applying the patch)` : infra,
      };
    const ran = !a.applyFailed && !a.testPatchFailed && !a.timedOut;
    return { attempt: a, grade: ran ? gradeOf(a) : null, infra: null };
  } catch (e) {
    const why = opts.signal?.aborted ? 'cancelled' : `sandbox error: ${(e as Error).message}`;
    return { attempt: null, grade: null, infra: why };
  } finally {
    if (sbx) await sbx.dispose().catch((e) => opts.log?.(`dispose failed: ${(e as Error).message}`));
  }
}

/**
 * A listed test failed: run again in fresh sandboxes (at most `reruns` times, until every failing test has
 * passed once) and merge the runs by the flaky policy. A re-run that ends in an infrastructure error is not
 * counted; one that times out or cannot be graded counts as a failure of every listed test.
 */
async function rerunFlaky(
  g: Grade,
  opts: RunOptions,
  prepared: PreparedEnv,
  plan: StagePlan,
  box: Box,
  gradeOf: (a: Attempt) => Grade,
  done: (r: { outcome: ExecutionResult['outcome']; extra: Partial<ExecutionResult> }) => InstanceRun,
): Promise<InstanceRun> {
  const max = opts.reruns ?? DEFAULT_RERUNS;
  const policy = opts.flakyPolicy ?? 'failed';
  const runs: TestsStatus[] = [g.tests_status];
  const extraStages: ExecutionStage[] = [];
  while (wantsRerun(runs, max) && !opts.signal?.aborted) {
    const t0 = performance.now();
    const r = await attempt(prepared, plan, opts, box, gradeOf);
    const n = runs.length;
    if (r.infra || !r.attempt) {
      extraStages.push({
        name: `rerun-${n}`,
        status: 'skipped',
        duration_s: round(performance.now() - t0),
        detail: `not counted: ${r.infra}`,
        log: null,
      });
      break;
    }
    // a re-run that timed out, could not be graded or forged its log passed nothing
    const status = r.grade && !r.grade.tampered.length ? r.grade.tests_status : allFailed(g.tests_status);
    runs.push(status);
    const failing = [...status.FAIL_TO_PASS.failure, ...status.PASS_TO_PASS.failure];
    extraStages.push({
      name: `rerun-${n}`,
      status: failing.length ? 'failed' : 'ok',
      duration_s: round(performance.now() - t0),
      detail: failing.length
        ? `still failing: ${failing.slice(0, 5).join(', ')}${failing.length > 5 ? ` (+${failing.length - 5})` : ''}`
        : 'every listed test passed',
      log: null,
    });
  }
  const base = done({ outcome: 'unresolved', extra: {} });
  const stages = [...(base.result.stages ?? []), ...extraStages];
  if (runs.length === 1) return done({ outcome: 'unresolved', extra: { stages } });
  const m = mergeRuns(runs, policy);
  const full = (s: TestsStatus) => resolvedStatus(s) === 'RESOLVED_FULL';
  const outcome = mergedOutcome(m, full, policy);
  return done({
    outcome,
    extra: {
      stages,
      tests_status: m.tests_status,
      resolved_status: resolvedStatus(m.tests_status),
      test_runs: m.test_runs,
      flaky_tests: m.flaky,
      ...(outcome === 'flaky'
        ? { error: `flaky: ${m.flaky.join(', ')} failed, then passed on a re-run` }
        : {}),
    },
  });
}

/** The outcome of a graded log; an empty patch is never resolved. */
export function gradeOutcome(g: Grade, empty: boolean): ExecutionResult['outcome'] {
  if (g.tampered.length) return 'tampered';
  if (empty) return 'empty_patch';
  if (!g.valid) return 'invalid_log';
  return g.resolved_status === 'RESOLVED_FULL' ? 'resolved' : 'unresolved';
}
