/**
 * Runs one instance: prepare the environment, start a sandbox, apply the model patch through the
 * fallback chain, run eval.sh under a timeout, grade, and always dispose of the sandbox. Returns the
 * result plus the artifacts (patch.diff, eval.sh, test_output.txt) for the instance directory.
 */
import { randomBytes } from 'node:crypto';
import { sha256 } from '@faun/kit';
import type { ExecutionInstance, ExecutionResult } from '@faun/schema';
import { failedStatus, type Grade, gradeLog, type TestsStatus } from './grading.ts';
import type { PatchPrediction } from './instances.ts';
import type { TestMap } from './parsers/index.ts';
import { isEmptyPatch, unsafePaths } from './patch.ts';
import { MSB_FIX_PATCH, MSB_FIX_RUN, type PublishedPlan, swebenchEvalScript } from './published.ts';
import { rowGrading } from './row-grading.ts';
import { type Backend, DEFAULT_LIMITS, type Limits, type PreparedEnv, type Sandbox } from './sandbox.ts';
import { appliedWith, applyScript, evalScript, REVERSED, runCommand, TEST_PATCH_EXIT } from './scripts.ts';
import { type EnvSpec, specId, specLimits, testCommand } from './specs.ts';

export interface RunOptions {
  backend: Backend;
  spec: EnvSpec;
  /** Git directory with the repository's objects. */
  source: string;
  runId: string;
  timeoutS: number;
  limits?: Limits;
  log?: (line: string) => void;
  /** Random by default; fixed in tests. */
  nonce?: string;
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
}

export interface InstanceRun {
  result: ExecutionResult;
  /** Every parsed test status (for validation and auditing). */
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

const DIFF_NONE = '';

/** Runs one instance with one prediction; never throws for model or infrastructure failures. */
export async function runInstance(
  inst: ExecutionInstance,
  pred: PatchPrediction,
  opts: RunOptions,
): Promise<InstanceRun> {
  const t0 = performance.now();
  const log = opts.log ?? (() => {});
  const nonce = opts.nonce ?? randomBytes(12).toString('hex');
  const patch = pred.patch ?? '';
  const empty = isEmptyPatch(patch);
  const artifacts: InstanceRun['artifacts'] = {
    'patch.diff': patch,
    'eval.sh': DIFF_NONE,
    'test_output.txt': DIFF_NONE,
    'apply_output.txt': DIFF_NONE,
  };
  let env: PreparedEnv | null = null;
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
      patch_sha256: sha256(patch),
      image_id: env?.hash ?? opts.envHash ?? null,
      spec_version: specId(opts.spec),
      exit_code: null,
      tests_status: failedStatus(inst.fail_to_pass, inst.pass_to_pass),
      duration_s: Math.round((performance.now() - t0) / 10) / 100,
      error: null,
      flags: [],
      ...extra,
    },
    tests,
    artifacts,
    infra,
    env,
  });

  const grading = rowGrading(inst, opts.spec);
  if ('problem' in grading) return finish('bad_input', { resolved_status: null, error: grading.problem });
  // As SWE-bench: an empty patch is not run, and never resolves anything.
  if (empty && !opts.runEmpty) return finish('empty_patch', { error: 'empty patch: not run' });

  const unsafe = unsafePaths(patch);
  if (unsafe.length)
    return finish('apply_failed', {
      error: `patch touches paths outside the repository: ${unsafe.join(', ')}`,
    });

  const pub = opts.published ?? null;
  if (pub && !opts.backend.preparePublished)
    return finish('bad_input', { error: `the ${opts.backend.name} backend cannot run published images` });
  try {
    env = pub
      ? await opts.backend.preparePublished!(pub, Boolean(opts.pull), log)
      : await opts.backend.prepare(inst, opts.spec, opts.source, log);
  } catch (e) {
    const what = pub ? `published image ${pub.image} unavailable` : 'environment build failed';
    return finish('infra_error', { error: `${what}: ${(e as Error).message}` }, {}, true);
  }

  let sbx: Sandbox | null = null;
  try {
    sbx = await opts.backend.start(env, {
      labels: { 'org.faun.harness.instance': inst.instance_id },
      limits: specLimits(opts.limits ?? DEFAULT_LIMITS, opts.spec),
      network: pub ? 'none' : (opts.spec.network ?? 'none'),
    });
    const s = sbx;
    if (opts.signal) {
      const kill = () => void s.dispose().catch(() => {});
      if (opts.signal.aborted) kill();
      else opts.signal.addEventListener('abort', kill, { once: true });
    }
    const patchPath = `${s.scratch}/patch.diff`;
    const testPatchPath = inst.test_patch.trim() && !pub ? `${s.scratch}/test.patch` : null;
    const script = pub
      ? pub.kind === 'swebench'
        ? swebenchEvalScript(inst.eval_script ?? '')
        : `#!/bin/bash\n${MSB_FIX_RUN}\n`
      : evalScript({
          workdir: s.workdir,
          nonce,
          testPatchPath,
          testPatch: inst.test_patch,
          testCmd: testCommand(opts.spec, inst),
          env: { ...opts.spec.env, ...opts.extraEnv },
          preTest: opts.spec.preTest,
        });
    artifacts['eval.sh'] = script;
    await s.writeFile(`${s.scratch}/eval.sh`, script);
    if (testPatchPath) await s.writeFile(testPatchPath, inst.test_patch);

    let applied: string | null = null;
    if (pub?.kind === 'multi-swe-bench') {
      // fix-run.sh applies the test patch and this one itself (git apply), as Multi-SWE-bench runs it.
      await s.writeFile(MSB_FIX_PATCH, patch.endsWith('\n') ? patch : `${patch}\n`);
      applied = 'fix-run.sh';
    } else if (!empty) {
      await s.writeFile(patchPath, patch.endsWith('\n') ? patch : `${patch}\n`);
      await s.writeFile(`${s.scratch}/apply.sh`, applyScript(s.workdir, patchPath));
      const a = await s.exec(`bash ${s.scratch}/apply.sh`, { timeoutMs: 120_000 });
      artifacts['apply_output.txt'] = a.output;
      applied = appliedWith(a.output);
      if (!applied) {
        // A container that died or was removed fails every strategy: that is the infrastructure's doing.
        const infra = await s.infraProblem();
        if (infra) return finish('infra_error', { error: `${infra} (while applying the patch)` }, {}, true);
        const why = a.output.includes(REVERSED)
          ? 'the patch applies only in reverse'
          : 'no strategy applied the patch';
        return finish('apply_failed', { error: why });
      }
    }

    const timeoutMs = opts.timeoutS * 1000;
    const outPath = `${s.scratch}/test_output.txt`;
    const started = performance.now();
    const r = await s.exec(runCommand(`${s.scratch}/eval.sh`, outPath, opts.timeoutS), {
      timeoutMs: timeoutMs + 30_000,
    });
    const elapsed = performance.now() - started;
    const timedOut =
      r.timedOut || ((r.exitCode === 124 || r.exitCode === 137) && elapsed >= timeoutMs * 0.95);
    const output = r.timedOut ? r.output : await s.readFile(outPath).catch(() => r.output);
    artifacts['test_output.txt'] = output;
    const infra = await s.infraProblem();
    if (infra)
      return finish('infra_error', { applied_with: applied, exit_code: r.exitCode, error: infra }, {}, true);
    if (timedOut)
      return finish('timeout', {
        applied_with: applied,
        error: `tests did not finish within ${opts.timeoutS} s`,
      });
    if (r.exitCode === TEST_PATCH_EXIT && output.includes('>>>>> Test Patch Apply Failed'))
      return finish('invalid_log', {
        applied_with: applied,
        exit_code: r.exitCode,
        error: 'the test patch did not apply',
      });

    const g = gradeLog({
      log: output,
      // A published image's own script prints the reference's markers and exit code, not faun's.
      nonce: pub ? null : nonce,
      exitCode: pub?.kind === 'swebench' ? null : r.exitCode,
      parser: grading.parser,
      exactIds: grading.exactIds,
      failToPass: inst.fail_to_pass,
      passToPass: inst.pass_to_pass,
      evalType: grading.evalType,
      msb: inst.msb ?? null,
    });
    return finish(
      gradeOutcome(g, empty),
      {
        applied_with: applied,
        exit_code: r.exitCode,
        resolved_status: g.valid ? g.resolved_status : 'RESOLVED_NO',
        tests_status: g.tests_status,
        error: g.invalidReason ?? g.note,
        flags: g.flags,
      },
      g.tests,
    );
  } catch (e) {
    const why = opts.signal?.aborted ? 'cancelled' : `sandbox error: ${(e as Error).message}`;
    return finish('infra_error', { error: why }, {}, true);
  } finally {
    if (sbx) await sbx.dispose().catch((e) => log(`dispose failed: ${(e as Error).message}`));
  }
}

/** The outcome of a graded log; an empty patch is never resolved. */
export function gradeOutcome(g: Grade, empty: boolean): ExecutionResult['outcome'] {
  if (empty) return 'empty_patch';
  if (!g.valid) return 'invalid_log';
  return g.resolved_status === 'RESOLVED_FULL' ? 'resolved' : 'unresolved';
}
