/**
 * `bun run bench msb-published --rows ROWS.jsonl --mirrors DIR --out DIR [--fresh]`: published
 * Multi-SWE-bench dataset rows run as Multi-SWE-bench runs them (msb-published/run.ts), one at a time.
 * Writes `OUT/<instance_id>.json` per row, `OUT/summary.json` and `OUT/table.md`, prints a summary line, and fails (exit 1)
 * when an empty or test-patch-only control resolves. `--fresh` re-runs every stage (otherwise stored runs
 * under OUT/runs/ are reused); `--only a,b` runs those instance ids, in that order.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_SPECS } from '@faun/harness';
import { FaunError, InputError, UsageError } from '@faun/kit';
import { stableStringify } from '@faun/schema';
import { type FlagDefaults, parseFlags } from '../args.ts';
import { markdownTable, summarize, summaryLine } from '../msb-published/compare.ts';
import { readPublishedRows } from '../msb-published/rows.ts';
import { runRow } from '../msb-published/run.ts';

export const FLAGS = {
  rows: undefined,
  mirrors: undefined,
  out: undefined,
  fresh: false,
  only: undefined,
  timeout: 3600,
} satisfies FlagDefaults;

/** Git directories of the mirrors under `dir` (`owner+name/repo`, `owner+name`), keyed `owner/name` lowercased. */
export function mirrorsIn(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of readdirSync(dir)) {
    if (!d.includes('+')) continue;
    for (const g of [join(dir, d, 'repo'), join(dir, d)])
      if (existsSync(join(g, 'HEAD'))) {
        out[d.replace('+', '/').toLowerCase()] = g;
        break;
      }
  }
  return out;
}

export default async function msbPublished(args: string[]): Promise<Record<string, unknown>> {
  const f = parseFlags('msb-published', args, FLAGS);
  if (!f.rows || !f.mirrors || !f.out)
    throw new UsageError('msb-published needs --rows FILE --mirrors DIR --out DIR', {
      hint: 'bun run bench msb-published --rows ROWS.jsonl --mirrors /work/.mirror --out DIR [--fresh]',
    });
  if (!existsSync(f.rows)) throw new InputError(`--rows ${f.rows}: no such file`);
  if (!existsSync(f.mirrors)) throw new InputError(`--mirrors ${f.mirrors}: no such folder`);
  // `--only a,b`: those rows, in that order
  const only = f.only ? f.only.split(',') : null;
  const all = readPublishedRows(readFileSync(f.rows, 'utf8'), f.rows);
  const rows = only
    ? all.filter((r) => only.includes(r.id)).sort((a, b) => only.indexOf(a.id) - only.indexOf(b.id))
    : all;
  if (!rows.length) throw new InputError(`--only ${f.only}: no row of ${f.rows} has those ids`);
  mkdirSync(f.out, { recursive: true });
  const mirrors = mirrorsIn(f.mirrors);
  const records = [];
  for (const [i, row] of rows.entries()) {
    console.error(`[${i + 1}/${rows.length}] ${row.id}`);
    const rec = await runRow(row, {
      out: f.out,
      mirrors,
      specs: REPO_SPECS,
      fresh: f.fresh,
      timeoutS: f.timeout,
      log: (l) => console.error(l),
    });
    if (rec.error) console.error(`${row.id}: not run: ${rec.error}`);
    writeFileSync(join(f.out, `${row.id}.json`), `${stableStringify(rec, 2)}\n`);
    records.push(rec);
  }
  const summary = summarize(records);
  writeFileSync(join(f.out, 'summary.json'), `${stableStringify(summary, 2)}\n`);
  writeFileSync(join(f.out, 'table.md'), markdownTable(records));
  console.log(summaryLine(summary));
  if (summary.controls_resolved.length)
    throw new FaunError(`msb-published: a control resolved: ${summary.controls_resolved.join(', ')}`, {
      hint: 'an empty or test-patch-only run must not resolve: see OUT/<instance_id>.json',
    });
  return { ...summary };
}
