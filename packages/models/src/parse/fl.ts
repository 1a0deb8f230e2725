/**
 * Fault-localization answers: pull file paths out of model output. `strict` accepts only an answer
 * that is a single path (quotes/backticks allowed); `lenient` takes the first path-like token,
 * preferring one in the repository tree; `ranked` reads one path per line, in order, deduplicated.
 */

/** Canonical form for comparing paths: trims, strips quotes and `./` `a/` `b/` `/` prefixes, uses `/`. */
export function normalizePath(p: string): string {
  let s = p.trim().replace(/^[`'"(<[]+|[`'"),.:;>\]]+$/g, '');
  s = s.replace(/\\/g, '/').replace(/\/{2,}/g, '/');
  s = s
    .replace(/^(\.\/)+/, '')
    .replace(/^[ab]\/(?=.*\/|.*\.)/, '')
    .replace(/^\/+/, '');
  return s;
}

const PATH_TOKEN = /[A-Za-z0-9_.\-/\\]*[A-Za-z0-9_-]\.[A-Za-z0-9]+|[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+/g;

/** The answer as one path, or null when the output is anything more than a path. */
export function extractPathStrict(output: string): string | null {
  const fenced = output
    .trim()
    .replace(/^```[^\n]*\n([\s\S]*?)\n?```$/, '$1')
    .trim();
  if (fenced === '' || /\n/.test(fenced)) return null;
  const p = normalizePath(fenced);
  return p && !/\s/.test(p) ? p : null;
}

/** The first path in the output that is in `tree` (exactly or as a suffix), else the first path-like token. */
export function extractPathLenient(output: string, tree?: readonly string[]): string | null {
  const tokens = [...output.matchAll(PATH_TOKEN)].map((m) => normalizePath(m[0])).filter(Boolean);
  if (tree?.length) {
    const set = new Set(tree);
    for (const t of tokens) {
      if (set.has(t)) return t;
      const suffix = tree.find((p) => p.endsWith(`/${t}`));
      if (suffix && t.includes('/')) return suffix;
    }
  }
  return tokens[0] ?? null;
}

/** One path per non-empty line (lenient per line), in order, without duplicates. */
export function extractRankedPaths(output: string, tree?: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of output.split('\n')) {
    const p = extractPathLenient(line, tree);
    if (p && !out.includes(p)) out.push(p);
  }
  return out;
}
