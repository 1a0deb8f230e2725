/**
 * Test doubles (`@faun/models/testing`): the deterministic `echo` provider and scripted providers.
 * Importing this module registers `echo` / `echo:<text>` with the provider registry, so a test can
 * name it in a model spec (`--semantic-check echo:yes`); the shipped registry does not know it.
 */
import { registerProvider } from '../src/registry.ts';
import type { GenerateRequest, GenerateResult, ModelProvider } from '../src/types.ts';

/** `echo` returns the last user message; `echo:<text>` always returns `<text>`. */
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

registerProvider('echo', async () => createEchoProvider);
