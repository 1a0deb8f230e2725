/**
 * Fault-localisation path matching: normalising a path as a model writes it, strict and lenient
 * matching against the gold path, extracting a ranked list of paths from a free-text answer, top-k and
 * reciprocal rank. Model-output parsers reuse these rather than re-implementing them.
 * @module
 */

const QUOTES = /^[\s'"`*_<([{]+|[\s'"`*_>)\]}:;,.!?]+$/g;

/**
 * Normalises one path mention: trims whitespace, surrounding quotes / backticks / markdown emphasis /
 * brackets and trailing punctuation, turns `\` into `/`, drops leading `./` and `/`, collapses `//`.
 * A git-diff `a/` or `b/` prefix is kept here (see {@link pathCandidates}).
 */
export function normalizePath(raw: string): string {
  if (isNormal(raw)) return raw;
  let p = raw.replace(QUOTES, '');
  p = p.replaceAll('\\', '/');
  p = p.replace(/\/{2,}/g, '/');
  for (;;) {
    const before = p;
    if (p.startsWith('./')) p = p.slice(2);
    else if (p.startsWith('/')) p = p.slice(1);
    if (p === before) break;
  }
  return p.replace(QUOTES, '');
}

const LEADING = /^[\s'"`*_<([{]$/;
const TRAILING = /^[\s'"`*_>)\]}:;,.!?]$/;

/**
 * True when `normalizePath` would return `p` unchanged (most paths, and every path of a tree): nothing
 * to trim at either end, no `\`, no `//`, no leading `./` or `/` (a few character tests instead of three regex replacements).
 */
function isNormal(p: string): boolean {
  if (p === '') return true;
  if (LEADING.test(p[0]!) || TRAILING.test(p[p.length - 1]!)) return false;
  if (p.charCodeAt(0) === 47 || (p.charCodeAt(0) === 46 && p.charCodeAt(1) === 47)) return false;
  return !p.includes('\\') && !p.includes('//');
}

/** The normalised path and, when it starts with a git-diff `a/` or `b/` prefix, the path without it. */
export function pathCandidates(raw: string): string[] {
  const p = normalizePath(raw);
  if (!p) return [];
  const m = /^[ab]\/(.+)$/.exec(p);
  return m ? [p, m[1]!] : [p];
}

/** A set of repository paths for membership tests (normalised the same way as answers). */
export function pathSet(tree: Iterable<string>): Set<string> {
  const s = new Set<string>();
  for (const t of tree) s.add(normalizePath(t));
  return s;
}

/**
 * Strict match: the whole answer (after normalisation, one fenced or quoted path allowed) is the gold
 * path. A leading `a/`/`b/` is accepted when the rest equals the gold path.
 */
export function strictPathMatch(answer: string, gold: string): boolean {
  return strictPathCandidates(answer).includes(normalizePath(gold));
}

/**
 * What strict matching compares: the candidates of the whole answer read as one path (one fenced or
 * quoted path allowed), or none when the answer is empty or spans several lines.
 */
export function strictPathCandidates(answer: string): string[] {
  const text = unfence(answer).trim();
  if (text === '' || /\n/.test(text)) return [];
  return pathCandidates(text);
}

function unfence(s: string): string {
  const m = /^\s*```[^\n]*\n([\s\S]*?)\n?```\s*$/.exec(s);
  return m ? m[1]! : s;
}

// Runs of path characters; without a tree, a token must contain a `/` or look like `name.ext`.
const TOKEN = /[A-Za-z0-9_\-.\\/~@+]+/g;
const LOOKS_LIKE_PATH = /[\\/]|^[\w\-.]*[A-Za-z_][\w-]+\.[A-Za-z][A-Za-z0-9_]{0,9}$/;

/**
 * Every path mentioned in `answer`, in order of first mention, without duplicates. With `tree`, only
 * mentions that exist in it are kept (a mention's `a/`/`b/`-stripped form counts); without it, every
 * path-looking token (`dir/name`, `name.ext`) is kept.
 */
export function extractPaths(answer: string, tree?: Iterable<string> | Set<string>): string[] {
  const set = tree === undefined ? null : tree instanceof Set ? tree : pathSet(tree);
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of answer.matchAll(TOKEN)) {
    const cands = pathCandidates(m[0]);
    const first = cands[0];
    if (first === undefined || /^[.\-/]+$/.test(first)) continue;
    if (!set && !LOOKS_LIKE_PATH.test(first)) continue;
    let hit: string | undefined;
    if (set) hit = cands.find((c) => set.has(c));
    else hit = cands.length > 1 ? cands[1] : first;
    if (hit !== undefined && !seen.has(hit)) {
      seen.add(hit);
      out.push(hit);
    }
  }
  return out;
}

/** Lenient match: the first path mentioned in the answer that exists in `tree` is the gold path. */
export function lenientPathMatch(
  answer: string,
  gold: string,
  tree: Iterable<string> | Set<string>,
): boolean {
  const first = extractPaths(answer, tree)[0];
  return first !== undefined && first === normalizePath(gold);
}

/** 1-based rank of `gold` in `ranked` (0 when absent). */
export function rankOf(ranked: readonly string[], gold: string): number {
  const g = normalizePath(gold);
  const i = ranked.indexOf(g);
  return i < 0 ? 0 : i + 1;
}

/** 1 when the gold path is among the first `k` ranked paths, else 0. */
export function topK(ranked: readonly string[], gold: string, k: number): 0 | 1 {
  const r = rankOf(ranked, gold);
  return r > 0 && r <= k ? 1 : 0;
}

/** Reciprocal rank of the gold path (0 when absent); its mean over items is the MRR. */
export function reciprocalRank(ranked: readonly string[], gold: string): number {
  const r = rankOf(ranked, gold);
  return r === 0 ? 0 : 1 / r;
}
