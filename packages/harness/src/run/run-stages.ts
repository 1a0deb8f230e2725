/**
 * The steps of one attempt in a started sandbox, each its own process as the test user: write and apply the
 * model patch (fallback chain), pre-test steps, restore the test files and apply the test patch (as data on
 * standard input), run the test command under the sandbox's time limit. The grader frames the stored log itself
 * (grading/framing.ts) from the test command's own output stream and the exit status the runtime reports.
 */
import { FaunError } from '@faun/kit';
import type { ExecutionStage } from '@faun/schema';
import { MSB_FIX_PATCH, MSB_FIX_RUN } from '../envs/published.ts';
import { testPatchTargets } from '../files/patch.ts';
import { frameLog } from '../grading/framing.ts';
import type { OutputLimits } from '../sandbox/capture.ts';
import type { ExecResult, Sandbox } from '../sandbox/sandbox.ts';
import {
  appliedWith,
  applyScript,
  PREPARE_TEST_PATCH,
  prepareTestPatchArgs,
  REVERSED,
  sh,
} from './scripts.ts';

/** What runs in the sandbox. */
export type StagePlan =
  | {
      kind: 'faun';
      /** The model patch (null: none to apply). */
      patch: string | null;
      testPatch: string;
      preTest: string[];
      testCmd: string;
      env: Record<string, string>;
    }
  /** A row's own eval script (SWE-bench v5; trusted rows only): its output is the log, unframed. */
  | { kind: 'script'; patch: string | null; script: string; env: Record<string, string> }
  /** An image with its own run (Multi-SWE-bench's): its fix-run.sh applies the test patch and this one itself. */
  | { kind: 'fix-run'; patch: string; env: Record<string, string> };

export interface Attempt {
  stages: ExecutionStage[];
  /** Which strategy applied the model patch (`fix-run.sh` when the image's script does; null: none). */
  applied: string | null;
  applyOutput: string;
  /** Why the model patch did not apply (null: it did, or there was none). */
  applyFailed: string | null;
  /** The test patch did not apply. */
  testPatchFailed: boolean;
  /** The stored log: framed by the grader (faun's steps) or the row script's own output. */
  log: string;
  framed: boolean;
  /** The test command's exit status as the runtime reported it (null: killed by the host deadline). */
  exitCode: number | null;
  /** The test command ran past its time limit. */
  timedOut: boolean;
  omittedBytes: number;
}

const APPLY_TIMEOUT_MS = 120_000;
const PATCH_PATH = 'faun-patch.diff';
/** The exit status of the apply step when the patch file could not be written (apply.sh exits 0 to 3). */
const WRITE_FAILED = 97;

const stage = (
  name: string,
  status: ExecutionStage['status'],
  t0: number,
  detail: string | null,
  log: string | null,
): ExecutionStage => ({
  name,
  status,
  duration_s: Math.round((performance.now() - t0) / 10) / 100,
  detail,
  log,
});

/** The test command's run past its limit: the runtime's timeout statuses, after (nearly) the whole limit. */
function pastLimit(r: ExecResult, limitMs: number, elapsed: number): boolean {
  return r.timedOut || ((r.exitCode === 124 || r.exitCode === 137) && elapsed >= limitMs * 0.95);
}

async function applyModelPatch(s: Sandbox, patch: string, out: Attempt): Promise<boolean> {
  const t0 = performance.now();
  const path = `${s.scratch}/${PATCH_PATH}`;
  // one process writes the patch (standard input: data, never shell) and runs the apply chain on it
  const a = await s.exec(`cat > ${sh(path)} || exit ${WRITE_FAILED}\n${applyScript(s.workdir, path)}`, {
    stdin: patch.endsWith('\n') ? patch : `${patch}\n`,
    timeoutMs: APPLY_TIMEOUT_MS,
  });
  if (a.exitCode === WRITE_FAILED)
    throw new FaunError(`cannot write ${path} in the sandbox: ${a.output.trim()}`);
  out.applyOutput = a.output;
  out.applied = appliedWith(a.output);
  if (out.applied) {
    out.stages.push(stage('apply', 'ok', t0, out.applied, 'apply_output.txt'));
    return true;
  }
  out.applyFailed = a.output.includes(REVERSED)
    ? 'the patch applies only in reverse'
    : 'no strategy applied the patch';
  out.stages.push(stage('apply', 'failed', t0, out.applyFailed, 'apply_output.txt'));
  return false;
}

/** Pre-test steps: their output is kept before the test section; a failing step is noted, not fatal. */
async function preTest(s: Sandbox, steps: string[], env: Record<string, string>, limitS: number) {
  const t0 = performance.now();
  let text = '';
  let failed = 0;
  for (const step of steps) {
    const r = await s.exec(step, { env, limitS, timeoutMs: limitS * 1000 + 30_000 });
    text += r.output;
    if (r.exitCode !== 0) {
      failed++;
      text += `[faun: pre-test step exited ${r.exitCode ?? 'by the deadline'}]\n`;
    }
  }
  await s.killTestProcesses();
  return { text, stage: stage('pre-test', failed ? 'failed' : 'ok', t0, `${steps.length} step(s)`, null) };
}

/**
 * Restores the files the test patch touches to the base and applies it, in one process (file names and patch
 * as data).
 */
async function applyTestPatch(s: Sandbox, testPatch: string): Promise<{ ok: boolean; output: string }> {
  const { existing, created } = testPatchTargets(testPatch);
  const r = await s.exec(PREPARE_TEST_PATCH, {
    args: prepareTestPatchArgs(existing, created),
    stdin: testPatch.endsWith('\n') ? testPatch : `${testPatch}\n`,
  });
  return { ok: r.exitCode === 0, output: r.output };
}

/** Runs one attempt of `plan` in the started sandbox `s`, the test command limited to `timeoutS`. */
export async function runStages(
  s: Sandbox,
  plan: StagePlan,
  timeoutS: number,
  maxOutput?: OutputLimits,
): Promise<Attempt> {
  const out: Attempt = {
    stages: [],
    applied: null,
    applyOutput: '',
    applyFailed: null,
    testPatchFailed: false,
    log: '',
    framed: plan.kind === 'faun',
    exitCode: null,
    timedOut: false,
    omittedBytes: 0,
  };
  if (plan.kind === 'fix-run') {
    await s.writeFile(MSB_FIX_PATCH, plan.patch.endsWith('\n') ? plan.patch : `${plan.patch}\n`);
    out.applied = 'fix-run.sh';
    return runTests(s, MSB_FIX_RUN, plan.env, '', timeoutS, maxOutput, out);
  }
  if (plan.patch !== null && !(await applyModelPatch(s, plan.patch, out))) return out;
  if (plan.kind === 'script') return runTests(s, plan.script, plan.env, '', timeoutS, maxOutput, out);

  const t0 = performance.now();
  const pre = plan.preTest.length ? await preTest(s, plan.preTest, plan.env, timeoutS) : null;
  if (pre) out.stages.push(pre.stage);
  if (plan.testPatch.trim()) {
    const tp = await applyTestPatch(s, plan.testPatch);
    out.stages.push(stage('test patch', tp.ok ? 'ok' : 'failed', t0, null, null));
    if (!tp.ok) {
      out.testPatchFailed = true;
      out.log = `${pre?.text ?? ''}${tp.output}`;
      return out;
    }
  }
  const left = Math.max(1, timeoutS - (performance.now() - t0) / 1000);
  return runTests(s, plan.testCmd, plan.env, pre?.text ?? '', left, maxOutput, out);
}

async function runTests(
  s: Sandbox,
  cmd: string,
  env: Record<string, string>,
  preamble: string,
  limitS: number,
  maxOutput: OutputLimits | undefined,
  out: Attempt,
): Promise<Attempt> {
  const t0 = performance.now();
  const r = await s.exec(cmd, { env, limitS, timeoutMs: limitS * 1000 + 30_000, maxOutput });
  out.exitCode = r.exitCode;
  out.omittedBytes = r.omittedBytes;
  out.timedOut = pastLimit(r, limitS * 1000, performance.now() - t0);
  out.log = out.framed ? frameLog(preamble, r.output, r.exitCode) : r.output;
  const detail = `${out.timedOut ? 'time limit reached; ' : ''}exit ${r.exitCode ?? 'none'}${r.omittedBytes ? `; ${r.omittedBytes} bytes of output omitted` : ''}`;
  out.stages.push(stage('tests', r.exitCode === 0 ? 'ok' : 'failed', t0, detail, 'test_output.txt'));
  await s.killTestProcesses().catch(() => {});
  return out;
}
