/**
 * Gold SEARCH/REPLACE blocks for CE items: derived from a before/after file pair, rendered with the
 * scorer's canonical `formatSearchReplace`, and checked with the scorer's own `parseSearchReplace` +
 * `applySearchReplace`: every block must match exactly and the result must equal the post-change file
 * byte for byte. Line-based (a file is `text.split('\n')`, so a trailing newline is a final empty
 * line and CRLF is kept inside lines).
 * @module
 */
import {
  deriveSearchReplace,
  formatSearchReplace,
  parseSearchReplace,
  verifySearchReplace,
} from '@faun/metrics';

export interface EditBlock {
  search: string;
  replace: string;
}

/** Renders blocks in the scorer's canonical format, each preceded by the file path when given. */
export function formatBlocks(blocks: EditBlock[], path: string | null = null): string {
  return formatSearchReplace(blocks.map((b) => ({ path, search: b.search, replace: b.replace, line: 0 })));
}

/** Parses blocks with the scorer's parser (paths and prose around blocks are ignored here). */
export function parseBlocks(text: string): EditBlock[] {
  return parseSearchReplace(text).blocks.map((b) => ({ search: b.search, replace: b.replace }));
}

/**
 * Gold blocks turning `before` into `after` (@faun/metrics' `deriveSearchReplace`), or the specific
 * reason there are none (the change writes or removes a marker-like line, or no SEARCH part is unique).
 */
export function deriveBlocks(
  before: string,
  after: string,
  path: string | null = null,
): { blocks: EditBlock[] } | { reason: string } {
  const d = deriveSearchReplace(before, after, path);
  if (!d.ok) return { reason: d.reason };
  return { blocks: d.blocks.map((b) => ({ search: b.search, replace: b.replace })) };
}

/** True when the blocks in `text` re-apply exactly to `before` and give `after` (@faun/metrics). */
export const verifyBlocks = verifySearchReplace;
