/**
 * What a row may bring to run (pure). By default a row is data: its own `eval_script` (SWE-bench v5, run in a
 * published image) is not run — faun builds the environment and runs its own spec's command instead — and a
 * row carrying its own `test_cmd` is bad input, unless that command is the one faun's spec gives the row
 * itself (`faun validate --swebench-out` writes the per-test command of SWE-bench's Java harness). With
 * `--trust-rows` both run as given.
 */
import type { ExecutionInstance } from '@faun/schema';
import type { PublishedPlan } from '../envs/published.ts';
import { type EnvSpec, perTestCommand } from '../envs/specs.ts';

/** Why a row's own test command may not run untrusted, or null when it may (none, or faun's own). */
export function untrustedTestCmd(inst: ExecutionInstance, spec: EnvSpec): string | null {
  if (!inst.test_cmd) return null;
  let own: string | null = null;
  try {
    own = perTestCommand(spec, [...inst.fail_to_pass, ...inst.pass_to_pass]);
  } catch {
    own = null;
  }
  if (own !== null && own === inst.test_cmd) return null;
  return "the row carries its own test_cmd (not the command faun's spec gives it): a row's command runs only with --trust-rows";
}

/** The published plan a row may use: one running the row's own script only when rows are trusted. */
export function trustedPlan(plan: PublishedPlan | null, trustRows: boolean): PublishedPlan | null {
  return plan?.script != null && !trustRows ? null : plan;
}
