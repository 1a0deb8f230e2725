/**
 * The codebleu-scale pairs, mined from fetched git mirrors by a fixed recipe
 * (`bench/data/codebleu-scale-sources.json`: repository, pinned head, pathspec, number of commits): every
 * hunk of those commits is one pair, its old side (context + removed lines) the hypothesis and its new side
 * (context + added lines) the reference, sizes as they come. Only the recipe is committed; the same mirrors
 * give the same pairs, byte for byte.
 *
 *   bun bench/src/codebleu-scale/mine.ts [--mirrors DIR] [--out FILE]
 *
 * Selection: a hunk is kept when both sides have code, they differ, no line is longer than
 * {@link MAX_LINE_CHARS} (minified or generated files) and neither side is longer than {@link MAX_SIDE_CHARS};
 * pairs met twice are kept once. Each language gets a fifth of the target, taken round-robin over its
 * repositories (newest commits first); the file interleaves the languages, so every prefix (the 1k and 5k
 * runs) has the same mix.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Hunk, logHunks, revParse } from '../codebleu-real/hunks.ts';

export const RECIPE = resolve(import.meta.dir, '../../data/codebleu-scale-sources.json');
export const DEFAULT_PAIRS = resolve(import.meta.dir, '../../out/codebleu-scale/pairs.jsonl');

/** Lines longer than this mark a generated or minified file: its hunks are left out. */
export const MAX_LINE_CHARS = 1000;
/** Sides longer than this are left out (a whole file rewritten in one hunk). */
export const MAX_SIDE_CHARS = 16000;

export interface Source {
  repo: string;
  lang: string;
  head: string;
  pathspec: string[];
  commits: number;
}

export interface Recipe {
  target: number;
  sources: Source[];
}

export interface ScalePair {
  lang: string;
  hyp: string;
  ref: string;
  repo: string;
  commit: string;
  path: string;
  hunk: number;
}

/** The recipe file, checked (a bad one names its field). */
export function readRecipe(file = RECIPE): Recipe {
  const r = JSON.parse(readFileSync(file, 'utf8')) as Partial<Recipe>;
  if (!Number.isInteger(r.target) || (r.target as number) < 1)
    throw new Error(`${file}: target: expected a positive integer`);
  if (!Array.isArray(r.sources) || r.sources.length === 0)
    throw new Error(`${file}: sources: expected a non-empty list`);
  r.sources.forEach((s, i) => {
    for (const k of ['repo', 'lang', 'head'] as const)
      if (typeof s[k] !== 'string') throw new Error(`${file}: sources[${i}].${k}: expected a string`);
    if (!Array.isArray(s.pathspec)) throw new Error(`${file}: sources[${i}].pathspec: expected a list`);
    if (!Number.isInteger(s.commits)) throw new Error(`${file}: sources[${i}].commits: expected an integer`);
  });
  return r as Recipe;
}

export const mirrorOf = (mirrors: string, repo: string) => join(mirrors, repo.replace('/', '+'), 'repo');

/** Mirrors of the recipe that are missing under `mirrors`. */
export function missingMirrors(mirrors: string, recipe: Recipe): string[] {
  return recipe.sources.filter((s) => !existsSync(mirrorOf(mirrors, s.repo))).map((s) => s.repo);
}

function keep(h: Hunk): boolean {
  if (h.before === h.after || !h.before.trim() || !h.after.trim()) return false;
  if (h.before.length > MAX_SIDE_CHARS || h.after.length > MAX_SIDE_CHARS) return false;
  for (const side of [h.before, h.after])
    for (const line of side.split('\n')) if (line.length > MAX_LINE_CHARS) return false;
  return true;
}

/** One source's kept hunks, newest commit first. */
function sourcePairs(mirrors: string, s: Source): ScalePair[] {
  const dir = mirrorOf(mirrors, s.repo);
  const head = revParse(dir, s.head);
  return logHunks(dir, head, s.pathspec, s.commits)
    .filter(keep)
    .map((h) => ({
      lang: s.lang,
      hyp: h.before,
      ref: h.after,
      repo: s.repo,
      commit: h.commit,
      path: h.path,
      hunk: h.hunk,
    }));
}

/** Takes from each list in turn until `n` are taken or all are empty. */
function roundRobin<T>(lists: T[][], n: number): T[] {
  const out: T[] = [];
  const at = lists.map(() => 0);
  while (out.length < n) {
    let took = false;
    lists.forEach((l, i) => {
      if (out.length < n && (at[i] as number) < l.length) {
        out.push(l[(at[i] as number)++] as T);
        took = true;
      }
    });
    if (!took) break;
  }
  return out;
}

/** The pairs of the recipe, in file order (deterministic for the same mirrors). */
export function minePairs(mirrors: string, recipe: Recipe, log: (s: string) => void = () => {}): ScalePair[] {
  const seen = new Set<string>();
  const byLang = new Map<string, ScalePair[][]>();
  for (const s of recipe.sources) {
    const pairs = sourcePairs(mirrors, s).filter((p) => {
      const key = `${p.lang}\0${p.hyp}\0${p.ref}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    log(`  ${s.repo.padEnd(22)} ${s.lang.padEnd(10)} ${pairs.length} hunks`);
    const l = byLang.get(s.lang) ?? [];
    l.push(pairs);
    byLang.set(s.lang, l);
  }
  const langs = [...byLang.keys()].sort();
  const quota = Math.ceil(recipe.target / langs.length);
  const perLang = langs.map((l) => roundRobin(byLang.get(l) as ScalePair[][], quota));
  const short = langs.filter((_, i) => (perLang[i] as ScalePair[]).length < quota);
  if (short.length) throw new Error(`too few hunks for ${short.join(', ')}: raise "commits" in the recipe`);
  return roundRobin(perLang, recipe.target);
}

/** Writes the pairs as JSONL (`{lang, hyp, ref, repo, commit, path, hunk}`); returns the count. */
export function writePairs(file: string, pairs: readonly ScalePair[]): number {
  writeFileSync(file, pairs.map((p) => `${JSON.stringify(p)}\n`).join(''));
  return pairs.length;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const mirrors = flag('--mirrors') ?? process.env.FAUN_MIRRORS ?? '/work/.mirror';
  const out = flag('--out') ?? DEFAULT_PAIRS;
  const recipe = readRecipe();
  const missing = missingMirrors(mirrors, recipe);
  if (missing.length) {
    console.error(`mirrors missing under ${mirrors}: ${missing.join(', ')}`);
    process.exit(2);
  }
  const { mkdirSync } = await import('node:fs');
  const { dirname } = await import('node:path');
  mkdirSync(dirname(out), { recursive: true });
  console.log(`wrote ${writePairs(out, minePairs(mirrors, recipe, console.log))} pairs to ${out}`);
}
