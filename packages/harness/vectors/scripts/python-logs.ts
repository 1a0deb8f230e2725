#!/usr/bin/env bun
/**
 * Rebuilds the Python part of the real-log corpus: runs real test suites in faun's python toolchain image
 * (plus Debian packages), writes each log under vectors/real-logs/<project>/, and — given a SWE-bench
 * checkout — computes each vector's status map with SWE-bench's own parser functions (extracted into a
 * temporary directory, never into the repository).
 *
 *   bun packages/harness/vectors/scripts/python-logs.ts --mirrors /work/.mirror \
 *     --swebench /work/.mirror/SWE-bench+SWE-bench/repo [--only flask,django] [--vectors-only]
 *
 * `--mirrors DIR` holds bare git mirrors as `DIR/<owner>+<name>/repo`. `--vectors-only` recomputes the
 * vectors from the committed logs without running anything.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sha256 } from '@faun/kit';
import { ensureToolchainImage } from '@faun/services';
import { CORPUS_APT, PROJECTS, type Project, REFERENCE_FUNCTIONS, type Run } from './python-projects.ts';

const OUT = join(import.meta.dir, '..', 'real-logs');
/** Logs larger than this are stored gzipped. */
const GZIP_OVER = 64 * 1024;

function usage(msg: string): never {
  console.error(`python-logs: ${msg}`);
  console.error('usage: python-logs.ts --mirrors DIR --swebench GIT_DIR [--only a,b] [--vectors-only]');
  process.exit(2);
}

function args() {
  const a = process.argv.slice(2);
  const get = (k: string) => {
    const i = a.indexOf(k);
    if (i < 0) return undefined;
    const v = a[i + 1];
    if (!v || v.startsWith('--')) usage(`${k} needs a value`);
    return v;
  };
  const swebench = get('--swebench') ?? usage('--swebench GIT_DIR is required');
  const vectorsOnly = a.includes('--vectors-only');
  const mirrors = get('--mirrors') ?? (vectorsOnly ? '' : usage('--mirrors DIR is required'));
  const only = get('--only')?.split(',');
  return { swebench, mirrors, only, vectorsOnly };
}

function sh(cmd: string[], opts: { input?: Buffer; cwd?: string } = {}): { code: number; out: Buffer } {
  const r = spawnSync(cmd[0]!, cmd.slice(1), { cwd: opts.cwd, input: opts.input, maxBuffer: 1 << 30 });
  return {
    code: r.status ?? 1,
    out: Buffer.concat([r.stdout ?? Buffer.alloc(0), r.stderr ?? Buffer.alloc(0)]),
  };
}

function must(cmd: string[], what: string, opts: { input?: Buffer; cwd?: string } = {}): Buffer {
  const r = sh(cmd, opts);
  if (r.code !== 0) {
    console.error(`python-logs: ${what} failed (exit ${r.code}):\n${r.out.toString().slice(-2000)}`);
    process.exit(1);
  }
  return r.out;
}

/** faun's python toolchain image plus the corpus's Debian packages, tagged by content. */
async function corpusImage(): Promise<string> {
  const base = await ensureToolchainImage('python', (l) => console.log(l));
  const dockerfile = [
    `FROM ${base}`,
    'RUN apt-get update && apt-get install -y --no-install-recommends \\',
    ...CORPUS_APT.map((group) => `  ${group} \\`),
    '  && apt-get clean && rm -rf /var/lib/apt/lists/*',
    // `apt-get source` for the projects taken from Debian's source packages.
    'RUN sed -n "s/^deb /deb-src /p" /etc/apt/sources.list >> /etc/apt/sources.list \\',
    '  && apt-get update && apt-get install -y --no-install-recommends dpkg-dev xz-utils && apt-get clean',
    '',
  ].join('\n');
  const tag = `faun-corpus/python:${sha256(dockerfile).slice(0, 12)}`;
  if (sh(['docker', 'image', 'inspect', tag]).code === 0) return tag;
  const ctx = mkdtempSync(join(tmpdir(), 'faun-corpus-'));
  writeFileSync(join(ctx, 'Dockerfile'), dockerfile);
  console.log(`building ${tag}…`);
  must(['docker', 'build', '--network', 'host', '-t', tag, ctx], 'docker build');
  rmSync(ctx, { recursive: true, force: true });
  return tag;
}

/** The project's source tree in a fresh directory. */
function sourceTree(p: Project, mirrors: string, image: string, work: string): string {
  const s = p.source;
  if (s.kind === 'git') {
    const gitDir = join(mirrors, s.repository.replace('/', '+'), 'repo');
    if (!existsSync(gitDir)) usage(`no mirror of ${s.repository} at ${gitDir}`);
    const dir = join(work, p.dir);
    mkdirSync(dir, { recursive: true });
    const tar = must(['git', `--git-dir=${gitDir}`, 'archive', s.commit], `git archive ${s.repository}`);
    must(['tar', '-x', '-C', dir], 'tar', { input: tar });
    return dir;
  }
  const uid = `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`;
  must(
    [
      'docker',
      'run',
      '--rm',
      '--network',
      'host',
      '-v',
      `${work}:/out`,
      '-w',
      '/out',
      image,
      'sh',
      '-c',
      `apt-get update -qq && apt-get source -qq ${s.package}=${s.version} && chown -R ${uid} /out`,
    ],
    `apt-get source ${s.package}`,
  );
  return join(work, s.dir);
}

/** Runs one command in the image with the tree at /testbed and no network; the combined output is the log. */
function runLog(image: string, tree: string, command: string, stopAfter?: number): string {
  const stop = stopAfter ? ['timeout', '-s', 'KILL', String(stopAfter)] : [];
  // Stopped inside the container, so that no container outlives the run.
  const r = sh([
    'docker',
    'run',
    '--rm',
    '--network',
    'none',
    '-v',
    `${tree}:/testbed`,
    '-w',
    '/testbed',
    image,
    ...stop,
    'sh',
    '-c',
    `${command} 2>&1`,
  ]);
  // The reference reads logs as UTF-8; keep them valid.
  return new TextDecoder('utf-8').decode(r.out);
}

function logFile(p: Project, run: Run): string | null {
  for (const f of [`${run.name}.log`, `${run.name}.log.gz`]) if (existsSync(join(OUT, p.dir, f))) return f;
  return null;
}

function writeLog(p: Project, run: Run, text: string): string {
  const dir = join(OUT, p.dir);
  mkdirSync(dir, { recursive: true });
  for (const f of [`${run.name}.log`, `${run.name}.log.gz`]) rmSync(join(dir, f), { force: true });
  const buf = Buffer.from(text, 'utf8');
  const name = buf.length > GZIP_OVER ? `${run.name}.log.gz` : `${run.name}.log`;
  writeFileSync(join(dir, name), name.endsWith('.gz') ? gzipSync(buf, { level: 9 }) : buf);
  return name;
}

/** SWE-bench's log_parsers/python.py with its two package imports replaced by local stand-ins. */
function referenceModule(gitDir: string, work: string): { dir: string; commit: string } {
  const commit = must(['git', `--git-dir=${gitDir}`, 'rev-parse', 'HEAD'], 'git rev-parse')
    .toString()
    .trim();
  const src = must(
    ['git', `--git-dir=${gitDir}`, 'show', `${commit}:swebench/harness/log_parsers/python.py`],
    'git show',
  )
    .toString()
    .replace(
      /^from swebench\.harness\.constants import TestStatus$/m,
      'from enum import Enum\nclass TestStatus(Enum):\n    FAILED = "FAILED"\n    PASSED = "PASSED"\n    SKIPPED = "SKIPPED"\n    ERROR = "ERROR"\n    XFAIL = "XFAIL"',
    )
    .replace(/^from swebench\.types import TestSpec$/m, 'TestSpec = object');
  const dir = join(work, 'reference');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'swebench_python_parsers.py'), src);
  return { dir, commit };
}

const RUNNER = `
import gzip, json, sys
sys.path.insert(0, sys.argv[1])
import swebench_python_parsers as P
raw = open(sys.argv[3], 'rb').read()
if sys.argv[3].endswith('.gz'): raw = gzip.decompress(raw)
sm = getattr(P, sys.argv[2])(raw.decode('utf-8'), None)
json.dump(sm, sys.stdout, ensure_ascii=False)
`;
const WORDS = new Set(['FAILED', 'PASSED', 'SKIPPED', 'ERROR', 'XFAIL']);

function writeVectors(p: Project, run: Run, ref: { dir: string; commit: string }): number {
  const log = logFile(p, run);
  if (!log) usage(`no log for ${p.dir}/${run.name}; run without --vectors-only first`);
  let lines = 0;
  for (const f of readdirSync(join(OUT, p.dir)))
    if (
      f.startsWith(`${run.name}.`) &&
      f.endsWith('.json') &&
      !run.parsers.includes(f.slice(run.name.length + 1, -5))
    )
      rmSync(join(OUT, p.dir, f));
  for (const parser of run.parsers) {
    const fn = REFERENCE_FUNCTIONS[parser] ?? usage(`no reference function for parser ${parser}`);
    const out = must(['python3', '-c', RUNNER, ref.dir, fn, join(OUT, p.dir, log)], `${fn} on ${log}`);
    const all = JSON.parse(out.toString()) as Record<string, string>;
    // Values outside the five status words (`ERROR:` from an `ERROR: …` line) are left out, as faun does.
    const statuses = Object.fromEntries(Object.entries(all).filter(([, v]) => WORDS.has(v)));
    lines = Math.max(lines, Object.keys(statuses).length);
    const s = p.source;
    const vector = {
      project: p.project,
      source:
        s.kind === 'git'
          ? {
              repository: s.repository,
              commit: s.commit,
              tag: s.tag,
              command: run.command,
              image: 'faun python toolchain + Debian bookworm packages (scripts/python-logs.ts)',
            }
          : {
              debian: s.package,
              version: s.version,
              command: run.command,
              image: 'faun python toolchain + Debian bookworm packages (scripts/python-logs.ts)',
            },
      reference: { tool: 'SWE-bench', repository: 'SWE-bench/SWE-bench', commit: ref.commit, parser: fn },
      ...(run.stopAfter ? { stopped_after_seconds: run.stopAfter } : {}),
      parser,
      log,
      dropped: Object.keys(all).length - Object.keys(statuses).length,
      statuses,
    };
    writeFileSync(join(OUT, p.dir, `${run.name}.${parser}.json`), `${JSON.stringify(vector, null, 2)}\n`);
  }
  return lines;
}

async function main() {
  const { swebench, mirrors, only, vectorsOnly } = args();
  const projects = PROJECTS.filter((p) => !only || only.includes(p.dir));
  if (!projects.length) usage(`--only matches no project (known: ${PROJECTS.map((p) => p.dir).join(', ')})`);
  const work = mkdtempSync(join(tmpdir(), 'faun-python-logs-'));
  process.on('SIGINT', () => {
    rmSync(work, { recursive: true, force: true });
    process.exit(130);
  });
  const ref = referenceModule(swebench, work);
  const image = vectorsOnly ? '' : await corpusImage();
  let total = 0;
  for (const p of projects) {
    if (!vectorsOnly) {
      console.log(`${p.dir}: source…`);
      const tree = sourceTree(p, mirrors, image, work);
      if (p.prepare) must(['sh', '-c', p.prepare], `${p.dir} prepare`, { cwd: tree });
      for (const run of p.runs) {
        console.log(`${p.dir}/${run.name}: running tests…`);
        const name = writeLog(p, run, runLog(image, tree, run.command, run.stopAfter));
        console.log(`${p.dir}/${run.name}: ${name}`);
      }
    }
    for (const run of p.runs) {
      const n = writeVectors(p, run, ref);
      total += n;
      console.log(`${p.dir}/${run.name}: ${n} tests (${run.parsers.join(', ')})`);
    }
  }
  rmSync(work, { recursive: true, force: true });
  console.log(`done: ${total} test statuses over ${projects.length} projects`);
}

if (import.meta.main) await main();
