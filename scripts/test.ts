/**
 * Runs every `bun test` suite and ends with one plain closing line, `tests: N passed, N failed, N skipped`,
 * which CI reads. Three phases, so that a broken unit test is reported within a minute or two:
 *   1. unit tests (every `*.test.ts` that is not `*.int.test.ts`), files in parallel;
 *   2. the container images every integration suite shares (Docker engine, base and toolchain images), built
 *      once for the whole run instead of by whichever suite asks first;
 *   3. integration tests (`*.int.test.ts`: real servers, containers, browsers), files in parallel, the slowest
 *      first (per-file durations from `scripts/test-timings.json`; refresh it with `--update-timings`).
 * Extra arguments (file filters, `-t pattern`, …) skip the phases and go to one plain `bun test`.
 * `FAUN_TEST_PARALLEL` sets the number of test processes (default: the number of cores, at least 2).
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const TIMINGS = join(import.meta.dir, 'test-timings.json');
const INT = '**/*.int.test.ts';
const workers = Math.max(2, Number(process.env.FAUN_TEST_PARALLEL) || availableParallelism());

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  code: number;
}

/** Runs one command, streaming its output, and reads bun's closing counts from the tail of stderr. */
async function run(label: string, cmd: string[]): Promise<Counts> {
  const started = Date.now();
  console.error(`\n== ${label}: ${cmd.join(' ')}`);
  const proc = Bun.spawn(cmd, { stdout: 'inherit', stderr: 'pipe', env: process.env });
  let tail = '';
  const decoder = new TextDecoder();
  for await (const chunk of proc.stderr) {
    process.stderr.write(chunk);
    tail = (tail + decoder.decode(chunk)).slice(-20000);
  }
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
const parallel = [`--parallel=${workers}`, `--timings=${TIMINGS}`, ...(update ? ['--update-timings'] : [])];
const phases: Counts[] = [];
if (filters.length) phases.push(await run('tests', ['bun', 'test', ...filters]));
else {
  phases.push(await run('unit tests', ['bun', 'test', ...parallel, `--path-ignore-patterns=${INT}`]));
  const setup = await run('shared images', ['bun', join(import.meta.dir, 'setup-services.ts')]);
  if (setup.code !== 0) phases.push({ ...setup, failed: 1 });
  else phases.push(await run('integration tests', ['bun', 'test', ...parallel, 'int.test.ts']));
}
const sum = (k: keyof Counts) => phases.reduce((n, p) => n + p[k], 0);
console.log(`\ntests: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped`);
if (sum('passed') === 0 && phases.every((p) => p.code === 0)) {
  console.error('no test ran');
  process.exit(1);
}
process.exit(phases.every((p) => p.code === 0) && sum('failed') === 0 ? 0 : 1);
