/** `faun report`: re-grade every stored instance log of a run (no containers) and rewrite the reports. */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type ExecutionInstance, ExecutionResult, stableStringify, writeFileAtomic } from '@faun/schema';
import { type Meta, readJson } from './files/run-files.ts';
import { gradeLog } from './grading/grading.ts';
import { instanceReport, type RunReport, runReport } from './report/report.ts';
import { gradeOutcome } from './run/run-instance.ts';

const GRADED = new Set(['resolved', 'unresolved', 'empty_patch', 'invalid_log', 'tampered']);

/**
 * Re-grades one stored instance log with `meta`'s grading inputs (no container); rewrites its result and
 * report when they change.
 */
export async function regradeInstance(
  d: string,
  stored: ExecutionResult,
  meta: Meta & { nonce: string | null; framed?: boolean },
): Promise<{ result: ExecutionResult; changed: boolean }> {
  if (!GRADED.has(stored.outcome) || meta.patch_empty) return { result: stored, changed: false };
  // nothing was applied or run (e.g. every file of the patch was test infrastructure): no log to grade
  if (stored.applied_with === null && stored.exit_code === null) return { result: stored, changed: false };
  const g = gradeLog({
    log: await readFile(join(d, 'test_output.txt'), 'utf8').catch(() => ''),
    // logs stored before the grader framed them carry faun's nonce markers
    framed: meta.framed ?? meta.nonce !== null,
    legacyNonce: meta.nonce,
    exitCode: stored.exit_code,
    parser: meta.parser,
    exactIds: meta.exact_ids ?? false,
    failToPass: meta.fail_to_pass,
    passToPass: meta.pass_to_pass,
    evalType: meta.eval_type,
    msb: meta.msb ?? null,
  });
  const next = {
    ...stored,
    outcome: gradeOutcome(g, meta.patch_empty),
    resolved_status: g.valid ? g.resolved_status : 'RESOLVED_NO',
    ...(g.tampered.length ? { tampered: g.tampered } : {}),
    tests_status: g.tests_status,
    error: g.invalidReason ?? g.note,
    flags: g.flags,
  } as ExecutionResult;
  if (stableStringify(next) === stableStringify(stored)) return { result: stored, changed: false };
  await writeFileAtomic(join(d, 'result.json'), `${stableStringify(next, 2)}\n`);
  await writeFileAtomic(
    join(d, 'report.json'),
    `${stableStringify(instanceReport(next, meta.patch_empty), 2)}\n`,
  );
  return { result: next, changed: true };
}

/** Re-grades every stored instance log of a run (no containers); rewrites report.json files. */
export async function regradeRun(
  dir: string,
  runId: string,
): Promise<{ report: RunReport; changed: string[] }> {
  const root = join(dir, 'instances');
  if (!existsSync(root)) throw new Error(`no run at ${dir} (missing instances/)`);
  const results: ExecutionResult[] = [];
  const langs: Array<{ instance_id: string; language: ExecutionInstance['language'] }> = [];
  const empty: string[] = [];
  const changed: string[] = [];
  for (const name of (await readdir(root)).sort()) {
    const d = join(root, name);
    const stored = await readJson<ExecutionResult>(join(d, 'result.json'));
    const meta = await readJson<Meta & { nonce: string | null }>(join(d, 'meta.json'));
    if (!stored || !meta) continue;
    const { result: r, changed: moved } = await regradeInstance(d, ExecutionResult.parse(stored), meta);
    if (moved) changed.push(r.instance_id);
    results.push(r);
    langs.push({ instance_id: r.instance_id, language: meta.language as ExecutionInstance['language'] });
    if (meta.patch_empty) empty.push(r.instance_id);
  }
  const report = runReport({
    runId,
    model: results[0]?.model ?? 'none',
    instances: langs,
    submitted: langs.map((l) => l.instance_id),
    emptyPatch: empty,
    results,
  });
  await writeFileAtomic(join(dir, 'report.json'), `${stableStringify(report, 2)}\n`);
  return { report, changed };
}
