/**
 * Token estimates. faun uses one tokenizer-free estimate everywhere — ⌈characters / 4⌉, the usual
 * rule of thumb for English text and code with BPE vocabularies — so input lengths (and the RQ3
 * length buckets built from them) are comparable across models. Provider-reported usage is kept
 * separately in Prediction.usage.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Context windows of common models (tokens); anything else gets DEFAULT_CONTEXT_TOKENS. */
const CONTEXT_LIMITS: [RegExp, number][] = [
  [/gemini/i, 1_000_000],
  [/gpt-4\.1/i, 1_000_000],
  [/gpt-4o|gpt-4-turbo|o1|o3|o4|gpt-5/i, 128_000],
  [/claude/i, 200_000],
  [/gpt-3\.5/i, 16_000],
  [/gpt-4/i, 8_192],
  [/qwen|llama-3|deepseek|mistral/i, 32_768],
];

export const DEFAULT_CONTEXT_TOKENS = 32_768;

/** The context window assumed for a `provider:model` id. */
export function contextLimit(modelId: string): number {
  for (const [re, n] of CONTEXT_LIMITS) if (re.test(modelId)) return n;
  return DEFAULT_CONTEXT_TOKENS;
}
