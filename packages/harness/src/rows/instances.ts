/**
 * Instance and prediction import (I/O edge): rows of any benchmark (benchmarks/: SWE-bench, SWE-bench-java,
 * Multi-SWE-bench, faun's own) → ExecutionInstance, checked; predictions as SWE-bench JSONL/JSON or
 * Multi-SWE-bench `{org, repo, number, fix_patch}`, ids as their benchmark gives them (an instance's other
 * id forms accepted: `aliases`); `gold`/`empty`.
 */
import { readFile } from 'node:fs/promises';
import { InputError } from '@faun/kit';
import { ExecutionInstance, formatIssue, JsonlError, readJsonl } from '@faun/schema';
import type { Row } from '../benchmarks/benchmark.ts';
import { benchmarkOfRow, idResolver } from '../benchmarks/registry.ts';
import { str } from '../benchmarks/row-fields.ts';
import { collisionKey, rowProblem } from './row-check.ts';

/** One dataset row (any of the supported shapes) → ExecutionInstance. `where` names file:line for errors. */
export function toExecutionInstance(row: Row, where: string): ExecutionInstance {
  const candidate = benchmarkOfRow(row).toInstance(row, where);
  const parsed = ExecutionInstance.safeParse(candidate);
  if (!parsed.success || !candidate.instance_id || !candidate.base_commit) {
    const issue = parsed.success ? null : parsed.error.issues[0];
    const field = issue ? issue.path.join('.') : !candidate.instance_id ? 'instance_id' : 'base_commit';
    throw new InputError(`${where}: field '${field}' ${issue?.message ?? 'is missing'}`, {
      hint: 'rows need instance_id (or org/repo/number), repo, base_commit, patch/fix_patch, test_patch',
    });
  }
  const bad = rowProblem(parsed.data);
  if (bad)
    throw new InputError(`${where}: field '${bad.field}' ${bad.problem}`, {
      hint: 'fix or remove the row (rows are checked before anything runs: README, security model)',
    });
  return parsed.data;
}

/** Rows of a JSONL file, a JSON list, or a JSON object keyed by id. */
async function readRows(path: string): Promise<Array<{ row: Row; where: string }>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${path}: ${(e as Error).message}`);
  }
  const trimmed = text.trimStart();
  if (
    trimmed.startsWith('[') ||
    (trimmed.startsWith('{') && !trimmed.split('\n', 2)[1]?.trim().startsWith('{'))
  ) {
    try {
      const doc = JSON.parse(text) as unknown;
      if (Array.isArray(doc)) return doc.map((row, i) => ({ row: row as Row, where: `${path}[${i}]` }));
      if (doc && typeof doc === 'object') {
        const values = Object.entries(doc as Record<string, Row>);
        if (values.every(([, v]) => v && typeof v === 'object'))
          return values.map(([k, v]) => ({ row: { instance_id: k, ...v }, where: `${path}#${k}` }));
      }
    } catch {
      // fall through: JSONL whose first line happens to be an object
    }
  }
  const out: Array<{ row: Row; where: string }> = [];
  try {
    for await (const { line, value } of readJsonl<Row>(path))
      out.push({ row: value, where: `${path}:${line}` });
  } catch (e) {
    if (e instanceof JsonlError) throw new InputError(formatIssue(e.issue));
    throw e;
  }
  return out;
}

/** Loads instances from a dataset file; duplicate ids are an error. */
export async function loadInstances(path: string): Promise<ExecutionInstance[]> {
  return (await loadInstanceRows(path)).map((r) => r.instance);
}

/** Instances with the rows they came from (for writing them back in their own shape). */
export async function loadInstanceRows(
  path: string,
): Promise<Array<{ instance: ExecutionInstance; row: Row }>> {
  const rows = await readRows(path);
  const seen = new Map<string, string>();
  return rows.map(({ row, where }) => {
    const inst = toExecutionInstance(row, where);
    const key = collisionKey(inst.instance_id);
    const other = seen.get(key);
    if (other === inst.instance_id)
      throw new InputError(`${where}: duplicate instance id ${inst.instance_id}`);
    if (other !== undefined)
      throw new InputError(
        `${where}: field 'instance_id' '${inst.instance_id}' collides with '${other}' (the same name ignoring case and punctuation: one instance folder)`,
        { hint: 'give the rows distinct ids' },
      );
    seen.set(key, inst.instance_id);
    return { instance: inst, row };
  });
}

/** A model's patch for one instance. */
export interface PatchPrediction {
  instance_id: string;
  model: string;
  patch: string;
}

/** Built-in predictions: the gold patch, or an empty one. */
export function builtinPredictions(
  kind: 'gold' | 'empty',
  instances: ExecutionInstance[],
): PatchPrediction[] {
  return instances.map((i) => ({
    instance_id: i.instance_id,
    model: kind,
    patch: kind === 'gold' ? i.patch : '',
  }));
}

/** Loads predictions (`gold`, `empty`, or a file); mixed model names and duplicate ids are errors. */
export async function loadPredictions(
  spec: string,
  instances: ExecutionInstance[],
  /** Every instance id of the dataset: a prediction for another id is an error naming its line. */
  known?: { ids: Set<string>; file: string },
): Promise<PatchPrediction[]> {
  if (spec === 'gold' || spec === 'empty') return builtinPredictions(spec, instances);
  const rows = await readRows(spec);
  const seen = new Set<string>();
  const out: PatchPrediction[] = [];
  const resolve = idResolver(instances);
  for (const { row, where } of rows) {
    const benchmark = benchmarkOfRow(row);
    const given = benchmark.rowId(row);
    const id = given ? resolve(given) : given;
    if (!id) throw new InputError(`${where}: prediction has no instance_id (or org/repo/number)`);
    if (seen.has(id)) throw new InputError(`${where}: duplicate prediction for ${id}`);
    if (known && !known.ids.has(id))
      throw new InputError(`${where}: instance_id: '${id}' is not an instance of ${known.file}`, {
        hint: 'predictions must name instances of --instances (check the file pair)',
      });
    if (row.model_patch === undefined && row.fix_patch === undefined && row.patch === undefined)
      throw new InputError(`${where}: model_patch: missing (each prediction needs the model's diff)`, {
        hint: 'give every line a "model_patch" string ("" for no change)',
      });
    seen.add(id);
    out.push({
      instance_id: id,
      model: str(row.model_name_or_path ?? row.model) || benchmark.defaultModel,
      patch: str(row.model_patch ?? row.fix_patch ?? row.patch),
    });
  }
  const models = new Set(out.map((p) => p.model));
  if (models.size > 1)
    throw new InputError(`${spec}: predictions mix model names (${[...models].sort().join(', ')})`, {
      hint: 'split the file per model_name_or_path',
    });
  return out;
}
