/**
 * The files of a run directory that several stages read (verify writes them, report and prune read them):
 * the instance folder name, the grading inputs stored beside each log, and a tolerant JSON reader.
 */
import { readFile } from 'node:fs/promises';
import type { MsbGrading } from '@faun/schema';
import type { EvalType } from '../grading/grading.ts';
import type { ParserName } from '../parsers/index.ts';

/** A file-system-safe directory name for an instance id. */
export function instanceDirName(id: string): string {
  return id.replace(/[^A-Za-z0-9_.-]+/g, '__');
}

/** What is stored beside each instance's log so it can be re-graded without the dataset. */
export interface Meta {
  parser: ParserName;
  /** Ids matched exactly as the reference does (its own parser). */
  exact_ids?: boolean;
  eval_type: EvalType;
  /** Multi-SWE-bench rows: categories and stored stages. */
  msb?: MsbGrading | null;
  fail_to_pass: string[];
  pass_to_pass: string[];
  language: string;
  patch_empty: boolean;
}

export async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return null;
  }
}
