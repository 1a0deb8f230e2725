/**
 * The real-code CodeBLEU pair files, rebuilt from fetched git mirrors of public repositories: each pair is
 * the before (hypothesis) and after (reference) side of one hunk of a real commit. Only pointers (repository,
 * commit, path, hunk index) are committed, in `bench/data/codebleu-real-pointers.jsonl`; the code is read
 * from the mirrors at build time.
 *
 *   bun bench/src/codebleu-real/build.ts [--mirrors DIR] [--out DIR]   rebuild the pair files
 *   bun bench/src/codebleu-real/build.ts --select [--mirrors DIR]      choose the hunks again (rewrites pointers)
 *
 * Mirrors are bare repositories at `<mirrors>/<owner>+<name>/repo` (default `/work/.mirror`, or
 * FAUN_MIRRORS). Files written to `<out>` (default `bench/out/codebleu-real`):
 * - `pairs.jsonl`: the distinct pairs, `{lang, hyp, ref, repo, commit, path, hunk}`;
 * - `pairs-5hyp.jsonl`: each of the first fifth of every language's references with five hypotheses (its own
 *   before side and the before sides of the next four pairs), grouped as five passes over the references, the
 *   way several models' predictions of one dataset follow each other;
 * - `pairs-50k.jsonl`: 50,000 distinct pairs of the same texts combined at random (seeded), for the
 *   determinism and memory checks.
 */

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { mulberry32 } from '@faun/metrics';
import { type Hunk, logHunks, revParse, showHunks } from './hunks.ts';

/** The repositories and pinned heads the pairs come from. */
export const SOURCES = [
  { repo: 'spf13/cobra', lang: 'go', head: 'adbc8813901bba65827259daa8e22ff94ec1f30e', pathspec: ['*.go'] },
  {
    repo: 'square/javapoet',
    lang: 'java',
    head: 'b9017a9503b76e11b4ad4c1a9f050e2d29112cb0',
    pathspec: ['*.java'],
  },
  {
    repo: 'chalk/chalk',
    lang: 'javascript',
    head: '678e5505458d0cf40134e205aed4454e0eeac45c',
    pathspec: ['*.js'],
  },
  {
    repo: 'colinhacks/zod',
    lang: 'typescript',
    head: 'e516c3baf22615e20934116abebfed6c000222c2',
    pathspec: ['*.ts', ':!*.d.ts'],
  },
  {
    repo: 'sympy/sympy',
    lang: 'python',
    head: 'e950d313a932bc6cccbc95376b3821cd2f8b5af4',
    pathspec: ['*.py'],
  },
] as const;

/** Pairs kept per repository. */
export const PER_REPO = 500;
/** Characters per pair (hypothesis + reference) and per side. */
const PAIR_CHARS: [number, number] = [1000, 1800];
const SIDE_CHARS: [number, number] = [300, 1300];
const MAX_LINE_CHARS = 240;
const PER_COMMIT = 6;

export const POINTERS = resolve(import.meta.dir, '../../data/codebleu-real-pointers.jsonl');
export const DEFAULT_OUT = resolve(import.meta.dir, '../../out/codebleu-real');

export interface Pointer {
  lang: string;
  repo: string;
  commit: string;
  path: string;
  hunk: number;
}

export interface RealPair extends Pointer {
  hyp: string;
  ref: string;
}

export function mirrorsDir(args: string[] = []): string {
  const i = args.indexOf('--mirrors');
  return i >= 0 ? String(args[i + 1]) : (process.env.FAUN_MIRRORS ?? '/work/.mirror');
}

export function gitDirOf(mirrors: string, repo: string): string {
  return join(mirrors, repo.replace('/', '+'), 'repo');
}

function usable(h: Hunk): boolean {
  const b = h.before.trim();
  const a = h.after.trim();
  if (b === a || !b || !a) return false;
  const total = b.length + a.length;
  if (total < PAIR_CHARS[0] || total > PAIR_CHARS[1]) return false;
  for (const s of [b, a]) {
    if (s.length < SIDE_CHARS[0] || s.length > SIDE_CHARS[1]) return false;
    if (s.split('\n').some((l) => l.length > MAX_LINE_CHARS)) return false;
  }
  return true;
}

/** Chooses up to {@link PER_REPO} usable, distinct hunks per repository, newest commits first. */
export function selectPointers(mirrors: string): Pointer[] {
  const out: Pointer[] = [];
  for (const s of SOURCES) {
    const gitDir = gitDirOf(mirrors, s.repo);
    revParse(gitDir, s.head);
    const seen = new Set<string>();
    const perCommit = new Map<string, number>();
    let kept = 0;
    for (const h of logHunks(gitDir, s.head, [...s.pathspec], 6000)) {
      if (kept >= PER_REPO) break;
      if (!usable(h)) continue;
      const key = `${h.before}\u0000${h.after}`;
      if (seen.has(key) || (perCommit.get(h.commit) ?? 0) >= PER_COMMIT) continue;
      seen.add(key);
      perCommit.set(h.commit, (perCommit.get(h.commit) ?? 0) + 1);
      out.push({ lang: s.lang, repo: s.repo, commit: h.commit, path: h.path, hunk: h.hunk });
      kept++;
    }
    console.log(`${s.repo}: ${kept} pairs`);
  }
  return out;
}

export function readPointers(file = POINTERS): Pointer[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Pointer);
}

/** The pairs the pointers name, read from the mirrors. */
export function rebuildPairs(pointers: Pointer[], mirrors: string): RealPair[] {
  const out: RealPair[] = [];
  for (const s of SOURCES) {
    const mine = pointers.filter((p) => p.repo === s.repo);
    if (!mine.length) continue;
    const gitDir = gitDirOf(mirrors, s.repo);
    const commits = [...new Set(mine.map((p) => p.commit))];
    const paths = [...new Set(mine.map((p) => p.path))];
    const byKey = new Map<string, Hunk>();
    for (const h of showHunks(gitDir, commits, paths)) byKey.set(`${h.commit} ${h.path} ${h.hunk}`, h);
    for (const p of mine) {
      const h = byKey.get(`${p.commit} ${p.path} ${p.hunk}`);
      if (!h) throw new Error(`${s.repo}: hunk ${p.hunk} of ${p.path} in ${p.commit} not found in ${gitDir}`);
      out.push({ ...p, hyp: h.before, ref: h.after });
    }
  }
  return out;
}

function byLang(pairs: RealPair[]): Map<string, RealPair[]> {
  const m = new Map<string, RealPair[]>();
  for (const p of pairs) {
    const l = m.get(p.lang) ?? [];
    l.push(p);
    m.set(p.lang, l);
  }
  return m;
}

/** Each of the first fifth of a language's references with five hypotheses, in five passes. */
export function fiveHypotheses(pairs: RealPair[]): { lang: string; hyp: string; ref: string }[] {
  const passes: { lang: string; hyp: string; ref: string }[][] = [[], [], [], [], []];
  for (const list of byLang(pairs).values()) {
    const refs = Math.floor(list.length / 5);
    for (let i = 0; i < refs; i++) {
      for (let k = 0; k < 5; k++) {
        const h = list[(i + k) % list.length] as RealPair;
        passes[k]!.push({ lang: h.lang, hyp: h.hyp, ref: (list[i] as RealPair).ref });
      }
    }
  }
  return passes.flat();
}

/** `n` distinct pairs of the same texts, combined at random within each language (seeded). */
export function manyPairs(
  pairs: RealPair[],
  n: number,
  seed = 1,
): { lang: string; hyp: string; ref: string }[] {
  const rnd = mulberry32(seed);
  const pools = [...byLang(pairs)].map(([lang, list]) => ({
    lang,
    texts: [...new Set(list.flatMap((p) => [p.hyp, p.ref]))],
  }));
  const seen = new Set<string>();
  const out: { lang: string; hyp: string; ref: string }[] = [];
  while (out.length < n) {
    const pool = pools[out.length % pools.length]!;
    const a = Math.floor(rnd() * pool.texts.length);
    const b = Math.floor(rnd() * pool.texts.length);
    const key = `${pool.lang} ${a} ${b}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ lang: pool.lang, hyp: pool.texts[a] as string, ref: pool.texts[b] as string });
  }
  return out;
}

function jsonl(rows: unknown[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** Writes the three pair files into `out`; returns their paths. */
export function writePairFiles(
  mirrors: string,
  out = DEFAULT_OUT,
): { pairs: string; fiveHyp: string; many: string } {
  const pairs = rebuildPairs(readPointers(), mirrors);
  mkdirSync(out, { recursive: true });
  const files = {
    pairs: join(out, 'pairs.jsonl'),
    fiveHyp: join(out, 'pairs-5hyp.jsonl'),
    many: join(out, 'pairs-50k.jsonl'),
  };
  writeFileSync(files.pairs, jsonl(pairs));
  writeFileSync(files.fiveHyp, jsonl(fiveHypotheses(pairs)));
  writeFileSync(files.many, jsonl(manyPairs(pairs, 50_000)));
  return files;
}

/** True when every mirror the pointers need is present. */
export function mirrorsPresent(mirrors: string): boolean {
  return SOURCES.every((s) => existsSync(gitDirOf(mirrors, s.repo)));
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const mirrors = mirrorsDir(args);
  if (!mirrorsPresent(mirrors)) {
    console.error(
      `mirrors missing under ${mirrors}: need ${SOURCES.map((s) => s.repo).join(', ')} (bare repositories at <dir>/<owner>+<name>/repo; --mirrors DIR)`,
    );
    process.exit(1);
  }
  if (args.includes('--select')) {
    const pointers = selectPointers(mirrors);
    mkdirSync(resolve(POINTERS, '..'), { recursive: true });
    writeFileSync(POINTERS, jsonl(pointers));
    console.log(`wrote ${pointers.length} pointers to ${POINTERS}`);
  }
  const i = args.indexOf('--out');
  const files = writePairFiles(mirrors, i >= 0 ? String(args[i + 1]) : DEFAULT_OUT);
  console.log(`wrote ${Object.values(files).join(', ')}`);
}
