/**
 * Script generation (pure): `apply.sh` (the model patch's fallback chain) and `eval.sh` (restore test
 * files, apply the test patch, run the test command between unique markers, exit with its code).
 */
import { markers } from './grading.ts';
import { SWE_MARKERS } from './grading-swebench.ts';
import { testPatchTargets } from './patch.ts';

/** Single-quotes a string for bash. */
export function sh(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Printed by apply.sh: `faun-apply: <strategy>` on success. */
export const APPLIED_PREFIX = 'faun-apply: ';
export const APPLY_FAILED = '>>>>> Patch Apply Failed';
export const REVERSED =
  '>>>>> Patch Apply Failed: the patch applies only in reverse (reversed or already applied)';
export const TEST_PATCH_FAILED = '>>>>> Test Patch Apply Failed';
/** eval.sh's exit code when the test patch does not apply. */
export const TEST_PATCH_EXIT = 97;

/** The apply strategies, in order. */
export const APPLY_CHAIN: Array<{ name: string; cmd: (p: string) => string }> = [
  { name: 'git apply', cmd: (p) => `git apply --verbose --whitespace=nowarn ${p}` },
  { name: 'git apply --3way', cmd: (p) => `git apply --verbose --whitespace=nowarn --3way ${p}` },
  {
    name: 'patch --fuzz',
    cmd: (p) => `patch --batch --forward --fuzz=5 -p1 --no-backup-if-mismatch --reject-file=- -i ${p}`,
  },
];

/**
 * The apply chain: each strategy on a clean tree (reset between attempts); a patch that applies only
 * in reverse is refused before any fuzzy strategy could apply it backwards.
 */
export function applyScript(workdir: string, patchPath: string): string {
  const p = sh(patchPath);
  const lines = [
    '#!/bin/bash',
    'set -u',
    `cd ${sh(workdir)} || exit 2`,
    'reset_tree() { git reset -q --hard HEAD && git clean -fdq; }',
    `if ! git apply --check ${p} >/dev/null 2>&1 && git apply --check --reverse ${p} >/dev/null 2>&1; then`,
    `  echo ${sh(REVERSED)}; exit 3`,
    'fi',
  ];
  for (const s of APPLY_CHAIN) {
    lines.push(`echo ${sh(`>>>>> trying ${s.name}`)}`);
    lines.push(`if ${s.cmd(p)}; then echo ${sh(APPLIED_PREFIX + s.name)}; exit 0; fi`);
    lines.push('reset_tree');
  }
  lines.push(`echo ${sh(APPLY_FAILED)}`, 'exit 1', '');
  return lines.join('\n');
}

/** Which strategy applied the patch, from apply.sh's output (null when none did). */
export function appliedWith(output: string): string | null {
  const line = output.split('\n').find((l) => l.startsWith(APPLIED_PREFIX));
  return line ? line.slice(APPLIED_PREFIX.length).trim() : null;
}

export interface EvalScriptInput {
  workdir: string;
  nonce: string;
  /** Path of the test patch inside the sandbox; null when the instance has none. */
  testPatchPath: string | null;
  testPatch: string;
  /** The test command (bash). */
  testCmd: string;
  /** Environment exports before the test command. */
  env?: Record<string, string>;
  /** Steps after the model patch, before the test patch (the spec's `preTest`); output goes to the log. */
  preTest?: string[];
}

/**
 * eval.sh: test files restored to base, test patch applied, tests run between SWE-bench's markers (nested in
 * faun's unforgeable nonce markers), then the test command's exit code recorded as SWE-bench records it.
 */
export function evalScript(input: EvalScriptInput): string {
  const { start, end } = markers(input.nonce);
  const { existing, created } = testPatchTargets(input.testPatch);
  const lines = ['#!/bin/bash', 'set -uo pipefail', `cd ${sh(input.workdir)} || exit 2`];
  for (const [k, v] of Object.entries(input.env ?? {}).sort()) lines.push(`export ${k}=${sh(v)}`);
  for (const step of input.preTest ?? [])
    lines.push(`( ${step} ) || echo ${sh('>>>>> pre-test step failed')}`);
  if (existing.length)
    lines.push(
      `git checkout -q HEAD -- ${existing.map(sh).join(' ')} 2>/dev/null || git checkout -q HEAD -- . `,
    );
  if (created.length) lines.push(`rm -rf -- ${created.map(sh).join(' ')}`);
  if (input.testPatchPath)
    lines.push(
      `git apply --whitespace=nowarn ${sh(input.testPatchPath)} || { echo ${sh(TEST_PATCH_FAILED)}; exit ${TEST_PATCH_EXIT}; }`,
    );
  lines.push(
    `echo ${sh(start)}`,
    `echo ${sh(SWE_MARKERS.start)}`,
    '(',
    input.testCmd,
    ')',
    'rc=$?',
    `echo ${sh(SWE_MARKERS.end)}`,
    `echo ${sh(end)}`,
    `echo "${SWE_MARKERS.exitCode}: $rc"`,
    'exit $rc',
    '',
  );
  return lines.join('\n');
}

/**
 * The command that runs eval.sh with a timeout that kills its whole process group, output capped
 * at `maxBytes` and written to `outPath`; exits with eval.sh's code (124/137 on timeout).
 */
export function runCommand(
  evalPath: string,
  outPath: string,
  timeoutS: number,
  maxBytes = 50_000_000,
): string {
  return (
    `timeout -k 5 ${Math.max(1, Math.round(timeoutS))} bash ${sh(evalPath)} 2>&1 | head -c ${maxBytes} > ${sh(outPath)}; ` +
    `exit \${PIPESTATUS[0]}`
  );
}
