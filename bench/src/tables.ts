/**
 * `bun run bench tables [--datasets DIR] [--predictions DIR] [--execution DIR] [--out DIR] [--seed N]`:
 * regenerates the paper tables and figures from prediction files (see @faun/paper). Without
 * `--predictions` it uses the offline demo's outputs (`demo-out/`), running `faun demo` first when they
 * are missing. Writes to `bench/out/tables/` by default; byte-identical on re-run.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { REPO_ROOT } from '@faun/kit';
import { buildPaper } from '@faun/paper';
import { parseFlags } from './args.ts';

export const FLAGS = {
  datasets: undefined,
  predictions: undefined,
  execution: undefined,
  out: undefined,
  seed: 0,
};

export default async function tables(args: string[]): Promise<Record<string, unknown>> {
  const flags = parseFlags('tables', args, FLAGS);
  let { datasets, predictions, execution } = flags;
  if (!predictions) {
    const demo = join(REPO_ROOT, 'demo-out');
    if (!existsSync(join(demo, 'predictions'))) {
      console.log('no --predictions given and no demo outputs yet: running `faun demo --verify never` first');
      const proc = Bun.spawn(
        ['bun', join(REPO_ROOT, 'apps/cli/src/main.ts'), 'demo', '--out', demo, '--verify', 'never'],
        {
          stdout: 'inherit',
          stderr: 'inherit',
        },
      );
      if ((await proc.exited) !== 0) throw new Error('faun demo failed');
    }
    predictions = join(demo, 'predictions');
    datasets ??= join(demo, 'datasets');
    if (!execution && existsSync(join(demo, 'execution'))) execution = join(demo, 'execution');
  }
  if (!datasets)
    throw new Error('--datasets DIR is required with --predictions (a folder with qa/fl/ce.jsonl)');
  const out = resolve(flags.out ?? join(import.meta.dir, '..', 'out', 'tables'));
  const seed = flags.seed;
  const started = performance.now();
  const { tables: built, files } = await buildPaper({
    datasets: resolve(datasets),
    predictions: resolve(predictions),
    execution: execution ? resolve(execution) : undefined,
    out,
    seed,
    log: (l) => console.log(`  ${l}`),
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${built.length} tables, ${files.length} files in ${out} (${seconds.toFixed(2)} s); overview: ${join(out, 'tables.md')}`,
  );
  return { tables: built.length, files: files.length, seconds, out };
}
