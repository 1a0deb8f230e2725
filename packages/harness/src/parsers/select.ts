/**
 * Which parser reads an instance's log. The reference the row comes from decides: a SWE-bench row gets
 * SWE-bench's per-repository choice (its MAP_REPO_TO_PARSER), a Multi-SWE-bench row the parser of
 * Multi-SWE-bench's instance class for that repository.
 */
import type { ParserName } from './index.ts';

export type GraderSource = 'swebench' | 'multi-swe-bench';

/** `owner/repo` → parser, as SWE-bench chooses. One line per repository. */
export const SWEBENCH_PARSERS: Record<string, ParserName> = {};

/** `org/repo` → parser, as Multi-SWE-bench chooses. One line per repository. */
export const MSB_PARSERS: Record<string, ParserName> = {};

/** The reference's parser for `repo`, or null when that reference has none for it. */
export function referenceParser(source: GraderSource, repo: string): ParserName | null {
  const table = source === 'swebench' ? SWEBENCH_PARSERS : MSB_PARSERS;
  return Object.hasOwn(table, repo) ? (table[repo] ?? null) : null;
}
