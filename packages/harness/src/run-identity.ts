/**
 * A run id names one (instances, predictions) pair. The pair's identity is stored in the run's
 * `header.json` (`options.identity`); rerunning the same id with the same inputs resumes it, with other
 * inputs it is refused unless the caller asks to overwrite (which clears the old results first).
 */
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256, UsageError } from '@faun/kit';
import { type ExecutionInstance, stableStringify } from '@faun/schema';
import type { PatchPrediction } from './rows/instances.ts';

/** What a run was made from. */
export interface RunIdentity {
  model: string;
  /** The predictions as given: a file path, `gold` or `empty`. */
  predictions: string;
  predictions_sha256: string;
  /** The instances as given (a file path, or a label). */
  instances: string;
  instances_sha256: string;
}

/** An identity computed from the records themselves (library callers that have no files). */
export function identityOf(
  instances: ExecutionInstance[],
  predictions: PatchPrediction[],
  labels: { predictions?: string; instances?: string } = {},
): RunIdentity {
  const byId = <T extends { instance_id: string }>(xs: T[]) =>
    [...xs].sort((a, b) => (a.instance_id < b.instance_id ? -1 : a.instance_id > b.instance_id ? 1 : 0));
  return {
    model: predictions[0]?.model ?? 'none',
    predictions: labels.predictions ?? 'predictions',
    predictions_sha256: sha256(stableStringify(byId(predictions))),
    instances: labels.instances ?? 'instances',
    instances_sha256: sha256(stableStringify(byId(instances))),
  };
}

const short = (h: string) => h.slice(0, 12);

async function readHeader(
  path: string,
): Promise<{ options?: { identity?: RunIdentity; model?: string } } | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Why `current` may not continue a run stored with `stored` (null = it may). A run stored before
 * identities were recorded only has its model name: a different model is a conflict.
 */
export function identityConflict(
  runId: string,
  stored: { identity?: RunIdentity; model?: string } | null,
  current: RunIdentity,
): string | null {
  if (!stored) return null;
  const s = stored.identity;
  if (!s) {
    if (stored.model !== undefined && stored.model !== current.model)
      return `run ${runId} was made with model ${stored.model}, not ${current.model}`;
    return null;
  }
  if (s.predictions_sha256 !== current.predictions_sha256)
    return (
      `run ${runId} was made with predictions ${s.predictions} (model ${s.model}, sha256 ${short(s.predictions_sha256)}…), ` +
      `not ${current.predictions} (model ${current.model}, sha256 ${short(current.predictions_sha256)}…)`
    );
  if (s.instances_sha256 !== current.instances_sha256)
    return (
      `run ${runId} was made with instances ${s.instances} (sha256 ${short(s.instances_sha256)}…), ` +
      `not ${current.instances} (sha256 ${short(current.instances_sha256)}…)`
    );
  return null;
}

/** Files of a run directory that belong to one run's results (removed by `--overwrite`). */
const RESULT_FILES = ['instances', 'samples.jsonl', 'report.json', 'summary.json'];

/**
 * Checks that `dir` is empty, or holds a run of the same identity; otherwise throws a UsageError
 * (exit 2), or — with `overwrite` — removes the old run's results. Returns whether results were cleared.
 */
export async function claimRunDir(
  dir: string,
  runId: string,
  identity: RunIdentity,
  overwrite: boolean,
): Promise<boolean> {
  const header = await readHeader(join(dir, 'header.json'));
  const hasResults = existsSync(join(dir, 'instances'));
  const conflict = header || hasResults ? identityConflict(runId, header?.options ?? {}, identity) : null;
  if (!conflict) return false;
  if (!overwrite)
    throw new UsageError(`${conflict}; use another --run-id, or --overwrite to replace it`, {
      hint: `the stored run is in ${dir}`,
    });
  for (const f of RESULT_FILES) await rm(join(dir, f), { recursive: true, force: true });
  return true;
}
