/**
 * Reading and checking `faun score` inputs: predictions keep their line numbers so problems name
 * `file:line`; duplicate ids (per model) are an input error unless `--dedupe` picks one.
 * @module
 */
import { InputError } from '@faun/kit';
import { formatIssue, type JsonlIssue, Prediction, readJsonl } from '@faun/schema';

/** A record with its 1-based line number. */
export interface Lined<T> {
  line: number;
  value: T;
}

/** What to do with a second prediction for the same id and model. */
export type DedupeMode = 'error' | 'first' | 'last';

/** Throws an InputError listing the first few issues, or returns when there are none. */
export function failOnIssues(what: string, issues: JsonlIssue[], hint?: string): void {
  if (!issues.length) return;
  const shown = issues.slice(0, 5).map(formatIssue).join('\n  ');
  throw new InputError(
    `${issues.length} bad line(s) in the ${what}:\n  ${shown}${issues.length > 5 ? '\n  …' : ''}`,
    { hint: hint ?? `fix those lines; every ${what} line must be a valid record` },
  );
}

/** Reads the predictions file with line numbers; bad lines are an InputError. */
export async function readPredictions(path: string): Promise<Lined<Prediction>[]> {
  const issues: JsonlIssue[] = [];
  const rows: Lined<Prediction>[] = [];
  for await (const r of readJsonl(path, { schema: Prediction, errors: 'collect', issues })) rows.push(r);
  failOnIssues('predictions', issues);
  return rows;
}

/**
 * Drops repeated predictions for the same (model, id). `error` reports each repeat as
 * `file:line: id: duplicate of line N`; `first`/`last` keep that occurrence. Order is preserved.
 */
export function dedupePredictions(
  file: string,
  rows: readonly Lined<Prediction>[],
  mode: DedupeMode,
): { kept: Lined<Prediction>[]; issues: JsonlIssue[]; dropped: number } {
  const at = new Map<string, number>();
  const issues: JsonlIssue[] = [];
  const keep = rows.map(() => true);
  rows.forEach((r, i) => {
    const key = `${r.value.model}\u0000${r.value.id}`;
    const prev = at.get(key);
    if (prev === undefined) {
      at.set(key, i);
      return;
    }
    if (mode === 'error') {
      const problem = `duplicate of line ${rows[prev]!.line} (id ${JSON.stringify(r.value.id)}, model ${r.value.model})`;
      issues.push({ file, line: r.line, field: 'id', problem });
    } else if (mode === 'first') keep[i] = false;
    else {
      keep[prev] = false;
      at.set(key, i);
    }
  });
  const kept = rows.filter((_, i) => keep[i]);
  return { kept, issues, dropped: rows.length - kept.length };
}
