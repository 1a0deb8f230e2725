/**
 * Fault-localization answers, on top of the path matcher of `@faun/metrics`: `strict` accepts only an
 * answer that is a single path (quoted or fenced allowed); `lenient` takes the first mentioned path
 * that is in the tree (else the first path-like token); `ranked` lists every mentioned tree path in
 * order of first mention.
 */
import { extractPaths, pathCandidates } from '@faun/metrics';

/** The answer as one path, or null when the output is anything more than a path. */
export function extractPathStrict(output: string): string | null {
  const text = output
    .trim()
    .replace(/^```[^\n]*\n([\s\S]*?)\n?```$/, '$1')
    .trim();
  if (text === '' || /\n/.test(text)) return null;
  const p = pathCandidates(text)[0];
  return p && !/\s/.test(p) ? p : null;
}

/** The first path in the output that is in `tree`, else the first path-like token, else null. */
export function extractPathLenient(output: string, tree?: readonly string[]): string | null {
  return (tree ? extractPaths(output, tree)[0] : undefined) ?? extractPaths(output)[0] ?? null;
}

/** Every path mentioned in the output (in `tree`, when given), in order, without duplicates. */
export function extractRankedPaths(output: string, tree?: readonly string[]): string[] {
  return extractPaths(output, tree);
}
