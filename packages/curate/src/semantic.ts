/**
 * The semantic check: an LLM labels each surviving pair as a clear problem–solution pair or not, with
 * its reason. The model is a plain `generate(prompt) → text` function so tests use a scripted fake and
 * the CLI wires a real provider from @faun/models.
 * @module
 */
import type { CuratedPair } from './funnel.ts';

/** `clear`/`unclear` from the model; `error` when its answer could not be read; `skipped` without a model. */
export type LlmLabel = 'clear' | 'unclear' | 'error' | 'skipped';

export interface SemanticLabel {
  repo: string;
  issue: number;
  pr: number;
  llm: LlmLabel;
  reason: string;
  model: string | null;
}

export type Generate = (prompt: string) => Promise<string>;

/** Version of the prompt below; bump when its wording changes (labels are not comparable across versions). */
export const SEMANTIC_PROMPT_VERSION = 1;

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}\n…(truncated)` : s);

/** The prompt for one pair: the issue, the PR and its diff; the answer is one JSON object. */
export function semanticPrompt(p: CuratedPair): string {
  return [
    'You review pairs of a GitHub issue and the pull request that closed it, for a benchmark of',
    'issue resolution. Decide whether the pair is a CLEAR problem–solution pair: the issue describes',
    'a concrete problem or request, and the pull request changes the code to solve exactly that problem.',
    'Answer with one JSON object and nothing else: {"clear": true|false, "reason": "<one sentence>"}',
    '',
    `## Issue #${p.issue.number}: ${p.issue.title}`,
    clip(p.issue.body ?? '', 6000),
    '',
    `## Pull request #${p.pr.number}: ${p.pr.title}`,
    clip(p.pr.body ?? '', 3000),
    '',
    `## Diff of ${p.file.filename}`,
    clip(p.file.patch ?? '(diff not available)', 6000),
  ].join('\n');
}

/** Reads the model's answer: a JSON object with `clear`, else a leading yes/no. */
export function parseVerdict(text: string): { label: LlmLabel; reason: string } {
  const m = text.match(/\{[\s\S]*\}/);
  if (m) {
    try {
      const o = JSON.parse(m[0]) as { clear?: unknown; reason?: unknown };
      if (typeof o.clear === 'boolean')
        return { label: o.clear ? 'clear' : 'unclear', reason: typeof o.reason === 'string' ? o.reason : '' };
    } catch {
      // fall through to the yes/no reading
    }
  }
  const word = text
    .trim()
    .match(/^\W*(yes|no|clear|unclear)\b/i)?.[1]
    ?.toLowerCase();
  if (word) return { label: word === 'yes' || word === 'clear' ? 'clear' : 'unclear', reason: text.trim() };
  return { label: 'error', reason: `unreadable answer: ${JSON.stringify(text.slice(0, 200))}` };
}

/**
 * Labels every pair, `concurrency` model calls at a time (labels keep the order of `pairs`). Without
 * `generate` every label is `skipped`. A model call that throws gives `error` for that pair (the run
 * goes on). `onDone` is called after each pair (progress).
 */
export async function semanticCheck(
  pairs: CuratedPair[],
  generate: Generate | null,
  model: string | null,
  onDone?: () => void,
  concurrency = 1,
): Promise<SemanticLabel[]> {
  const out: SemanticLabel[] = new Array(pairs.length);
  let next = 0;
  const worker = async () => {
    for (;;) {
      const i = next++;
      const p = pairs[i];
      if (!p) return;
      const base = { repo: p.pair.repo, issue: p.pair.issue, pr: p.pair.pr, model };
      if (!generate) {
        out[i] = { ...base, llm: 'skipped', reason: 'no model given (--semantic-check MODEL)' };
        continue;
      }
      try {
        const v = parseVerdict(await generate(semanticPrompt(p)));
        out[i] = { ...base, llm: v.label, reason: v.reason };
      } catch (e) {
        out[i] = { ...base, llm: 'error', reason: `model call failed: ${(e as Error).message}` };
      }
      onDone?.();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, pairs.length)) }, worker));
  return out;
}
