/**
 * What the parsers make of one output, for the run record and the progress line: the extracted path
 * (FL), whether the edit applies and why not (CE), the cleaned answer (QA). Scoring itself is done by
 * `faun score`; this only audits the format.
 */
import type { TaskItem } from '@faun/schema';
import { extractPathLenient, extractPathStrict, normalizePath } from './fl.ts';
import { cleanQaAnswer } from './qa.ts';
import { applySearchReplace, parseSearchReplace } from './search-replace.ts';

export interface OutputCheck {
  /** The output follows the requested format. */
  wellFormed: boolean;
  /** What was extracted (path, edited file's length, cleaned answer's length). */
  data: Record<string, unknown>;
  /** Why the output is malformed or does not apply, when it is. */
  reason: string | null;
}

export function checkOutput(item: TaskItem, output: string): OutputCheck {
  switch (item.task) {
    case 'fl': {
      const strict = extractPathStrict(output);
      const lenient = extractPathLenient(output, item.tree);
      const inTree = strict !== null && item.tree.includes(strict);
      return {
        wellFormed: strict !== null,
        data: { path_strict: strict, path_lenient: lenient, in_tree: inTree },
        reason:
          strict === null ? 'output is not a single file path' : inTree ? null : 'path is not in the tree',
      };
    }
    case 'ce': {
      const parsed = parseSearchReplace(output);
      if (parsed.blocks.length === 0)
        return {
          wellFormed: false,
          data: { blocks: 0 },
          reason: parsed.errors[0] ?? (output.trim() ? 'no SEARCH/REPLACE blocks' : 'empty output'),
        };
      const foreign = parsed.blocks.find((b) => b.path && normalizePath(b.path) !== normalizePath(item.path));
      const applied = applySearchReplace(item.file_before, parsed.blocks);
      return {
        wellFormed: parsed.errors.length === 0 && applied.ok,
        data: {
          blocks: parsed.blocks.length,
          applies: applied.ok,
          exact: applied.ok && applied.text === item.file_after,
        },
        reason: applied.ok
          ? (parsed.errors[0] ?? (foreign ? `a block names another file: ${foreign.path}` : null))
          : applied.reason,
      };
    }
    case 'qa': {
      const answer = cleanQaAnswer(output);
      return {
        wellFormed: answer !== '',
        data: { answer_chars: answer.length },
        reason: answer ? null : 'empty answer',
      };
    }
  }
}
