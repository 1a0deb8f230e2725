/**
 * CodeBLEU at scale: 20,000 distinct real before/after hunks (python, java, javascript, go, typescript; mined
 * from fetched mirrors by the recipe in `bench/data/codebleu-scale-sources.json`, see
 * `bench/src/codebleu-scale/mine.ts`), scored by the whole `faun score-pairs --metric codebleu` command as
 * users run it and by the reference (codebleu 0.7.1 built as the metrics specification §9 says, one Python
 * process, one `calc_codebleu([ref], [hyp], lang, weights=(0.25,)*4)` per pair) in the same run. Prints the
 * pairs/s of each and their ratio on all of the pairs with `--threads` lanes, the ratio per language on one
 * thread, the time of the first 1k / 5k / all pairs (the per-pair cost should not grow), peak RSS, the load
 * average before each run, and parity: every row of faun equal to the reference's under PYTHONHASHSEED 0, or
 * under one of 1…`--seeds` (the reference's dataflow depends on the seed).
 *
 *   bun run bench codebleu-scale --mirrors DIR --ref-dir DIR [--threads 2] [--seeds 20] [--no-ref]
 *
 * `--ref-dir` is the scratch folder of the reference build (codebleu/, py-tree-sitter/,
 * tree-sitter-<lang>/bindings/python as §9 lays them out; default FAUN_CODEBLEU_REF_DIR); FAUN_CODEBLEU_REF may
 * instead name a whole reference command (JSONL `{hyp, ref, lang}` on stdin, one JSON object of the five
 * fields per line on stdout). The driver runs under FAUN_CODEBLEU_PYTHON (default /usr/bin/python3, the
 * interpreter §9 builds the extensions with). Outputs go to bench/out/codebleu-scale/.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from '@faun/kit';
import { CODEBLEU_FIELDS } from '@faun/metrics';
import { loadNative, nativeStatus } from '@faun/syntax';
import { parseFlags } from '../args.ts';
import {
  DEFAULT_PAIRS,
  minePairs,
  missingMirrors,
  RECIPE,
  readRecipe,
  writePairs,
} from '../codebleu-scale/mine.ts';
import { spawnTimed } from '../spawn-timed.ts';

export const FLAGS = {
  mirrors: undefined,
  'ref-dir': undefined,
  threads: 2,
  seeds: 20,
  'no-ref': false,
};

const CLI = resolve(import.meta.dir, '../../../apps/cli/src/main.ts');
const OUT = resolve(import.meta.dir, '../../out/codebleu-scale');
const LANGS = ['go', 'java', 'javascript', 'python', 'typescript'] as const;

/** The reference driver: one Python process, one `calc_codebleu` per line, as its users call it. */
const DRIVER = `import json, os, sys
root = sys.argv[1]
for p in ['py-tree-sitter'] + ['tree-sitter-%s/bindings/python' % l for l in ('python', 'java', 'javascript', 'go', 'typescript')] + ['codebleu']:
    sys.path.insert(0, os.path.join(root, p))
from codebleu import calc_codebleu
K = ('codebleu', 'ngram_match_score', 'weighted_ngram_match_score', 'syntax_match_score', 'dataflow_match_score')
for line in sys.stdin:
    if line.strip():
        r = json.loads(line)
        s = calc_codebleu([r['ref']], [r['hyp']], lang=r['lang'], weights=(0.25,) * 4)
        sys.stdout.write(json.dumps({k: s[k] for k in K}) + '\\n')
`;

interface Run {
  wall_s: number;
  cpu_s: number;
  max_rss_mb: number;
  load: number[];
}

const load = () => loadavg().map((x) => Math.round(x * 100) / 100);

/** GNU time, for each run's own peak RSS (a spawn's resource usage holds the largest of all children so far). */
const GNU_TIME = '/usr/bin/time';
let runs = 0;

function timed(cmd: string[], stdin: string, stdout: string, env: Record<string, string> = {}): Run {
  const before = load();
  const rssFile = join(OUT, `rss-${process.pid}-${runs++}.txt`);
  const withTime = existsSync(GNU_TIME);
  const prefix = withTime ? [GNU_TIME, '-f', '%M', '-o', rssFile] : [];
  const { wall_s, cpu_s } = spawnTimed(cmd, { stdin, stdout, env, prefix });
  let rssKb = Number.NaN;
  if (withTime) {
    rssKb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').at(-1));
    rmSync(rssFile, { force: true });
  }
  return { wall_s, cpu_s, max_rss_mb: Math.round(rssKb / 1024), load: before };
}

/** The whole `faun score-pairs --metric codebleu` command, fresh output each time. */
function faun(input: string, out: string, threads: number): Run {
  rmSync(out, { force: true }); // an earlier output would be resumed (nothing scored)
  const args = ['score-pairs', '--metric', 'codebleu', '--quiet', '--threads', String(threads)];
  const logs = ['--log-dir', join(OUT, 'logs'), '--input', input, '--out', out];
  return timed([process.execPath, CLI, ...args, ...logs], input, '/dev/null');
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim());
const fmt = (x: number, d = 2) => x.toLocaleString('en', { maximumFractionDigits: d });
const rate = (n: number, r: Run) => n / r.wall_s;
const loadStr = (r: Run) => `load ${r.load.join(' ')}`;

/** The pairs file: mined again unless one mined from the same recipe is there. */
function pairsFile(mirrors: string): string {
  const stamp = `${DEFAULT_PAIRS}.recipe`;
  const recipeText = readFileSync(RECIPE, 'utf8');
  if (existsSync(DEFAULT_PAIRS) && existsSync(stamp) && readFileSync(stamp, 'utf8') === recipeText)
    return DEFAULT_PAIRS;
  const recipe = readRecipe();
  const missing = missingMirrors(mirrors, recipe);
  if (missing.length)
    throw new UsageError(`mirrors missing under ${mirrors}: ${missing.join(', ')}`, {
      hint: 'fetch them (bare mirrors at DIR/owner+name/repo) or pass --mirrors DIR',
    });
  mkdirSync(OUT, { recursive: true });
  console.log(`mining ${recipe.target} pairs from ${recipe.sources.length} repositories under ${mirrors}`);
  const n = writePairs(DEFAULT_PAIRS, minePairs(mirrors, recipe, console.log));
  writeFileSync(stamp, recipeText);
  console.log(`  ${n} pairs, ${fmt(statSync(DEFAULT_PAIRS).size / 1e6, 1)} MB`);
  return DEFAULT_PAIRS;
}

/** The reference command (null with --no-ref). */
function referenceCommand(f: { 'ref-dir'?: string; 'no-ref': boolean }): string | null {
  if (f['no-ref']) return null;
  if (process.env.FAUN_CODEBLEU_REF) return process.env.FAUN_CODEBLEU_REF;
  const dir = f['ref-dir'] ?? process.env.FAUN_CODEBLEU_REF_DIR;
  if (!dir || !existsSync(join(dir, 'codebleu', 'codebleu')))
    throw new UsageError(
      `the reference build is missing (${dir ? `no codebleu/codebleu under ${dir}` : 'no --ref-dir'})`,
      {
        hint: 'build codebleu 0.7.1 as the metrics specification §9 says and pass --ref-dir DIR, or --no-ref',
      },
    );
  const driver = join(OUT, 'reference-driver.py');
  writeFileSync(driver, DRIVER);
  const python = process.env.FAUN_CODEBLEU_PYTHON ?? '/usr/bin/python3';
  return `exec ${python} ${driver} ${resolve(dir)} 2>/dev/null`;
}

function reference(cmd: string, input: string, out: string, seed = 0): Run {
  return timed(['sh', '-c', cmd], input, out, { PYTHONHASHSEED: String(seed) });
}

type Row = Record<string, number>;
const same = (a: Row, b: Row) => CODEBLEU_FIELDS.every((k) => a[k] === b[k]);

/**
 * Parity: each faun row equal (every field, exactly) to the reference's under seed 0, or else under one of
 * seeds 1…`seeds` (those rows only are run again).
 */
function parity(cmd: string, input: string, faunOut: string, refOut: string, seeds: number) {
  const a = lines(faunOut).map((l) => JSON.parse(l) as Row);
  const b = lines(refOut).map((l) => JSON.parse(l) as Row);
  if (a.length !== b.length) throw new Error(`${faunOut}: ${a.length} rows, reference ${b.length}`);
  const rows = a.flatMap((r, i) => (same(r, b[i] as Row) ? [] : [i]));
  const inp = lines(input);
  const left = new Set(rows);
  const sub = join(OUT, 'seed-rows.jsonl');
  for (let seed = 1; seed <= seeds && left.size > 0; seed++) {
    const todo = [...left];
    writeFileSync(sub, `${todo.map((i) => inp[i]).join('\n')}\n`);
    const out = join(OUT, `seed-${seed}.jsonl`);
    reference(cmd, sub, out, seed);
    lines(out).forEach((l, j) => {
      if (same(a[todo[j] as number] as Row, JSON.parse(l) as Row)) left.delete(todo[j] as number);
    });
  }
  // the other four fields of a seed-dependent row do not depend on the seed
  const dataflowOnly = [...left].filter((i) =>
    CODEBLEU_FIELDS.every(
      (k) => k === 'codebleu' || k === 'dataflow_match_score' || (a[i] as Row)[k] === (b[i] as Row)[k],
    ),
  ).length;
  return {
    rows: a.length,
    equal_seed0: a.length - rows.length,
    equal_other_seed: rows.length - left.size,
    unequal: left.size,
    unequal_in_dataflow_only: dataflowOnly,
    unequal_rows: [...left].slice(0, 20).map((i) => i + 1),
  };
}

/** The first `n` lines of `file` into `<OUT>/<name>`. */
function prefix(file: string, n: number, name: string): string {
  const f = join(OUT, name);
  writeFileSync(f, `${lines(file).slice(0, n).join('\n')}\n`);
  return f;
}

/** Per language on one thread: faun against the reference on that language's pairs. */
function perLanguage(all: string, ref: string | null) {
  const rows = lines(all);
  const figures: Record<string, unknown> = {};
  for (const lang of LANGS) {
    const own = rows.filter((l) => (JSON.parse(l) as { lang: string }).lang === lang);
    const f = join(OUT, `lang-${lang}.jsonl`);
    writeFileSync(f, `${own.join('\n')}\n`);
    const r1 = faun(f, join(OUT, `lang-${lang}.t1.jsonl`), 1);
    let line = `  ${lang.padEnd(11)} ${own.length} pairs  faun t1 ${fmt(r1.wall_s)}s (${fmt(rate(own.length, r1), 0)}/s, ${loadStr(r1)})`;
    const row: Record<string, unknown> = { pairs: own.length, faun_t1: r1 };
    if (ref) {
      const rr = reference(ref, f, join(OUT, `lang-${lang}.ref.jsonl`));
      row.reference = rr;
      row.ratio_t1 = rr.wall_s / r1.wall_s;
      line += `  ref ${fmt(rr.wall_s)}s (${fmt(rate(own.length, rr), 0)}/s, ${loadStr(rr)})  ×${fmt(rr.wall_s / r1.wall_s)}`;
    }
    console.log(line);
    figures[lang] = row;
  }
  return figures;
}

/** The first 1k, 5k and all pairs with `threads` lanes and with one: time, per-pair cost, peak RSS. */
function scaling(all: string, n: number, threads: number) {
  const sizes = [1000, 5000, n].filter((s, i, a) => s <= n && a.indexOf(s) === i);
  const figures: Record<string, unknown> = {};
  for (const t of [threads, 1]) {
    for (const size of sizes) {
      const input = size === n ? all : prefix(all, size, `first-${size}.jsonl`);
      const r = faun(input, join(OUT, `first-${size}.t${t}.jsonl`), t);
      figures[`t${t}_${size}`] = { ...r, ms_per_pair: (1000 * r.wall_s) / size };
      console.log(
        `  t${t} ${String(size).padStart(6)} pairs  ${fmt(r.wall_s)}s  ${fmt((1000 * r.wall_s) / size, 3)} ms/pair  ${fmt(rate(size, r), 0)}/s  peak RSS ${r.max_rss_mb} MB  CPU ${fmt(r.cpu_s)}s  (${loadStr(r)})`,
      );
    }
    const first = figures[`t${t}_${sizes[0]}`] as { ms_per_pair: number };
    const last = figures[`t${t}_${n}`] as { ms_per_pair: number };
    figures[`t${t}_cost_growth`] = last.ms_per_pair / first.ms_per_pair;
    console.log(
      `  t${t} per-pair cost at ${n} / at ${sizes[0]}: ×${fmt(last.ms_per_pair / first.ms_per_pair, 3)}`,
    );
  }
  return figures;
}

export default async function codebleuScale(args: string[]): Promise<Record<string, unknown>> {
  const f = parseFlags('codebleu-scale', args, FLAGS);
  const mirrors = f.mirrors ?? process.env.FAUN_MIRRORS ?? '/work/.mirror';
  mkdirSync(join(OUT, 'logs'), { recursive: true });
  const ref = referenceCommand(f);
  const all = pairsFile(mirrors);
  const n = lines(all).length;
  await loadNative(LANGS, 'wait'); // built now, so no timed run pays for it
  const figures: Record<string, unknown> = { pairs: n, threads: f.threads, parser: nativeStatus() };
  console.log(
    `codebleu-scale: ${n} pairs, whole commands, wall-clock pairs/s (load = 1/5/15-min load average before each run)`,
  );
  const rN = faun(all, join(OUT, `all.t${f.threads}.jsonl`), f.threads);
  figures.faun_all = rN;
  console.log(
    `  faun --threads ${f.threads}  ${fmt(rN.wall_s)}s  ${fmt(rate(n, rN), 0)} pairs/s  peak RSS ${rN.max_rss_mb} MB  (${loadStr(rN)})`,
  );
  if (ref) {
    const rR = reference(ref, all, join(OUT, 'all.ref.jsonl'));
    figures.reference_all = rR;
    figures.ratio = rR.wall_s / rN.wall_s;
    console.log(
      `  reference       ${fmt(rR.wall_s)}s  ${fmt(rate(n, rR), 0)} pairs/s  peak RSS ${rR.max_rss_mb} MB  (${loadStr(rR)})`,
    );
    console.log(`  ratio (faun --threads ${f.threads} / reference pairs/s): ×${fmt(rR.wall_s / rN.wall_s)}`);
  }
  console.log('per language, one thread:');
  figures.languages = perLanguage(all, ref);
  console.log('scaling:');
  figures.scaling = scaling(all, n, f.threads);
  const t1 = join(OUT, `first-${n}.t1.jsonl`);
  const identical = readFileSync(t1).equals(readFileSync(join(OUT, `all.t${f.threads}.jsonl`)));
  figures.threads_identical = identical;
  console.log(`  --threads 1 and --threads ${f.threads} outputs ${identical ? 'byte-identical' : 'DIFFER'}`);
  if (ref) {
    const p = parity(ref, all, t1, join(OUT, 'all.ref.jsonl'), f.seeds);
    figures.parity = p;
    console.log(
      `parity: ${p.equal_seed0}/${p.rows} rows equal to the reference at PYTHONHASHSEED 0, ${p.equal_other_seed} more under one of seeds 1–${f.seeds}, ${p.unequal} unequal${p.unequal ? ` (${p.unequal_in_dataflow_only} of them in the dataflow score only; rows ${p.unequal_rows.join(', ')})` : ''}`,
    );
  }
  return figures;
}
