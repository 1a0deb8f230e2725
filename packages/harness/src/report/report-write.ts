/**
 * `verify --report-dir D` (I/O edge): the run's reports in the reference tools' own formats —
 * `D/<model>.<run_id>.json` (SWE-bench's run report) with the per-instance files SWE-bench keeps
 * (`D/logs/run_evaluation/<run_id>/<model>/<id>/report.json`, `test_output.txt`, `patch.diff`, `eval.sh`;
 * report.json only for graded instances, as SWE-bench writes it), and `D/final_report.json`
 * (Multi-SWE-bench's `FinalReport`) when the input has Multi-SWE-bench rows.
 */

import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { within } from '@faun/kit';
import type { ExecutionInstance, ExecutionResult } from '@faun/schema';
import { writeFileAtomic } from '@faun/schema';
import {
  formatCounts,
  msbFinalReport,
  SWE_GRADED,
  swebenchReportName,
  swebenchRunReport,
} from './report-formats.ts';

export interface WrittenReport {
  format: 'swebench' | 'multi-swe-bench';
  path: string;
  /** The counts as `verify` prints them. */
  counts: string;
}

export async function writeFormatReports(opts: {
  reportDir: string;
  runDir: string;
  runId: string;
  model: string;
  instances: ExecutionInstance[];
  predictions: Array<{ instance_id: string; empty: boolean }>;
  results: ExecutionResult[];
  /** Instance id → its directory name under `<runDir>/instances`. */
  dirName: (id: string) => string;
}): Promise<WrittenReport[]> {
  const logs: Record<string, string> = {};
  for (const r of opts.results) {
    if (r.outcome === 'resolved') continue;
    const f = join(opts.runDir, 'instances', opts.dirName(r.instance_id), 'test_output.txt');
    if (existsSync(f)) logs[r.instance_id] = await readFile(f, 'utf8');
  }
  const input = {
    runId: opts.runId,
    model: opts.model,
    instances: opts.instances.map((i) => i.instance_id),
    predictions: opts.predictions,
    results: opts.results,
    logs,
  };
  await mkdir(opts.reportDir, { recursive: true });
  const out: WrittenReport[] = [];
  const swe = swebenchRunReport(input);
  // every path below is checked to stay under the report directory (ids and model names come from input)
  const swePath = within(opts.reportDir, [swebenchReportName(opts.model, opts.runId)], 'report name');
  await writeFileAtomic(swePath, `${JSON.stringify(swe, null, 4)}\n`);
  out.push({ format: 'swebench', path: swePath, counts: formatCounts(swe) });

  const byId = new Map(opts.results.map((r) => [r.instance_id, r]));
  const modelDir = within(
    opts.reportDir,
    ['logs', 'run_evaluation', opts.runId, opts.model.replaceAll('/', '__')],
    'run id or model name',
  );
  for (const inst of opts.instances) {
    const r = byId.get(inst.instance_id);
    if (!r || (inst.source ?? 'swebench') !== 'swebench') continue;
    const from = within(opts.runDir, ['instances', opts.dirName(inst.instance_id)], 'instance id');
    const to = within(modelDir, [inst.instance_id], 'instance id');
    if (to === modelDir) continue;
    await mkdir(to, { recursive: true });
    const files = [
      'test_output.txt',
      'patch.diff',
      'eval.sh',
      ...(SWE_GRADED.has(r.outcome) ? ['report.json'] : []),
    ];
    for (const f of files) if (existsSync(join(from, f))) await copyFile(join(from, f), join(to, f));
  }

  if (opts.instances.some((i) => i.source === 'multi-swe-bench')) {
    const msb = msbFinalReport(input);
    const msbPath = join(opts.reportDir, 'final_report.json');
    await writeFileAtomic(msbPath, `${JSON.stringify(msb, null, 4)}\n`);
    out.push({ format: 'multi-swe-bench', path: msbPath, counts: formatCounts(msb) });
  }
  return out;
}
