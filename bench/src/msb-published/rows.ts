/**
 * Published Multi-SWE-bench dataset rows (pure): each JSONL line is one row in Multi-SWE-bench's own
 * fields (`org`, `repo`, `number`, `base.sha`, `fix_patch`, `test_patch`, `f2p_tests` / `p2p_tests` /
 * `n2p_tests` / `s2p_tests`, `run_result`…). A bad row is an error naming its file, line and field. Row
 * fields are data: they are checked here and never reach a shell as text.
 */
import { toExecutionInstance } from '@faun/harness';
import { InputError } from '@faun/kit';
import type { ExecutionInstance } from '@faun/schema';

/** Multi-SWE-bench's test categories, each sorted. */
export interface TestSets {
  f2p_tests: string[];
  p2p_tests: string[];
  n2p_tests: string[];
  s2p_tests: string[];
}
export const SET_NAMES = ['f2p_tests', 'p2p_tests', 'n2p_tests', 's2p_tests'] as const;

export interface PublishedRow {
  /** The row's own `instance_id` (`org__repo-N`), or that form built from org / repo / number. */
  id: string;
  org: string;
  repo: string;
  number: number;
  base_sha: string;
  /** The tests the published run stage reported (passed, failed or skipped): the suite it ran. */
  run_tests: string[] | null;
  published: TestSets;
  /** The row as faun runs it (its categories as the grading of gold and the controls). */
  instance: ExecutionInstance;
}

const NAME = /^[A-Za-z0-9][\w.-]*$/;
const SHA = /^[0-9a-f]{40}$/;

/** Test names of a category: Multi-SWE-bench stores an object keyed by test name (or a list). */
function names(v: unknown, where: string, field: string): string[] {
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return [...new Set(v as string[])].sort();
  if (v && typeof v === 'object' && !Array.isArray(v)) return Object.keys(v).sort();
  throw new InputError(`${where}: ${field}: expected an object keyed by test name or a list of names`, {
    hint: 'pass the dataset file as published (mswebench_dataset/<lang>/<org>__<repo>_dataset.jsonl)',
  });
}

function runTests(v: unknown, where: string): string[] | null {
  if (v === undefined || v === null) return null;
  const r = v as Record<string, unknown>;
  const all = ['passed_tests', 'failed_tests', 'skipped_tests'].flatMap((k) =>
    r[k] === undefined ? [] : names(r[k], where, `run_result.${k}`),
  );
  return [...new Set(all)].sort();
}

function field(where: string, name: string, what: string): never {
  throw new InputError(`${where}: ${name}: expected ${what}`, {
    hint: 'pass the dataset file as published (mswebench_dataset/<lang>/<org>__<repo>_dataset.jsonl)',
  });
}

/** One parsed line → a row (throws InputError naming `where` and the field). */
export function readRow(r: Record<string, unknown>, where: string): PublishedRow {
  if (typeof r.org !== 'string' || !NAME.test(r.org)) field(where, 'org', 'a GitHub owner name');
  if (typeof r.repo !== 'string' || !NAME.test(r.repo)) field(where, 'repo', 'a GitHub repository name');
  const number = typeof r.number === 'string' && /^\d+$/.test(r.number) ? Number(r.number) : r.number;
  if (!Number.isInteger(number) || (number as number) <= 0) field(where, 'number', 'a pull-request number');
  const base = r.base as Record<string, unknown> | undefined;
  if (!base || typeof base.sha !== 'string' || !SHA.test(base.sha))
    field(where, 'base.sha', 'a 40-hex commit');
  for (const k of ['fix_patch', 'test_patch'])
    if (typeof r[k] !== 'string' || !(r[k] as string).trim()) field(where, k, 'a non-empty patch');
  const id = typeof r.instance_id === 'string' ? r.instance_id : `${r.org}__${r.repo}-${number}`;
  if (!NAME.test(id)) field(where, 'instance_id', 'letters, digits, ".", "_" and "-" only');
  const published = Object.fromEntries(
    SET_NAMES.map((k) => [
      k,
      r[k] === undefined ? field(where, k, 'a test category') : names(r[k], where, k),
    ]),
  ) as unknown as TestSets;
  return {
    id,
    org: r.org as string,
    repo: r.repo as string,
    number: number as number,
    base_sha: base.sha as string,
    run_tests: runTests(r.run_result, where),
    published,
    instance: toExecutionInstance(r, where),
  };
}

/** Every row of a JSONL text; `file` names the input in errors (`file:line: field: …`). */
export function readPublishedRows(text: string, file: string): PublishedRow[] {
  const out: PublishedRow[] = [];
  const seen = new Set<string>();
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const where = `${file}:${i + 1}`;
    let r: unknown;
    try {
      r = JSON.parse(line);
    } catch (e) {
      throw new InputError(`${where}: not valid JSON (${(e as Error).message})`, {
        hint: 'one dataset row per line',
      });
    }
    if (!r || typeof r !== 'object' || Array.isArray(r))
      throw new InputError(`${where}: expected a JSON object`);
    const row = readRow(r as Record<string, unknown>, where);
    if (seen.has(row.id)) throw new InputError(`${where}: instance_id: ${row.id} appears twice`);
    seen.add(row.id);
    out.push(row);
  }
  if (!out.length) throw new InputError(`${file}: no rows`, { hint: 'the file is empty' });
  return out;
}
