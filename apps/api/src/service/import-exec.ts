/**
 * Imports `faun verify` run directories (`--import DIR`, e.g. the demo's `demo-out/execution`): each
 * becomes a finished execution run on the registered dataset holding its instances — or, when none does,
 * on the instances file its run record names (registered then, if its sha256 still matches). Every item
 * keeps its ExecutionResult (stages, contract, flaky re-runs…), its patch and its stage and test logs,
 * exactly as a run submitted to this server would. The run id derives from the dataset and the results,
 * so a restart with the same directory adds nothing.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { executionItem, ResultMessage } from '@faun/jobs';
import { sha256 } from '@faun/kit';
import { ExecutionResult } from '@faun/schema';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/open.ts';
import { runs, submissions } from '../db/schema.ts';
import { MODEL_NAME } from '../routes/schemas.ts';
import type { DatasetInfo } from './datasets.ts';
import type { ImportDeps, ImportResult } from './import-types.ts';
import { claimModel } from './runs.ts';

interface Header {
  command?: string;
  options?: { model?: string; identity?: { instances?: string; instances_sha256?: string } };
}

const readJson = (p: string): unknown => {
  try {
    return JSON.parse(readFileSync(p, 'utf8'));
  } catch {
    return null;
  }
};

/** True for a `faun verify` run directory (a run record whose command is verify, with instances). */
export function isVerifyRun(dir: string): boolean {
  const h = readJson(join(dir, 'header.json')) as Header | null;
  return h?.command === 'verify' && existsSync(join(dir, 'instances'));
}

/** The verify run directories `path` names: itself, or its subfolders that are runs (sorted). */
export function verifyRunDirs(path: string): string[] {
  if (isVerifyRun(path)) return [path];
  return readdirSync(path)
    .sort()
    .map((n) => join(path, n))
    .filter((p) => statSync(p).isDirectory() && isVerifyRun(p));
}

/** Each instance directory's result (a directory without a readable result is left out). */
function results(dir: string): { result: ExecutionResult; dir: string }[] {
  const root = join(dir, 'instances');
  return readdirSync(root)
    .sort()
    .flatMap((n) => {
      const parsed = ExecutionResult.safeParse(readJson(join(root, n, 'result.json')));
      return parsed.success ? [{ result: parsed.data, dir: join(root, n) }] : [];
    });
}

/** The exec dataset holding every id, registering the run's own instances file when none does. */
async function datasetOf(d: ImportDeps, header: Header, ids: string[]): Promise<DatasetInfo | null> {
  for (const info of d.datasets.list()) {
    if (info.task !== 'exec') continue;
    const ds = await d.datasets.items(info.name);
    const have = new Set(ds.items.map((it) => ('instance_id' in it ? it.instance_id : it.id)));
    if (ids.every((id) => have.has(id))) return info;
  }
  const file = header.options?.identity?.instances;
  if (!file || !existsSync(file)) return null;
  const info = await d.datasets.add(file);
  if (!info || info.sha256 !== header.options?.identity?.instances_sha256) return null;
  return info;
}

/** Imports one verify run directory; never throws for a directory that does not fit (skipped). */
export async function importVerifyRun(d: ImportDeps, dir: string): Promise<ImportResult> {
  const name = basename(dir);
  const header = readJson(join(dir, 'header.json')) as Header;
  const got = results(dir);
  if (got.length === 0) return { file: name, status: 'skipped', reason: 'no instance results in the run' };
  const info = await datasetOf(
    d,
    header,
    got.map((g) => g.result.instance_id),
  );
  if (!info)
    return { file: name, status: 'skipped', reason: 'no registered execution dataset holds its instances' };
  const model = header.options?.model ?? got[0]!.result.model;
  if (!MODEL_NAME.test(model))
    return { file: name, status: 'skipped', reason: `model name '${model}' is not valid` };
  const digest = sha256(got.map((g) => JSON.stringify(g.result)).join('\n'));
  const id = `import-${sha256(`${info.sha256}\u0000${digest}`).slice(0, 20)}`;
  const [prev] = await d.db.select({ id: runs.id }).from(runs).where(eq(runs.id, id));
  if (prev) return { file: name, status: 'unchanged', run_id: id, dataset: info.name };
  const ds = await d.datasets.items(info.name);
  const patch = (g: { dir: string }) => {
    const p = join(g.dir, 'patch.diff');
    return existsSync(p) ? readFileSync(p, 'utf8') : '';
  };
  const predictions = got.map((g) => ({
    instance_id: g.result.instance_id,
    model_patch: patch(g),
    model_name_or_path: model,
  }));
  await d.db.transaction(async (tx) => {
    await claimModel(tx as unknown as Db, model, null);
    await tx.insert(runs).values({
      id,
      keyId: null,
      dataset: info.name,
      task: 'exec',
      kind: 'exec',
      model,
      status: 'running',
      total: ds.items.length,
      idempotencyKey: null,
    });
    const text = JSON.stringify(predictions);
    await tx.insert(submissions).values({ runId: id, sha256: sha256(text), bytes: text.length, predictions });
  });
  const done = new Set(got.map((g) => g.result.instance_id));
  const items = await Promise.all(got.map((g) => executionItem(id, g.result, g.dir)));
  const missing = ds.items
    .map((it) => ('instance_id' in it ? it.instance_id : it.id))
    .filter((x) => !done.has(x))
    .map((itemId) => ({ runId: id, itemId, outcome: 'skipped' as const }));
  await d.runs.ingest(ResultMessage.parse({ runId: id, results: [...items, ...missing] }));
  return { file: name, status: 'imported', run_id: id, dataset: info.name, model };
}
