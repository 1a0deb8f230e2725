/**
 * Builds the chat prompt for a dataset item: applies ablations, renders the task's template, and cuts
 * the middle of the largest parts (tree, file, conversation, then descriptions) until the estimated
 * prompt fits `budgetTokens`. Records the version, the estimated input length and whether it was cut.
 */
import { sha256, UsageError } from '@faun/kit';
import { stableStringify, type TaskItem } from '@faun/schema';
import { estimateTokens } from '../tokens.ts';
import type { ChatMessage } from '../types.ts';
import {
  ceTemplate,
  flTemplate,
  PROMPT_VERSIONS,
  qaTemplate,
  type Section,
  type Template,
} from './templates.ts';
import { cutMiddle } from './truncate.ts';

/** Parts of the input an ablation may remove. */
export const ABLATABLE = ['issue_title', 'issue_body', 'pr_title', 'pr_body'] as const;
export type AblatePart = (typeof ABLATABLE)[number];

export function checkAblate(parts: readonly string[]): AblatePart[] {
  for (const p of parts)
    if (!(ABLATABLE as readonly string[]).includes(p))
      throw new UsageError(`--ablate: unknown part '${p}'`, { hint: `allowed: ${ABLATABLE.join(', ')}` });
  return [...new Set(parts)].sort() as AblatePart[];
}

/** A copy of the item with the ablated fields emptied (what every provider then sees). */
export function ablateItem<T extends TaskItem>(item: T, parts: readonly AblatePart[]): T {
  const out = { ...item } as Record<string, unknown>;
  for (const p of parts) if (p in out) out[p] = '';
  return out as T;
}

export interface BuiltPrompt {
  messages: ChatMessage[];
  promptVersion: string;
  inputTokens: number;
  truncated: boolean;
}

function template(item: TaskItem): Template {
  switch (item.task) {
    case 'qa':
      return qaTemplate(item);
    case 'fl':
      return flTemplate(item);
    case 'ce':
      return ceTemplate(item);
  }
}

function render(t: Template, sections: Section[]): ChatMessage[] {
  const parts = sections
    .filter((s) => s.body.trim() !== '')
    .map((s) => (s.heading ? `## ${s.heading}\n${s.body}` : s.body));
  return [
    { role: 'system', content: t.system },
    { role: 'user', content: `${parts.join('\n\n')}\n\n${t.instruction}` },
  ];
}

const size = (messages: ChatMessage[]) => estimateTokens(messages.map((m) => m.content).join('\n'));

/** Builds the prompt of `item` (already ablated) within `budgetTokens` estimated tokens. */
export function buildPrompt(item: TaskItem, budgetTokens: number): BuiltPrompt {
  const t = template(item);
  const sections = t.sections.map((s) => ({ ...s }));
  let messages = render(t, sections);
  let truncated = false;
  const order = sections.filter((s) => s.cutOrder !== undefined).sort((a, b) => a.cutOrder! - b.cutOrder!);
  for (const s of order) {
    const over = size(messages) - budgetTokens;
    if (over <= 0) break;
    const target = Math.max(0, s.body.length - over * 4 - 100);
    const cut = cutMiddle(s.body, target);
    if (cut !== s.body) {
      s.body = cut;
      truncated = true;
      messages = render(t, sections);
    }
  }
  return { messages, promptVersion: PROMPT_VERSIONS[item.task], inputTokens: size(messages), truncated };
}

/** The hash a prediction records of its prompt: sha256 of the messages' stable JSON (the cache's prompt hash). */
export function promptSha256(messages: ChatMessage[]): string {
  return sha256(stableStringify(messages));
}
