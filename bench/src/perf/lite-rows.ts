/**
 * `bun run bench lite-rows --mirrors DIR --out DIR [--pointers FILE]`: SWE-bench Lite rows that
 * ../shared/data/swebench-lite lacks, rebuilt from the mirrors and the pointers in
 * bench/data/lite-extra-pointers.jsonl (lite-rows/rows.ts) into OUT/lite-extra.jsonl, for
 * `bun run bench lite --mirrors DIR --data OUT`. Each row's diff is `git diff base..head` in the mirror with
 * git's Python hunk headers (`@@ … @@ def name(…):`, as GitHub shows them).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError, UsageError } from '@faun/kit';
import { type FlagDefaults, parseFlags } from '../args.ts';
import { buildRow, type LitePointer, type LiteRow, parsePointer } from '../lite-rows/rows.ts';
import { mirrorDirs } from './lite.ts';

export const FLAGS = {
  mirrors: undefined,
  out: undefined,
  pointers: join(import.meta.dir, '..', '..', 'data', 'lite-extra-pointers.jsonl'),
} satisfies FlagDefaults;

/** The pointers of `file`, each checked (errors name file:line). */
export function readPointers(file: string): LitePointer[] {
  if (!existsSync(file)) throw new InputError(`--pointers ${file}: no such file`);
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, i) => {
      if (!line.trim()) return [];
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch (e) {
        throw new InputError(`${file}:${i + 1}: not JSON (${(e as Error).message})`);
      }
      return [parsePointer(v, `${file}:${i + 1}`)];
    });
}

/** `git diff base..head` in `gitDir`, Python files with git's Python hunk headers. */
function prDiff(gitDir: string, p: LitePointer, attributes: string): string {
  const r = Bun.spawnSync([
    'git',
    '-C',
    gitDir,
    '-c',
    `core.attributesFile=${attributes}`,
    'diff',
    '--no-color',
    '--no-ext-diff',
    p.base_commit,
    p.head_commit,
  ]);
  if (r.exitCode !== 0)
    throw new InputError(`${p.instance_id}: git diff in ${gitDir} failed: ${r.stderr.toString().trim()}`, {
      hint: 'the mirror lacks base_commit or head_commit: fetch the repository again',
    });
  return r.stdout.toString();
}

export default async function liteRows(args: string[]): Promise<Record<string, unknown>> {
  const f = parseFlags('lite-rows', args, FLAGS);
  if (!f.mirrors || !f.out)
    throw new UsageError('lite-rows needs --mirrors DIR --out DIR', {
      hint: 'bun run bench lite-rows --mirrors /work/.mirror --out DIR, then bun run bench lite --data DIR',
    });
  const pointers = readPointers(f.pointers ?? FLAGS.pointers);
  const mirrors = mirrorDirs(f.mirrors, [...new Set(pointers.map((p) => p.repo))]);
  const tmp = mkdtempSync(join(tmpdir(), 'faun-lite-rows-'));
  const attributes = join(tmp, 'attributes');
  writeFileSync(attributes, '*.py diff=python\n');
  const rows: LiteRow[] = [];
  try {
    for (const p of pointers) {
      const dir = mirrors[p.repo];
      if (!dir)
        throw new InputError(`${p.instance_id}: no mirror of ${p.repo} under ${f.mirrors}`, {
          hint: `fetch github:${p.repo} (it lands in ${f.mirrors}/${p.repo.replace('/', '+')})`,
        });
      rows.push(buildRow(p, prDiff(dir, p, attributes)));
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  mkdirSync(f.out, { recursive: true });
  const file = join(f.out, 'lite-extra.jsonl');
  writeFileSync(file, rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  for (const [i, r] of rows.entries())
    console.log(
      `${r.instance_id}: base ${r.base_commit.slice(0, 12)}, FAIL_TO_PASS ${pointers[i]!.FAIL_TO_PASS.length}, PASS_TO_PASS ${pointers[i]!.PASS_TO_PASS.length}`,
    );
  console.log(`wrote ${rows.length} rows to ${file}`);
  return { rows: rows.map((r) => r.instance_id), file };
}
