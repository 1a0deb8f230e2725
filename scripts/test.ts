/**
 * Runs every `bun test` suite and ends with one plain closing line, `tests: N passed, N failed, N skipped`,
 * which CI reads. Three phases, so that a broken unit test is reported within a minute or two:
 *   1. unit tests (every `*.test.ts` that is not `*.int.test.ts`), files in parallel;
 *   2. the container images every integration suite shares (Docker engine, base and toolchain images), built
 *      once for the whole run instead of by whichever suite asks first;
 *   3. integration tests (`*.int.test.ts`: real servers, containers, browsers) in two groups side by side, each
 *      with its own test processes (scripts/test-groups.ts): the files that start containers, and the others;
 *      in each group files run in parallel, the slowest first (per-file durations from
 *      `scripts/test-timings.json`; refresh it with `--update-timings`).
 * Extra arguments (file filters, `-t pattern`, …) skip the phases and go to one plain `bun test`.
 * `FAUN_TEST_PARALLEL` sets the number of test processes of each phase and group (default: the number of cores,
 * at least 2).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { integrationFiles, integrationGroups, mergeTimings, type Timings } from './test-groups.ts';

const TIMINGS = join(import.meta.dir, 'test-timings.json');
const INT = '**/*.int.test.ts';
const workers = Math.max(2, Number(process.env.FAUN_TEST_PARALLEL) || availableParallelism());

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  code: number;
}

/**
 * Runs one command, streaming its output, and reads bun's closing counts from the tail of stderr. With
 * `prefix`, stderr is passed on whole lines at a time, each line prefixed (commands running side by side).
 */
async function run(label: string, cmd: string[], prefix = ''): Promise<Counts> {
  const started = Date.now();
  console.error(`\n== ${label}: ${cmd.join(' ')}`);
  const proc = Bun.spawn(cmd, { stdout: 'inherit', stderr: 'pipe', env: process.env });
  let tail = '';
  let partial = '';
  const decoder = new TextDecoder();
  for await (const chunk of proc.stderr) {
    const text = decoder.decode(chunk, { stream: true });
    if (!prefix) process.stderr.write(chunk);
    else {
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      if (lines.length) process.stderr.write(lines.map((l) => `${prefix}${l}\n`).join(''));
    }
    tail = (tail + text).slice(-20000);
  }
  if (prefix && partial) process.stderr.write(`${prefix}${partial}\n`);
  const code = await proc.exited;
  const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'm').exec(tail)?.[1] ?? 0);
  const c = { passed: count('pass'), failed: count('fail'), skipped: count('skip'), code };
  const secs = ((Date.now() - started) / 1000).toFixed(0);
  const what = /^\s*\d+ pass\b/m.test(tail) ? `${c.passed} passed, ${c.failed} failed` : `exit ${code}`;
  console.error(`== ${label}: ${what} in ${secs} s`);
  return c;
}

const extra = process.argv.slice(2);
const update = extra.includes('--update-timings');
const filters = extra.filter((a) => a !== '--update-timings');
const parallel = (timings: string) => [
  `--parallel=${workers}`,
  `--timings=${timings}`,
  ...(update ? ['--update-timings'] : []),
];

/**
 * The integration groups side by side. With `--update-timings` each group writes its own copy of the timings
 * file (two writers of one file would lose one's figures), merged into it when both are done.
 */
async function integration(): Promise<Counts[]> {
  const root = join(import.meta.dir, '..');
  const groups = integrationGroups(root, integrationFiles(root));
  const tmp = mkdtempSync(join(tmpdir(), 'faun-timings-'));
  try {
    const copies = groups.map((_, i) => {
      const copy = join(tmp, `group-${i}.json`);
      if (update) copyFileSync(TIMINGS, copy);
      return update ? copy : TIMINGS;
    });
    const counts = await Promise.all(
      groups.map((g, i) =>
        run(
          g.label,
          ['bun', 'test', ...parallel(copies[i]!), ...g.files.map((f) => `./${f}`)],
          `[${i + 1}] `,
        ),
      ),
    );
    if (update) {
      const read = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as Timings;
      const measured = groups.map((g, i) => ({ files: g.files, timings: read(copies[i]!) }));
      writeFileSync(TIMINGS, `${JSON.stringify(mergeTimings(read(TIMINGS), measured), null, 2)}\n`);
    }
    return counts;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

const phases: Counts[] = [];
if (filters.length) phases.push(await run('tests', ['bun', 'test', ...filters]));
else {
  phases.push(
    await run('unit tests', ['bun', 'test', ...parallel(TIMINGS), `--path-ignore-patterns=${INT}`]),
  );
  const setup = await run('shared images', ['bun', join(import.meta.dir, 'setup-services.ts')]);
  if (setup.code !== 0) phases.push({ ...setup, failed: 1 });
  else phases.push(...(await integration()));
}
const sum = (k: keyof Counts) => phases.reduce((n, p) => n + p[k], 0);
console.log(`\ntests: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped`);
if (sum('passed') === 0 && phases.every((p) => p.code === 0)) {
  console.error('no test ran');
  process.exit(1);
}
process.exit(phases.every((p) => p.code === 0) && sum('failed') === 0 ? 0 : 1);
