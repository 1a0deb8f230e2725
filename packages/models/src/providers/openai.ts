/**
 * OpenAI-compatible chat completions over plain `fetch`. Covers OpenAI, Azure OpenAI (v1 endpoint),
 * Gemini's OpenAI-compatible endpoint, vLLM, Ollama, llama.cpp server and any other server that speaks
 * `POST {base}/chat/completions`.
 *
 * Base URL precedence: explicit option (`--base-url`) > `<SERVICE>_BASE_URL` > the service's known
 * default > `OPENAI_BASE_URL` > https://api.openai.com/v1. A bare host (`http://host:8000`) gets `/v1`
 * appended. The key comes from `<SERVICE>_API_KEY` (`OPENAI_API_KEY` for `openai`); it is sent in
 * the Authorization header only and never logged.
 */
import { isFatalStatus, isRetryableStatus, ProviderError, parseRetryAfter } from '../errors.ts';
import type { GenerateRequest, GenerateResult, ModelProvider } from '../types.ts';

/** Known OpenAI-compatible services: default base URL and whether a key is required. */
export const COMPATIBLE_SERVICES: Record<string, { baseUrl: string | null; keyRequired: boolean }> = {
  openai: { baseUrl: 'https://api.openai.com/v1', keyRequired: true },
  azure: { baseUrl: null, keyRequired: true },
  gemini: { baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai', keyRequired: true },
  groq: { baseUrl: 'https://api.groq.com/openai/v1', keyRequired: true },
  together: { baseUrl: 'https://api.together.xyz/v1', keyRequired: true },
  deepseek: { baseUrl: 'https://api.deepseek.com/v1', keyRequired: true },
  openrouter: { baseUrl: 'https://openrouter.ai/api/v1', keyRequired: true },
  vllm: { baseUrl: 'http://127.0.0.1:8000/v1', keyRequired: false },
  ollama: { baseUrl: 'http://127.0.0.1:11434/v1', keyRequired: false },
  llamacpp: { baseUrl: 'http://127.0.0.1:8080/v1', keyRequired: false },
};

const REASONING_MODEL = /^(o\d|gpt-5)/;

/** Appends `/v1` to a bare host (no path), like promptfoo; strips trailing slashes otherwise. */
export function normalizeBaseUrl(raw: string): string {
  const trimmed = raw.trim().replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new ProviderError(`invalid base URL '${raw}'`, { hint: 'expected e.g. http://127.0.0.1:8000/v1' });
  }
  if (url.pathname === '' || url.pathname === '/') return `${trimmed}/v1`;
  return trimmed;
}

const envKey = (service: string, what: 'API_KEY' | 'BASE_URL') =>
  `${service.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_${what}`;

export interface OpenAiOptions {
  /** Service name: `openai`, `gemini`, `vllm`, … or any name whose `<NAME>_BASE_URL` is set. */
  service: string;
  model: string;
  baseUrl?: string | null;
  apiKey?: string | null;
  /** Per-request timeout in ms (transport setting: not part of the cache key). */
  timeoutMs?: number;
  env?: Record<string, string | undefined>;
  fetch?: typeof fetch;
}

/** Resolves base URL and key for a service from options and env (see module docs). */
export function resolveEndpoint(o: OpenAiOptions): { baseUrl: string; apiKey: string | null } {
  const env = o.env ?? process.env;
  const known = COMPATIBLE_SERVICES[o.service];
  const base =
    o.baseUrl ||
    env[envKey(o.service, 'BASE_URL')] ||
    known?.baseUrl ||
    (o.service === 'openai' || !known ? env.OPENAI_BASE_URL : undefined) ||
    (o.service === 'openai' ? 'https://api.openai.com/v1' : undefined);
  if (!base)
    throw new ProviderError(`no base URL for '${o.service}'`, {
      hint: `pass --base-url or set ${envKey(o.service, 'BASE_URL')}`,
    });
  // No fallback to OPENAI_API_KEY for named services: a key is never sent to a host it was not meant for.
  const apiKey = o.apiKey ?? env[envKey(o.service, 'API_KEY')] ?? null;
  return { baseUrl: normalizeBaseUrl(base), apiKey: apiKey || null };
}

interface ChatResponse {
  choices?: { message?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number } | null;
  };
  error?: { message?: string };
}

/** Creates an OpenAI-compatible provider. */
export function createOpenAiProvider(o: OpenAiOptions): ModelProvider {
  const { baseUrl, apiKey } = resolveEndpoint(o);
  const known = COMPATIBLE_SERVICES[o.service];
  const isLocal = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])/.test(baseUrl);
  if (!apiKey && known?.keyRequired && !isLocal)
    throw new ProviderError(`no API key for '${o.service}': ${envKey(o.service, 'API_KEY')} is not set`, {
      hint: `export ${envKey(o.service, 'API_KEY')}=…, or pass --base-url for a local server`,
    });
  const doFetch = o.fetch ?? fetch;
  const url = `${baseUrl}/chat/completions`;
  const id = `${o.service}:${o.model}`;

  async function generate(
    req: GenerateRequest,
    { signal }: { signal: AbortSignal },
  ): Promise<GenerateResult> {
    const body: Record<string, unknown> = { model: o.model, messages: req.messages };
    // OpenAI's reasoning models take `max_completion_tokens` and only the default temperature.
    const reasoning = (o.service === 'openai' || o.service === 'azure') && REASONING_MODEL.test(o.model);
    if (req.temperature !== undefined && !reasoning) body.temperature = req.temperature;
    if (req.maxTokens !== undefined) body[reasoning ? 'max_completion_tokens' : 'max_tokens'] = req.maxTokens;
    if (req.stop?.length) body.stop = req.stop;
    if (req.seed !== undefined) body.seed = req.seed;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (apiKey) {
      headers.authorization = `Bearer ${apiKey}`;
      if (o.service === 'azure') headers['api-key'] = apiKey;
    }
    const timeout = o.timeoutMs ? AbortSignal.timeout(o.timeoutMs) : null;
    const combined = timeout ? AbortSignal.any([signal, timeout]) : signal;
    let res: Response;
    let text: string;
    try {
      res = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: combined });
      text = await res.text();
    } catch (e) {
      if (timeout?.aborted && !signal.aborted)
        throw new ProviderError(`request timed out after ${o.timeoutMs} ms (${url})`, {
          retryable: true,
          hint: 'raise --timeout',
        });
      if (signal.aborted) throw e;
      throw new ProviderError(`request to ${url} failed: ${(e as Error).message}`, {
        retryable: true,
        cause: e,
        hint: 'check --base-url and that the server is running',
      });
    }
    let json: ChatResponse | null = null;
    try {
      json = JSON.parse(text) as ChatResponse;
    } catch {
      json = null;
    }
    if (!res.ok) {
      const msg = json?.error?.message ?? text.slice(0, 300);
      const fatal = isFatalStatus(res.status);
      throw new ProviderError(`${url}: ${msg}`, {
        status: res.status,
        retryable: isRetryableStatus(res.status),
        fatal,
        retryAfterMs: parseRetryAfter(res.headers),
        hint: fatal
          ? `check ${envKey(o.service, 'API_KEY')} (the key), --base-url (now ${baseUrl}) ` +
            `and the model name '${o.model}'`
          : undefined,
      });
    }
    const choice = json?.choices?.[0];
    if (!json || !choice)
      throw new ProviderError(`${url}: response has no choices: ${text.slice(0, 200)}`, { retryable: true });
    const u = json.usage;
    return {
      text: choice.message?.content ?? '',
      finishReason: choice.finish_reason ?? null,
      usage: u
        ? {
            promptTokens: u.prompt_tokens ?? 0,
            completionTokens: u.completion_tokens ?? 0,
            cachedTokens: u.prompt_tokens_details?.cached_tokens ?? 0,
          }
        : null,
    };
  }
  return { id, cacheScope: baseUrl, generate };
}
