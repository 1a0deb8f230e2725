/**
 * Runs every `bun test` suite and ends with one plain closing line, `tests: N passed, N failed, N skipped`,
 * which CI reads. Unit tests come first, so that a broken one is reported within a minute or two:
 *   1. unit tests (every `*.test.ts` that is not `*.int.test.ts`), files in parallel; beside them, the container
 *      images every integration suite shares (Docker engine, base and toolchain images), built once for the
 *      whole run instead of by whichever suite asks first, their output held back until the unit tests end;
 *   2. integration tests (`*.int.test.ts`: real servers, containers, browsers) when the unit tests have ended and
 *      the images are ready, files in parallel in one pool of test processes (scripts/test-groups.ts), the
 *      slowest first (per-file durations from `scripts/test-timings.json`; refresh it with `--update-timings`);
 *   3. the files marked `// alone: <why>` (latency bounds), one at a time with nothing else running.
 * Extra arguments (file filters, `-t pattern`, …) skip the phases and go to one plain `bun test`.
 * `FAUN_TEST_PARALLEL` sets the number of unit test processes (default: the number of cores, at least 2); the
 * integration pool has twice as many (its files wait on containers and servers much of the time).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Group,
  integrationFiles,
  integrationGroups,
  mergeTimings,
  type Timings,
} from './test-groups.ts';

const TIMINGS = join(import.meta.dir, 'test-timings.json');
// Native parsers without the profile-guided build (same trees, about a quarter of the cold build's CPU; the
// profile-guided path has its own test, which sets this variable itself).
process.env.FAUN_SYNTAX_PGO ??= '0';
const INT = '**/*.int.test.ts';
const workers = Math.max(2, Number(process.env.FAUN_TEST_PARALLEL) || availableParallelism());

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  code: number;
}

/**
 * Runs one command and reads bun's closing counts from the tail of stderr. Its stderr is passed on whole lines
 * at a time, each line prefixed with `prefix` (commands running side by side); with `hold`, its output
 * (stdout and stderr, with the opening and closing lines) is kept in `output` instead, for the caller to print
 * in one piece.
 */
async function run(
  label: string,
  cmd: string[],
  prefix = '',
  hold = false,
): Promise<Counts & { output: string }> {
  const started = Date.now();
  const held: string[] = [];
  const say = (text: string) => {
    for (const line of text.split('\n')) hold ? held.push(line) : process.stderr.write(`${prefix}${line}\n`);
  };
  say(`\n== ${label}: ${cmd.join(' ')}`);
  const proc = Bun.spawn(cmd, { stdout: hold ? 'pipe' : 'inherit', stderr: 'pipe', env: process.env });
  const stdout = hold ? new Response(proc.stdout as ReadableStream).text() : Promise.resolve('');
  let tail = '';
  let partial = '';
  const decoder = new TextDecoder();
  for await (const chunk of proc.stderr) {
    const text = decoder.decode(chunk, { stream: true });
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const l of lines) say(l);
    tail = (tail + text).slice(-20000);
  }
  if (partial) say(partial);
  const code = await proc.exited;
  const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'm').exec(tail)?.[1] ?? 0);
  const c = { passed: count('pass'), failed: count('fail'), skipped: count('skip'), code };
  const secs = ((Date.now() - started) / 1000).toFixed(0);
  const what = /^\s*\d+ pass\b/m.test(tail) ? `${c.passed} passed, ${c.failed} failed` : `exit ${code}`;
  say(`== ${label}: ${what} in ${secs} s`);
  const out = await stdout;
  return { ...c, output: hold ? `${held.slice(0, 2).join('\n')}\n${out}${held.slice(2).join('\n')}\n` : '' };
}

const extra = process.argv.slice(2);
const update = extra.includes('--update-timings');
const filters = extra.filter((a) => a !== '--update-timings');
const parallel = (timings: string, n = workers) => [
  `--parallel=${n}`,
  `--timings=${timings}`,
  ...(update ? ['--update-timings'] : []),
];

/**
 * Every phase (see the top of this file). With `--update-timings` each integration group writes its own copy
 * of the timings file (two writers of one file would lose one's figures), merged into it when all are done.
 */
async function phases(): Promise<Counts[]> {
  const root = join(import.meta.dir, '..');
  const groups = integrationGroups(root, integrationFiles(root));
  const tmp = mkdtempSync(join(tmpdir(), 'faun-timings-'));
  try {
    const copies = groups.map((_, i) => {
      const copy = join(tmp, `group-${i}.json`);
      if (update) copyFileSync(TIMINGS, copy);
      return update ? copy : TIMINGS;
    });
    const group = (kind: Group['kind']): Promise<Counts[]> => {
      const i = groups.findIndex((g) => g.kind === kind);
      const g = groups[i];
      if (!g) return Promise.resolve([]);
      const n = kind === 'alone' ? 1 : 2 * workers;
      const cmd = ['bun', 'test', ...parallel(copies[i]!, n), ...g.files.map((f) => `./${f}`)];
      return run(g.label, cmd, kind === 'alone' ? '' : '[i] ').then((c) => [c]);
    };
    const unit = run(
      'unit tests',
      ['bun', 'test', ...parallel(TIMINGS), `--path-ignore-patterns=${INT}`],
      '[u] ',
    );
    const setup = run('shared images', ['bun', join(import.meta.dir, 'setup-services.ts')], '', true);
    // the integration tests start when the unit tests end (started beside them, the container suites took the
    // cores from the unit tests: 148 s became 412 s, and tests with the default 5 s limit timed out); the
    // images' output is printed then, so that it does not cut into the unit tests' report
    const integration = Promise.all([setup, unit]).then(([s]) => {
      process.stderr.write(s.output);
      return s.code === 0 ? group('integration') : [{ ...s, failed: 1 }];
    });
    const sideBySide = [await unit, ...(await integration)];
    const counts = [...sideBySide, ...(await group('alone'))];
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

const counts: Counts[] = filters.length ? [await run('tests', ['bun', 'test', ...filters])] : await phases();
const sum = (k: keyof Counts) => counts.reduce((n, p) => n + p[k], 0);
console.log(`\ntests: ${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped`);
if (sum('passed') === 0 && counts.every((p) => p.code === 0)) {
  console.error('no test ran');
  process.exit(1);
}
process.exit(counts.every((p) => p.code === 0) && sum('failed') === 0 ? 0 : 1);
