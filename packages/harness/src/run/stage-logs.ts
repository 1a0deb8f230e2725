/**
 * `faun validate --stage-logs DIR`: every stage run's test output beside the rows, named as
 * Multi-SWE-bench names its stage logs (run.log, test-patch-run.log, fix-patch-run.log; with the swebench
 * rule before.log / after.log; the gold stability check's runs gold-check.log, gold-check.2.log …), repeats ≥ 2
 * as `run.2.log` …, and `instance.json` (instance id,
 * repository, pull-request number, the parser that read the logs), so the logs can be re-derived by
 * other tools — Multi-SWE-bench's own report code among them (`bun run bench real-exec --msb-src`).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { within } from '@faun/kit';
import { stableStringify, writeFileAtomic } from '@faun/schema';
import type { StageLog } from '../validate/validate.ts';

const BASE: Record<StageLog['stage'], string> = {
  run: 'run',
  test: 'test-patch-run',
  fix: 'fix-patch-run',
  before: 'before',
  after: 'after',
  'gold-check': 'gold-check',
};

/** The file name of one stage run's log (`repeat` 0-based). */
export function stageLogName(stage: StageLog['stage'], repeat: number): string {
  return repeat === 0 ? `${BASE[stage]}.log` : `${BASE[stage]}.${repeat + 1}.log`;
}

/** A directory name for an instance id (`owner/repo:pr-N` → `owner__repo-pr-N`). */
export function instanceDirName(id: string): string {
  return id.replaceAll('/', '__').replaceAll(':', '-');
}

/** The pull-request number in an instance id (`owner__repo-123`, `owner/repo:pr-123`), or null. */
export function prNumberOf(id: string): number | null {
  const m = /(?:-|:pr-)(\d+)$/.exec(id);
  return m ? Number(m[1]) : null;
}

/** Writes each stage log under `dir` (atomically; the instance's `instance.json` with its first log). */
export function stageLogWriter(dir: string): (log: StageLog) => Promise<void> {
  return async (log) => {
    const d = within(dir, [instanceDirName(log.instance.instance_id)], 'instance id');
    await mkdir(d, { recursive: true });
    if ((log.stage === 'run' || log.stage === 'before') && log.repeat === 0)
      await writeFileAtomic(
        join(d, 'instance.json'),
        `${stableStringify(
          {
            instance_id: log.instance.instance_id,
            repo: log.instance.repo,
            pr: prNumberOf(log.instance.instance_id),
            parser: log.parser,
          },
          2,
        )}\n`,
      );
    await writeFileAtomic(join(d, stageLogName(log.stage, log.repeat)), log.text);
  };
}
