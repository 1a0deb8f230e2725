/**
 * Honest offline baselines (labelled as such in every prediction's `model`), used by the demo and as
 * floors in reports, plus the deterministic `echo` provider for tests.
 *
 * - `baseline:title`   — QA: answers with the issue title.
 * - `baseline:no-edit` — CE: answers with no edit at all (empty output).
 * - `echo`             — returns the last user message; `echo:<text>` always returns `<text>`.
 */
import { didYouMean, UsageError } from '@faun/kit';
import type { GenerateRequest, GenerateResult, ModelProvider } from '../types.ts';

const BASELINES: Record<string, (req: GenerateRequest) => string> = {
  title: (req) => {
    if (!req.item) throw new UsageError('baseline:title needs the dataset item');
    return req.item.issue_title;
  },
  'no-edit': () => '',
};

export function createBaselineProvider(name: string): ModelProvider {
  const fn = BASELINES[name];
  if (!fn)
    throw new UsageError(`unknown baseline '${name}'.${didYouMean(name, Object.keys(BASELINES))}`, {
      hint: `available: ${Object.keys(BASELINES)
        .map((b) => `baseline:${b}`)
        .join(', ')}`,
    });
  return {
    id: `baseline:${name}`,
    cacheScope: null,
    async generate(req): Promise<GenerateResult> {
      return { text: fn(req), usage: null };
    },
  };
}

/** Deterministic test double. */
export function createEchoProvider(name: string): ModelProvider {
  return {
    id: name ? `echo:${name}` : 'echo',
    cacheScope: null,
    async generate(req): Promise<GenerateResult> {
      const last = [...req.messages].reverse().find((m) => m.role === 'user');
      const text = name || last?.content || '';
      return { text, usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0 } };
    },
  };
}

/** A scripted provider for tests: `answer(req)` decides each output. */
export function createMockProvider(
  id: string,
  answer: (req: GenerateRequest) => string | Promise<string>,
): ModelProvider {
  return {
    id,
    cacheScope: null,
    async generate(req): Promise<GenerateResult> {
      return { text: await answer(req), usage: null };
    },
  };
}
