/**
 * Instance and prediction import: SWE-bench, SWE-bench-java and Multi-SWE-bench rows → ExecutionInstance;
 * predictions as SWE-bench JSONL/JSON or Multi-SWE-bench `{org, repo, number, fix_patch}`; `gold`/`empty`.
 */
import { readFile } from 'node:fs/promises';
import { InputError } from '@faun/kit';
import {
  ExecutionInstance,
  formatIssue,
  JsonlError,
  type Language,
  type MsbGrading,
  type MsbStageResult,
  readJsonl,
} from '@faun/schema';
import { versionForPr } from '../envs/spec-versions.ts';
import { collisionKey, rowProblem } from './row-check.ts';

type Row = Record<string, unknown>;

const LANGS: Record<string, Language> = {
  python: 'python',
  py: 'python',
  java: 'java',
  javascript: 'javascript',
  js: 'javascript',
  typescript: 'typescript',
  ts: 'typescript',
  go: 'go',
  golang: 'go',
  rust: 'rust',
  c: 'c',
  cpp: 'cpp',
  'c++': 'cpp',
};

/** A test list given as an array, a JSON-string array, or Multi-SWE-bench's `{test: {...}}` map. */
export function testList(v: unknown, where: string): string[] {
  if (v === undefined || v === null || v === '') return [];
  if (typeof v === 'string') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      throw new InputError(
        `${where}: expected a JSON list of test ids, got ${JSON.stringify(v.slice(0, 60))}`,
      );
    }
    return testList(parsed, where);
  }
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'object') return Object.keys(v as object);
  throw new InputError(`${where}: expected a list of test ids`);
}

/** A stored Multi-SWE-bench stage result (`TestResult`), or null when absent. */
function stageOf(v: unknown, where: string): MsbStageResult | null {
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'object' || Array.isArray(v))
    throw new InputError(`${where}: expected {passed_tests, failed_tests, skipped_tests}`);
  const o = v as Record<string, unknown>;
  return {
    passed_tests: testList(o.passed_tests, `${where}.passed_tests`),
    failed_tests: testList(o.failed_tests, `${where}.failed_tests`),
    skipped_tests: testList(o.skipped_tests, `${where}.skipped_tests`),
  };
}

/** Every test category and stored stage result of a Multi-SWE-bench row. */
export function msbGrading(row: Row, where: string): MsbGrading {
  const cat = (k: string) => testList(row[k], `${where}: ${k}`);
  return {
    fixed_tests: cat('fixed_tests'),
    p2p_tests: cat('p2p_tests'),
    f2p_tests: cat('f2p_tests'),
    s2p_tests: cat('s2p_tests'),
    n2p_tests: cat('n2p_tests'),
    run_result: stageOf(row.run_result, `${where}: run_result`),
    test_patch_result: stageOf(row.test_patch_result, `${where}: test_patch_result`),
    fix_patch_result: stageOf(row.fix_patch_result, `${where}: fix_patch_result`),
  };
}

const str = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);

/** One dataset row (any of the supported shapes) → ExecutionInstance. `where` names file:line for errors. */
export function toExecutionInstance(row: Row, where: string): ExecutionInstance {
  const isMsb = typeof row.org === 'string' && row.number !== undefined;
  const repo = isMsb ? `${row.org}/${row.repo}` : str(row.repo);
  const instanceId = isMsb ? `${repo}:pr-${row.number}` : str(row.instance_id);
  const base = row.base as { sha?: string } | undefined;
  const langRaw = str(row.language ?? row.lang).toLowerCase();
  // faun's own rows (`faun validate --out`) keep the rule they were validated under: source and categories
  const own = !isMsb && row.source === 'multi-swe-bench' && typeof row.msb === 'object' && row.msb !== null;
  const msb = isMsb ? msbGrading(row, where) : own ? (row.msb as MsbGrading) : null;
  const opt = (k: string) => (row[k] === undefined || row[k] === null || row[k] === '' ? null : str(row[k]));
  const language: Language = LANGS[langRaw] ?? (langRaw ? 'other' : 'python');
  const candidate = {
    instance_id: instanceId,
    repo,
    language,
    base_commit: isMsb ? str(base?.sha ?? row.base_commit) : str(row.base_commit),
    patch: str(row.patch ?? row.fix_patch),
    test_patch: str(row.test_patch),
    // Multi-SWE-bench: every test that must pass after the fix and did not before (f2p, s2p, n2p).
    fail_to_pass: msb
      ? [...new Set([...msb.f2p_tests, ...msb.s2p_tests, ...msb.n2p_tests])]
      : testList(row.FAIL_TO_PASS ?? row.fail_to_pass, `${where}: FAIL_TO_PASS`),
    pass_to_pass: msb
      ? msb.p2p_tests
      : testList(row.PASS_TO_PASS ?? row.pass_to_pass, `${where}: PASS_TO_PASS`),
    problem_statement: str(row.problem_statement ?? row.body),
    // Multi-SWE-bench rows carry no version: it picks the environment by PR range, as versionForPr does.
    version:
      row.version !== undefined && row.version !== null
        ? str(row.version)
        : isMsb
          ? versionForPr(repo, Number(row.number))
          : null,
    environment_setup_commit: row.environment_setup_commit ? str(row.environment_setup_commit) : null,
    test_cmd: row.test_cmd ? str(row.test_cmd) : null,
    image: row.image ? str(row.image) : null,
    source: isMsb || own ? ('multi-swe-bench' as const) : ('swebench' as const),
    msb,
    eval_script: opt('eval_script'),
    log_parser: opt('log_parser'),
    eval_type: opt('eval_type'),
  };
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
  for (const { row, where } of rows) {
    const isMsb = typeof row.org === 'string' && row.number !== undefined;
    const id = isMsb ? `${row.org}/${row.repo}:pr-${row.number}` : str(row.instance_id);
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
      model: str(row.model_name_or_path ?? row.model) || (isMsb ? 'msb' : 'model'),
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
