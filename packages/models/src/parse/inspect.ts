/**
 * What the parsers make of one output, for the run record and the progress line: the extracted path
 * (FL), whether the edit applies and why not (CE), the cleaned answer (QA). Scoring itself is done by
 * `faun score`; this only audits the format.
 */
import { applySearchReplace, normalizePath, parseSearchReplace } from '@faun/metrics';
import type { TaskItem } from '@faun/schema';
import { extractPathLenient, extractPathStrict, extractRankedPaths } from './fl.ts';
import { cleanQaAnswer } from './qa.ts';

export interface OutputCheck {
  /** The output follows the requested format. */
  wellFormed: boolean;
  /** What was extracted (path; blocks and whether they apply; cleaned answer's length). */
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
      const problem = parsed.problems[0];
      const problemText = problem ? `line ${problem.line}: ${problem.problem}` : null;
      if (parsed.blocks.length === 0)
        return {
          wellFormed: false,
          data: { blocks: 0 },
          reason: problemText ?? (output.trim() ? 'no SEARCH/REPLACE blocks' : 'empty output'),
        };
      const foreign = parsed.blocks.find((b) => b.path && normalizePath(b.path) !== normalizePath(item.path));
      const applied = applySearchReplace(item.file_before, parsed.blocks);
      const failure = applied.failures[0];
      return {
        wellFormed: problemText === null && applied.ok && !foreign,
        data: {
          blocks: parsed.blocks.length,
          applied: applied.applied,
          matches: applied.matches,
          exact: applied.ok && applied.result === item.file_after,
        },
        reason: failure
          ? `block ${failure.index + 1}: ${failure.reason}`
          : (problemText ?? (foreign ? `a block names another file: ${foreign.path}` : null)),
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

/**
 * When an output that `checkOutput` calls malformed is what the model is meant to answer, names it:
 * `'empty edit'` for `baseline:no-edit` on CE, `'ranked list'` for `bm25:K` (K > 1) on FL when every
 * line is a path of the tree. Otherwise null.
 */
export function intendedOutput(
  model: string,
  item: TaskItem,
  output: string,
): 'empty edit' | 'ranked list' | null {
  if (item.task === 'ce' && model === 'baseline:no-edit' && output.trim() === '') return 'empty edit';
  const k = /^bm25:(\d+)$/.exec(model);
  if (item.task === 'fl' && k && Number(k[1]) > 1) {
    const lines = output.split('\n').filter((l) => l.trim() !== '');
    if (lines.length > 0 && extractRankedPaths(output, item.tree).length === lines.length)
      return 'ranked list';
  }
  return null;
}
