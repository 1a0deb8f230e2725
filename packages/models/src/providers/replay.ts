/**
 * `replay:<file>` — answers from an existing predictions file (by item id), e.g. outputs produced by
 * another tool. Items missing from the file fail with a clear error (recorded per item). The model is
 * recorded by name, never by path: the `model` the replayed predictions share, else
 * `replay:<file base name>` (see `replayModelName`).
 */
import { basename } from 'node:path';
import { InputError, requireReadableFile, UsageError } from '@faun/kit';
import { Prediction, readJsonlAll } from '@faun/schema';
import type { GenerateResult, ModelProvider } from '../types.ts';

/**
 * The name a replay records: the one non-empty `model` of the replayed predictions (an older replay's
 * `replay:<path>` reduced to its base name), else `replay:<base name of the file>`.
 */
export function replayModelName(path: string, predictions: readonly Pick<Prediction, 'model'>[]): string {
  const names = new Set(predictions.map((p) => p.model.trim()).filter((m) => m !== ''));
  const [only] = names;
  if (names.size !== 1 || only === undefined) return `replay:${basename(path)}`;
  const old = /^replay:(.*[\\/].*)$/.exec(only);
  return old ? `replay:${basename(old[1]!)}` : only;
}

export async function createReplayProvider(path: string): Promise<ModelProvider> {
  if (!path) throw new UsageError('replay needs a file', { hint: 'use --model replay:preds.jsonl' });
  await requireReadableFile(path, 'model', `--model replay:${path}`);
  const { values } = await readJsonlAll(path, { schema: Prediction });
  const byId = new Map<string, Prediction>();
  for (const p of values) byId.set(p.id, p);
  return {
    id: `replay:${path}`,
    model: replayModelName(path, values),
    cacheScope: null,
    async generate(req): Promise<GenerateResult> {
      const id = req.item?.id;
      const p = id === undefined ? undefined : byId.get(id);
      if (!p) throw new InputError(`replay: no prediction for item '${id}' in ${path}`);
      if (p.error)
        throw new InputError(`replay: the prediction for '${id}' in ${path} is an error: ${p.error}`);
      return {
        text: p.output,
        usage: p.usage
          ? {
              promptTokens: p.usage.prompt_tokens,
              completionTokens: p.usage.completion_tokens,
              cachedTokens: p.usage.cached_tokens,
            }
          : null,
      };
    },
  };
}
