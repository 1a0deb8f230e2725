/**
 * Script generation (pure): `apply.sh` (the model patch's fallback chain), the test-patch steps, and
 * `eval.sh`, the record of a run's steps.
 */
import { sha256 } from '@faun/kit';
import { sh } from '../envs/shell.ts';
import { testPatchTargets } from '../files/patch.ts';
import { SWE_MARKERS } from '../grading/grading-swebench.ts';

export { sh } from '../envs/shell.ts';

/** Printed by apply.sh: `faun-apply: <strategy>` on success. */
export const APPLIED_PREFIX = 'faun-apply: ';
export const APPLY_FAILED = '>>>>> Patch Apply Failed';
export const REVERSED =
  '>>>>> Patch Apply Failed: the patch applies only in reverse (reversed or already applied)';
export const TEST_PATCH_FAILED = '>>>>> Test Patch Apply Failed';

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
  testPatch: string;
  /** The test command (bash). */
  testCmd: string;
  /** Environment of the test command. */
  env?: Record<string, string>;
  /** Steps after the model patch, before the test patch (the spec's `preTest`); output goes to the log. */
  preTest?: string[];
}

/** The commands that restore the test patch's files to the base before it is applied (file names as arguments). */
export const RESTORE_TEST_FILES = 'git checkout -q HEAD -- "$@" 2>/dev/null || git checkout -q HEAD -- .';
export const REMOVE_CREATED_FILES = 'rm -rf -- "$@"';
/** Applies the test patch read from standard input. */
export const APPLY_TEST_PATCH = 'git apply --whitespace=nowarn -';
/**
 * The three above as one process (bash): restores the test patch's existing files to the base, removes the
 * files it creates and applies it from standard input. Argument 1 is the number of existing files, which
 * follow it; the created files come last. Its exit status is the apply's.
 */
export const PREPARE_TEST_PATCH = [
  'n=$1; shift',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own parameter expansion
  'existing=("${@:1:n}"); created=("${@:n+1}")',
  `if ((\${#existing[@]})); then set -- "\${existing[@]}"; ${RESTORE_TEST_FILES}; fi`,
  `if ((\${#created[@]})); then set -- "\${created[@]}"; ${REMOVE_CREATED_FILES}; fi`,
  APPLY_TEST_PATCH,
].join('\n');

/** The arguments of PREPARE_TEST_PATCH for the test patch's `existing` and `created` files. */
export const prepareTestPatchArgs = (existing: string[], created: string[]) => [
  String(existing.length),
  ...existing,
  ...created,
];

/**
 * eval.sh, the record of what ran, in the order it ran — pre-test steps, test files restored to the base, the
 * test patch applied, the test command between SWE-bench's markers with its exit code — as one script a
 * reader (or SWE-bench's own tools) can follow. faun does not execute this file: each step runs as its own
 * process in the sandbox (the restores and the test patch's apply as one, PREPARE_TEST_PATCH), and the markers and exit code of the stored log are written by the grader.
 */
export function evalScript(input: EvalScriptInput): string {
  const { existing, created } = testPatchTargets(input.testPatch);
  const lines = ['#!/bin/bash', 'set -uo pipefail', `cd ${sh(input.workdir)} || exit 2`];
  for (const [k, v] of Object.entries(input.env ?? {}).sort()) lines.push(`export ${k}=${sh(v)}`);
  for (const step of input.preTest ?? []) lines.push(`( ${step} )`);
  if (existing.length) lines.push(`set -- ${existing.map(sh).join(' ')}`, RESTORE_TEST_FILES);
  if (created.length) lines.push(`set -- ${created.map(sh).join(' ')}`, REMOVE_CREATED_FILES);
  if (input.testPatch.trim()) {
    const eof = `EOF_${sha256(input.testPatch).slice(0, 12)}`;
    lines.push(`${APPLY_TEST_PATCH} <<'${eof}'`, input.testPatch.replace(/\n$/, ''), eof);
  }
  lines.push(
    `echo ${sh(SWE_MARKERS.start)}`,
    '(',
    input.testCmd,
    ')',
    'rc=$?',
    `echo ${sh(SWE_MARKERS.end)}`,
    `echo "${SWE_MARKERS.exitCode}: $rc"`,
    '',
  );
  return lines.join('\n');
}
