/**
 * Honest offline baselines (labelled as such in every prediction's `model`), used by the demo and as
 * floors in reports (test doubles live in `@faun/models/testing`).
 *
 * - `baseline:title`   — QA: answers with the issue title.
 * - `baseline:no-edit` — CE: answers with no edit at all (empty output).
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
