/**
 * `bun run bench [name...] [--flags]`: the performance suite and the paper tables. Each perf benchmark
 * lives in `perf/<name>.ts` and default-exports `(args: string[]) => Promise<Record<string, unknown>>`
 * returning its figures (it also prints them as it goes); this runner adds machine information and
 * writes `bench/out/perf-<name>.json`. `tables` (tables.ts) regenerates the paper tables into
 * `bench/out/tables/`. With no name, every perf benchmark runs, then `tables`.
 */
import { mkdir } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { FaunError, UsageError } from '@faun/kit';
import { stableStringify, writeFileAtomic } from '@faun/schema';
import { type FlagDefaults, parseFlags, pickFlags, switchesOf } from './args.ts';

export const BENCHES = ['metrics', 'crawl', 'store', 'harness', 'api', 'jsonl'] as const;
/** Benchmarks that need reference sources and run only when named. */
const ON_REQUEST = [
  'reports',
  'real-exec',
  'lite',
  'lite-rows',
  'msb-parity',
  'msb-published',
  'codebleu-scale',
  'swebench-java-logs',
  'surefire-selection',
] as const;
const ALL = [...BENCHES, ...ON_REQUEST, 'tables'] as const;
const OUT = join(import.meta.dir, '..', 'out');

function machine() {
  return {
    cores: cpus().length,
    cpu_model: cpus()[0]?.model ?? 'unknown',
    memory_bytes: totalmem(),
    bun: Bun.version,
    node: process.versions.node,
    platform: `${process.platform}-${process.arch}`,
  };
}

interface BenchModule {
  FLAGS: FlagDefaults;
  default: (a: string[]) => Promise<Record<string, unknown>>;
}

const load = async (name: string): Promise<BenchModule> =>
  name === 'tables' ? await import('./tables.ts') : ((await import(`./perf/${name}.ts`)) as BenchModule);

async function runOne(name: string, mod: BenchModule, args: string[]): Promise<void> {
  if (name === 'tables') {
    console.log('\n== bench tables ==');
    await mod.default(args);
    return;
  }
  console.log(`\n== bench ${name} ==`);
  const started = Date.now();
  const figures = await mod.default(args);
  const record = { bench: name, machine: machine(), figures, wall_seconds: (Date.now() - started) / 1000 };
  await mkdir(OUT, { recursive: true });
  const file = join(OUT, `perf-${name}.json`);
  await writeFileAtomic(file, `${stableStringify(record, 2)}\n`);
  console.log(`wrote ${file}`);
}

const USAGE = `usage: bun run bench [${ALL.join('|')} ...] [--flags]

  metrics   pairs/second of BLEU, ROUGE-1+L, Indel and CodeBLEU on the reference vectors
  crawl     fake-GitHub crawl into DuckDB (--entries N, default smaller; 800000 for the full figure)
  store     DuckDB ingest of 800k synthetic entries, funnel query time, peak RSS
  harness   per-instance overhead over a bare docker run; throughput at 1, 2 and 4 workers
  api       POST /v1/score/fl under wrk: requests/second and p99 latency
  reports   verify --report-dir output checked with SWE-bench's and Multi-SWE-bench's own report code
            (--swebench-src DIR --msb-src DIR: extracted reference sources; only when named)
  real-exec execution instances from real PRs (bench/data/real-exec-pointers.jsonl): build --tasks exec →
            validate --rule multi-swe-bench → gold / empty / test-reverting patches (--mirrors DIR; only when named)
  msb-parity Multi-SWE-bench's own report code on the stage logs "faun validate --stage-logs" kept, against
            faun's derivation (--msb-src DIR --logs DIR; only when named)
  msb-published published Multi-SWE-bench dataset rows run as Multi-SWE-bench runs them (base commit,
            whole-suite command, run / test / fix stages) with the empty and test-patch-only controls:
            OUT/<instance_id>.json with faun's f2p/p2p/n2p/s2p against the row's, every deviation, a summary;
            exit 1 when a control resolves (--rows FILE --mirrors DIR --out DIR [--fresh]; only when named)
  lite      SWE-bench Lite gold and empty runs over every row whose repository has a mirror, per repository:
            rows, environment build time, resolved counts, each gold failure's tests and reason
            (--mirrors DIR [--data DIR] [--workers N] [--passes 2] [--repos a/b,c/d] [--ids a,b]
            [--logs DIR: keep the run directories]; only when named)
  lite-rows SWE-bench Lite rows the shared data lacks, rebuilt from the mirrors and
            bench/data/lite-extra-pointers.jsonl into OUT/lite-extra.jsonl, for lite --data OUT
            (--mirrors DIR --out DIR [--pointers FILE]; only when named)
  codebleu-scale  20,000 real before/after hunks mined from mirrors (bench/data/codebleu-scale-sources.json):
            the whole score-pairs --metric codebleu command against codebleu 0.7.1 (metrics spec §9) in the
            same run: pairs/s and ratio, per language on one thread, 1k / 5k / 20k times, peak RSS, parity
            (--mirrors DIR --ref-dir DIR [--threads 2] [--seeds 20] [--no-ref]; only when named)
  swebench-java-logs  faun's Java SWE-bench rows (faun validate --swebench-out) against the FAIL_TO_PASS /
            PASS_TO_PASS lists in SWE-bench-java's published run logs (--experiments DIR: a
            multi-swe-bench/experiments mirror, --rows FILE[,FILE] [--out FILE.md]; only when named)
  surefire-selection  whether the suite check of real-exec (the classes a project's own Surefire
            configuration selects in the base tree) is the suite published Multi-SWE-bench rows ran
            (--rows FILE --mirrors DIR; only when named)
  jsonl     streaming a generated ~1 GB JSONL file: lines/second and RSS growth (--megabytes N)
  tables    the paper tables from prediction files (--datasets DIR --predictions DIR [--execution DIR]
            [--out DIR] [--seed N]); without --predictions, from the offline demo's outputs

With no name every benchmark runs. Each perf benchmark prints its figures and writes
bench/out/perf-<name>.json (with machine information); tables go to bench/out/tables/.`;

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const names = argv.filter((a) => (ALL as readonly string[]).includes(a));
const rest = argv.filter((a) => !names.includes(a));
const selected = names.length ? names : ALL.filter((n) => !(ON_REQUEST as readonly string[]).includes(n));
const mods = new Map<string, BenchModule>();
for (const name of selected) mods.set(name, await load(name));
// Every flag must belong to a selected benchmark; each one then sees only its own flags.
const known = [...new Set([...mods.values()].flatMap((m) => Object.keys(m.FLAGS)))];
const switches = [...new Set([...mods.values()].flatMap((m) => switchesOf(m.FLAGS)))];
const stray = rest.find(
  (a, i) => !a.startsWith('-') && !(rest[i - 1]?.startsWith('--') && !rest[i - 1]?.includes('=')),
);
if (stray) {
  console.error(`unknown bench: ${stray}; available: ${ALL.join(', ')}`);
  process.exit(2);
}
try {
  parseFlags(
    selected.join('+'),
    rest,
    Object.fromEntries(known.map((k) => [k, switches.includes(k) ? false : undefined])),
  );
  for (const [name, mod] of mods)
    parseFlags(name, pickFlags(rest, Object.keys(mod.FLAGS), switchesOf(mod.FLAGS)), mod.FLAGS);
} catch (e) {
  if (!(e instanceof UsageError)) throw e;
  console.error(`${e.message}\n  hint: ${e.hint}`);
  process.exit(2);
}
try {
  for (const [name, mod] of mods)
    await runOne(name, mod, pickFlags(rest, Object.keys(mod.FLAGS), switchesOf(mod.FLAGS)));
} catch (e) {
  // faun's own errors say what to do: their message and hint, no stack, their exit code
  if (!(e instanceof FaunError)) throw e;
  console.error(e.hint ? `${e.message}\n  hint: ${e.hint}` : e.message);
  process.exit(e.exitCode);
}
