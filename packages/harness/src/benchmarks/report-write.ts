/**
 * `verify --report-dir D` (I/O edge): the run's reports in the reference tools' own formats — SWE-bench's
 * run report for every run, and the report of each other benchmark the run's instances come from
 * (Multi-SWE-bench's `final_report.json`); each benchmark writes its own (benchmarks/).
 */

import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExecutionInstance, ExecutionResult } from '@faun/schema';
import { reportFormats } from './registry.ts';

export interface WrittenReport {
  /** The reference tool whose format it is (`SWE-bench`, `Multi-SWE-bench`). */
  label: string;
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
  const ctx = { reportDir: opts.reportDir, runDir: opts.runDir, input, dirName: opts.dirName };
  const out: WrittenReport[] = [];
  for (const { format, owned } of reportFormats(opts.instances))
    out.push({ label: format.label, ...(await format.write(ctx, owned)) });
  return out;
}
