/**
 * Cost accounting from an optional price table (JSON): `{ "<provider:model or model>": { "input": USD
 * per million prompt tokens, "output": USD per million completion tokens, "cached_input"?: … } }`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { UsageError } from '@faun/kit';
import { z } from 'zod';
import type { TokenUsage } from './types.ts';

export const Price = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cached_input: z.number().nonnegative().optional(),
});
export type Price = z.infer<typeof Price>;
export const PriceTable = z.record(z.string(), Price);
export type PriceTable = z.infer<typeof PriceTable>;

export function loadPriceTable(path: string): PriceTable {
  if (!existsSync(path)) throw new UsageError(`price table not found: ${path}`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(`price table ${path}: not valid JSON (${(e as Error).message})`);
  }
  const parsed = PriceTable.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new UsageError(`price table ${path}: ${i?.path.join('.')}: ${i?.message}`, {
      hint: 'expected {"openai:gpt-4o": {"input": 2.5, "output": 10}}',
    });
  }
  return parsed.data;
}

/** Cost in USD of one call, or null when the model has no price or there is no usage. */
export function costOf(table: PriceTable | null, modelId: string, usage: TokenUsage | null): number | null {
  if (!table || !usage) return null;
  const name = modelId.includes(':') ? modelId.slice(modelId.indexOf(':') + 1) : modelId;
  const p = table[modelId] ?? table[name];
  if (!p) return null;
  const cached = Math.min(usage.cachedTokens, usage.promptTokens);
  const usd =
    ((usage.promptTokens - cached) * p.input +
      cached * (p.cached_input ?? p.input) +
      usage.completionTokens * p.output) /
    1e6;
  return Math.round(usd * 1e8) / 1e8;
}
