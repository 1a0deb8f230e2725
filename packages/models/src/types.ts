/** The provider interface every model backend implements, and the request/result it exchanges. */
import type { TaskItem } from '@faun/schema';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Generation parameters: these change the answer, so they are part of the cache key. */
export interface GenerationParams {
  temperature?: number;
  maxTokens?: number;
  stop?: string[];
  seed?: number;
}

export interface GenerateRequest extends GenerationParams {
  messages: ChatMessage[];
  /**
   * The dataset item the prompt was built from. Local baselines (BM25, replay, title) read it instead
   * of the prompt text; remote providers ignore it.
   */
  item?: TaskItem;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
}

export interface GenerateResult {
  text: string;
  usage: TokenUsage | null;
  /** True when the answer came from the on-disk cache. */
  cached?: boolean;
  finishReason?: string | null;
}

/** One model backend: `generate` answers one request. Retries, caching and limits are wrappers. */
export interface ModelProvider {
  /** `provider:name` as given on the command line, e.g. `openai:gpt-4o`. */
  readonly id: string;
  /**
   * The model name to record in predictions' `model` when it differs from the spec as given (a replay
   * records the replayed model, not the file path). Absent: the spec as given.
   */
  readonly model?: string;
  /**
   * Extra identity for the cache key beyond `id` (the base URL for HTTP providers). `null` marks a
   * local, deterministic provider whose answers are not worth caching.
   */
  readonly cacheScope?: string | null;
  generate(req: GenerateRequest, opts: { signal: AbortSignal }): Promise<GenerateResult>;
}
