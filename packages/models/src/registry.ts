/**
 * The provider registry: `provider:name` → a provider, with each implementation imported lazily on
 * first use and "did you mean" errors for unknown provider names.
 *
 * @example
 * const p = await createProvider('openai:gpt-4o', { timeoutMs: 60_000 });
 * const p2 = await createProvider('vllm:Qwen/Qwen2.5-7B', { baseUrl: 'http://gpu:8000' });
 */

import type { RepoDirs } from '@faun/kit';
import { didYouMean, UsageError } from '@faun/kit';
import type { TaskName } from '@faun/schema';
import type { ModelProvider } from './types.ts';

/** Options a factory may use; each ignores what it does not need. */
export interface ProviderOptions {
  baseUrl?: string | null;
  timeoutMs?: number;
  /** Local checkouts for providers that read files (bm25); see `parseRepoDirs`. */
  repoDirs?: RepoDirs | null;
  env?: Record<string, string | undefined>;
}

export type ProviderFactory = (name: string, opts: ProviderOptions) => ModelProvider | Promise<ModelProvider>;

const factories = new Map<string, () => Promise<ProviderFactory>>();

/** Registers a provider under `name`; `load` is called only when the provider is first used. */
export function registerProvider(name: string, load: () => Promise<ProviderFactory>): void {
  factories.set(name, load);
}

/** Registered provider names, sorted. */
export function providerNames(): string[] {
  return [...factories.keys()].sort();
}

const openaiCompatible = (service: string) => async (): Promise<ProviderFactory> => {
  const m = await import('./providers/openai.ts');
  return (name, o) => {
    if (!name)
      throw new UsageError(`'${service}' needs a model name`, { hint: `e.g. ${service}:gpt-4o-mini` });
    return m.createOpenAiProvider({
      service,
      model: name,
      baseUrl: o.baseUrl,
      timeoutMs: o.timeoutMs,
      env: o.env,
    });
  };
};

for (const s of [
  'openai',
  'azure',
  'gemini',
  'groq',
  'together',
  'deepseek',
  'openrouter',
  'vllm',
  'ollama',
  'llamacpp',
])
  registerProvider(s, openaiCompatible(s));
/** `openai-compat:<service>/<model>` — any OpenAI-compatible service via `<SERVICE>_BASE_URL` / `<SERVICE>_API_KEY`. */
registerProvider('openai-compat', async () => {
  const m = await import('./providers/openai.ts');
  return (name, o) => {
    const slash = name.indexOf('/');
    if (slash <= 0)
      throw new UsageError(`openai-compat: expected '<service>/<model>', got '${name}'`, {
        hint: 'e.g. openai-compat:mylab/llama-3-70b with MYLAB_BASE_URL set',
      });
    return m.createOpenAiProvider({
      service: name.slice(0, slash),
      model: name.slice(slash + 1),
      baseUrl: o.baseUrl,
      timeoutMs: o.timeoutMs,
      env: o.env,
    });
  };
});
registerProvider('bm25', async () => {
  const m = await import('./providers/bm25.ts');
  return (name, o) => m.createBm25Provider(name, o.repoDirs ? m.checkoutContents(o.repoDirs) : undefined);
});
registerProvider('replay', async () => (await import('./providers/replay.ts')).createReplayProvider);
registerProvider('baseline', async () => (await import('./providers/baseline.ts')).createBaselineProvider);

/** Splits `provider:name` at the first colon (`bm25` alone has an empty name). */
export function parseModelSpec(spec: string): { provider: string; name: string } {
  const i = spec.indexOf(':');
  return i < 0 ? { provider: spec, name: '' } : { provider: spec.slice(0, i), name: spec.slice(i + 1) };
}

/** The offline baselines and the task each one answers. */
export const BASELINES_BY_TASK: Record<TaskName, string[]> = {
  fl: ['bm25', 'bm25:K'],
  qa: ['baseline:title'],
  ce: ['baseline:no-edit'],
};

const BASELINE_TASK: Record<string, { task: TaskName; what: string }> = {
  bm25: { task: 'fl', what: 'a fault-localization (FL) baseline' },
  'baseline:title': { task: 'qa', what: 'a QA baseline' },
  'baseline:no-edit': { task: 'ce', what: 'a code-editing (CE) baseline' },
};

/**
 * Refuses an offline baseline on a task it does not answer (e.g. `bm25` with `--task ce`), before
 * any item runs. Other models fit every task.
 */
export function checkModelForTask(spec: string, task: TaskName): void {
  const { provider, name } = parseModelSpec(spec.trim());
  const key = provider === 'bm25' ? 'bm25' : `${provider}:${name}`;
  const b = BASELINE_TASK[key];
  if (!b || b.task === task) return;
  const perTask = (Object.keys(BASELINES_BY_TASK) as TaskName[])
    .map((t) => `${t}: ${BASELINES_BY_TASK[t].join(', ')}`)
    .join(' · ');
  throw new UsageError(`--model ${spec} is ${b.what}; it does not answer --task ${task}`, {
    hint: `baselines per task — ${perTask}`,
  });
}

/** Creates the provider for a `provider:name` spec. Unknown providers get a "did you mean". */
export async function createProvider(spec: string, opts: ProviderOptions = {}): Promise<ModelProvider> {
  const { provider, name } = parseModelSpec(spec.trim());
  const load = factories.get(provider);
  if (!load)
    throw new UsageError(`unknown model provider '${provider}'.${didYouMean(provider, providerNames())}`, {
      hint: `model is 'provider:name'; providers: ${providerNames().join(', ')}`,
    });
  const factory = await load();
  return factory(name, opts);
}
