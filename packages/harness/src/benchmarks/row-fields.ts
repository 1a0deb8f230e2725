/** Reading the fields benchmark rows share (pure): strings, test lists, languages, issue text. */
import { InputError } from '@faun/kit';
import { GradingRule, type Language } from '@faun/schema';
import type { Row } from './benchmark.ts';

export const LANGS: Record<string, Language> = {
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

/** A row's `language` (or `lang`) as faun names it: unknown names are `other`, none is `python`. */
export function languageOf(row: Row): Language {
  const raw = str(row.language ?? row.lang).toLowerCase();
  return LANGS[raw] ?? (raw ? 'other' : 'python');
}

export const str = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);

/** A field that is absent, null or empty as null; otherwise its string. */
export const optional = (row: Row, k: string): string | null =>
  row[k] === undefined || row[k] === null || row[k] === '' ? null : str(row[k]);

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

/** An issue text's first line as the title, the rest as the body. */
export function titleBody(statement: string): { title: string; body: string } {
  const nl = statement.indexOf('\n');
  return {
    title: nl < 0 ? statement.trim() : statement.slice(0, nl).trim(),
    body: nl < 0 ? '' : statement.slice(nl + 1),
  };
}

/** A Multi-SWE-bench row: `org`, `repo`, `number` (its `PullRequest`). */
export const msbShape = (row: Row): boolean => typeof row.org === 'string' && row.number !== undefined;

/** A row faun wrote (`faun validate --out`: an ExecutionInstance, with its schema version or grading rule). */
export const faunShape = (row: Row): boolean =>
  !msbShape(row) && (row.v !== undefined || GradingRule.safeParse(row.source).success);
