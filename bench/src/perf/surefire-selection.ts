/**
 * `bun run bench surefire-selection --rows ROWS.jsonl --mirrors DIR`: whether the suite check of `bench
 * real-exec` (suite-check.ts: the classes the project's own Surefire configuration selects among the base
 * tree's test sources) predicts the suite Multi-SWE-bench ran, on its published rows: per row, the
 * selection at the row's `base.sha` against the test classes of its published `run_result`. Nothing runs;
 * the rows come from `bench/src/msb-published/extract.ts`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { InputError, UsageError } from '@faun/kit';
import { type FlagDefaults, parseFlags } from '../args.ts';
import { readPublishedRows } from '../msb-published/rows.ts';
import { mirrorsIn } from './msb-published.ts';
import { type SuiteCheck, selectionAt, suiteCheck } from './suite-check.ts';

export const FLAGS = { rows: undefined, mirrors: undefined } satisfies FlagDefaults;

export default async function surefireSelectionBench(args: string[]): Promise<Record<string, unknown>> {
  const f = parseFlags('surefire-selection', args, FLAGS);
  if (!f.rows || !f.mirrors)
    throw new UsageError('surefire-selection needs --rows FILE --mirrors DIR', {
      hint: 'rows from: bun bench/src/msb-published/extract.ts --mirror … --repo fasterxml/jackson-dataformat-xml --out ROWS',
    });
  if (!existsSync(f.rows)) throw new InputError(`--rows ${f.rows}: no such file`);
  const mirrors = mirrorsIn(f.mirrors);
  const rows: Record<string, SuiteCheck | { error: string }> = {};
  for (const row of readPublishedRows(readFileSync(f.rows, 'utf8'), f.rows)) {
    const dir = mirrors[`${row.org}/${row.repo}`.toLowerCase()];
    if (!dir || !row.run_tests) {
      rows[row.id] = { error: dir ? 'the row has no run_result' : `no mirror of ${row.org}/${row.repo}` };
      continue;
    }
    const c = suiteCheck(selectionAt(dir, row.base_sha), row.run_tests);
    rows[row.id] = c;
    console.log(
      `${row.id.padEnd(44)} ${row.base_sha.slice(0, 8)} selected ${c.selected} published ${c.ran} ${c.equal ? 'equal' : `missing ${c.missing.join(' ') || '-'} extra ${c.extra.join(' ') || '-'}`}`,
    );
  }
  const checks = Object.values(rows);
  const equal = checks.filter((c) => 'equal' in c && c.equal).length;
  console.log(`surefire-selection: ${equal}/${checks.length} rows: the selection is the published suite`);
  return { rows, equal, total: checks.length };
}
