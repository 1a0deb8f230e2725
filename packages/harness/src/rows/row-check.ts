/**
 * Rows are untrusted input (pure). Before anything runs, every row's fields that become file names, clone
 * URLs, git arguments, image tags or test-command words are checked, and a row that fails is refused with the
 * field and what to do (`loadInstanceRows`: file:line; `verifyRun`: the row's position):
 *
 * - `instance_id`: 1–200 characters, no `\`, `..`, NUL or other control characters, no leading `.` or `-`;
 *   `/` only in Multi-SWE-bench's `owner/name:pr-N`;
 * - `repo`: `owner/name` in GitHub's characters (owner: letters, digits, `-`; name: letters, digits, `.`,
 *   `_`, `-`, never `.` or `..`);
 * - `base_commit` (and `environment_setup_commit`): a hex commit id of 7–40 digits;
 * - `version`: letters, digits and `._+-` (it is filled into install steps);
 * - file names in `patch` and `test_patch`: relative, no `..` segment, no NUL, newline or other control
 *   character (test-patch names are filled into test commands and image-build steps);
 * - within one run, two ids that differ only in case, or that name the same instance folder, are refused.
 */
import { InputError } from '@faun/kit';
import type { ExecutionInstance } from '@faun/schema';
import { patchFiles } from '../files/patch.ts';
import { repoProblem, shown } from '../files/repo-name.ts';
import { instanceDirName } from '../files/run-files.ts';

export interface RowProblem {
  field: string;
  problem: string;
}

const CONTROL = /[\u0000-\u001f\u007f]/;
export const MAX_ID_LENGTH = 200;

/** Why `id` cannot name an instance (a folder, a label, a report file), or null. */
export function idProblem(id: string): string | null {
  if (!id) return 'is empty';
  if (id.length > MAX_ID_LENGTH) return `is longer than ${MAX_ID_LENGTH} characters`;
  if (CONTROL.test(id)) return 'has a control character (NUL, newline, tab…)';
  if (id.includes('\\')) return "has a '\\'";
  if (id.includes('..')) return "has '..'";
  if (id.startsWith('.') || id.startsWith('-')) return `starts with '${id[0]}'`;
  if (id.includes('/')) {
    const m = /^([^/]+\/[^/:]+):pr-\d+$/.exec(id);
    if (!m || repoProblem(m[1]!)) return "has a '/' (only Multi-SWE-bench's owner/name:pr-N may)";
  }
  return null;
}

/** Names of files in a diff that must not reach a command line or a Dockerfile. */
export function badPatchPaths(diff: string): string[] {
  const bad = new Set<string>();
  for (const f of patchFiles(diff))
    for (const p of [f.from, f.to]) {
      if (p === null) continue;
      if (CONTROL.test(p) || p.startsWith('/') || p.split(/[\\/]+/).includes('..')) bad.add(p);
    }
  return [...bad].sort();
}

/** The first problem of a row, or null when it may run. */
export function rowProblem(inst: ExecutionInstance): RowProblem | null {
  const id = idProblem(inst.instance_id);
  if (id) return { field: 'instance_id', problem: `'${shown(inst.instance_id)}' ${id}` };
  const repo = repoProblem(inst.repo);
  if (repo) return { field: 'repo', problem: repo };
  for (const k of ['base_commit', 'environment_setup_commit'] as const) {
    const v = inst[k];
    if (v !== null && v !== undefined && !/^[0-9a-f]{7,40}$/.test(v))
      return { field: k, problem: `'${shown(v)}' is not a commit id (7–40 lowercase hex digits)` };
  }
  if (inst.version !== null && !/^[A-Za-z0-9._+-]{1,64}$/.test(inst.version))
    return {
      field: 'version',
      problem: `'${shown(inst.version)}' has characters other than letters, digits, '._+-'`,
    };
  for (const k of ['patch', 'test_patch'] as const) {
    const bad = badPatchPaths(inst[k]);
    if (bad.length)
      return {
        field: k,
        problem: `file name(s) ${bad.map((b) => `'${shown(b)}'`).join(', ')} are absolute, climb out with '..' or hold a control character`,
      };
  }
  return null;
}

/** The key two ids of one run must not share: their instance folder, case folded. */
export const collisionKey = (id: string): string => instanceDirName(id).toLowerCase();

/** Refuses a set of rows with a bad row or two ids of one instance folder (rows given as data, not a file). */
export function checkRows(instances: ExecutionInstance[]): void {
  const seen = new Map<string, string>();
  for (const [i, inst] of instances.entries()) {
    const bad = rowProblem(inst);
    if (bad) throw new InputError(`instance ${i + 1}: field '${bad.field}' ${bad.problem}`);
    const other = seen.get(collisionKey(inst.instance_id));
    if (other !== undefined)
      throw new InputError(
        `instance ${i + 1}: field 'instance_id' '${inst.instance_id}' collides with '${other}' (one instance folder)`,
      );
    seen.set(collisionKey(inst.instance_id), inst.instance_id);
  }
}
