/**
 * SWE-bench's report of a run (I/O edge): `D/<model>.<run_id>.json` (its run report, for every instance of
 * the run) with the per-instance files SWE-bench keeps for its own rows
 * (`D/logs/run_evaluation/<run_id>/<model>/<id>/report.json`, `test_output.txt`, `patch.diff`, `eval.sh`;
 * report.json only for graded instances, as SWE-bench writes it).
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { within } from '@faun/kit';
import { writeFileAtomic } from '@faun/schema';
import { formatCounts, SWE_GRADED, swebenchReportName, swebenchRunReport } from '../report/report-formats.ts';
import type { ReportFormat } from './benchmark.ts';

export const swebenchReport: ReportFormat = {
  label: 'SWE-bench',
  async write(ctx, owned) {
    const { runId, model } = ctx.input;
    const swe = swebenchRunReport(ctx.input);
    // every path below is checked to stay under the report directory (ids and model names come from input)
    const path = within(ctx.reportDir, [swebenchReportName(model, runId)], 'report name');
    await writeFileAtomic(path, `${JSON.stringify(swe, null, 4)}\n`);
    const byId = new Map(ctx.input.results.map((r) => [r.instance_id, r]));
    const modelDir = within(
      ctx.reportDir,
      ['logs', 'run_evaluation', runId, model.replaceAll('/', '__')],
      'run id or model name',
    );
    for (const inst of owned) {
      const r = byId.get(inst.instance_id);
      if (!r) continue;
      const from = within(ctx.runDir, ['instances', ctx.dirName(inst.instance_id)], 'instance id');
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
    return { path, counts: formatCounts(swe) };
  },
};
