/**
 * The prompt as sent, for the sample viewer: rebuilt from the dataset item, the prediction's ablation and
 * its recorded prompt budget with the models package's own builder, and checked against the sha256 the
 * prediction recorded. A prediction without that record (older runs) says so instead of guessing.
 */
import { ablateItem, buildPrompt, promptSha256 } from '@faun/models';
import type { TaskItem } from '@faun/schema';
import { h, type Safe } from './h.ts';
import { textBlock } from './item-parts.ts';

export type PromptCheck =
  | { status: 'verified' | 'changed'; messages: { role: string; content: string }[]; truncated: boolean }
  | { status: 'unrecorded' | 'unavailable' };

/** Rebuilds the prompt of `pred` for `item` and checks it against the recorded hash. */
export function rebuildPrompt(item: TaskItem | undefined, pred: Record<string, unknown> | null): PromptCheck {
  if (!item || !pred) return { status: 'unavailable' };
  const budget = pred.prompt_budget;
  const hash = pred.prompt_sha256;
  if (typeof budget !== 'number' || typeof hash !== 'string') return { status: 'unrecorded' };
  const ablate = (Array.isArray(pred.ablate) ? pred.ablate : []) as Parameters<typeof ablateItem>[1];
  try {
    const built = buildPrompt(ablateItem(item, ablate), budget);
    const same = promptSha256(built.messages) === hash;
    return { status: same ? 'verified' : 'changed', messages: built.messages, truncated: built.truncated };
  } catch {
    return { status: 'changed', messages: [], truncated: false };
  }
}

/** The prompt block of the sample viewer. */
export function promptSection(check: PromptCheck): Safe {
  if (check.status === 'unavailable') return h``;
  if (check.status !== 'verified' && check.status !== 'changed')
    return h`<h3>Prompt as sent</h3><p class="muted" id="prompt">Not recorded: this prediction was made before faun recorded the prompt's hash and budget.</p>`;
  const note =
    check.status === 'verified'
      ? h`<p class="muted" id="prompt-check">Rebuilt from the item; its sha256 matches the one recorded when it was sent${check.truncated ? ' (it was cut to fit the prompt budget)' : ''}.</p>`
      : h`<p class="muted" id="prompt-check"><b>Does not match</b> the recorded sha256: the prompt template changed since this prediction was made. Shown as the current template builds it.</p>`;
  return h`<details id="prompt"><summary>Prompt as sent (${check.messages.length} messages)</summary>${note}${check.messages.map(
    (m, i) => h`<div class="turn"><b>${m.role}</b>${textBlock(m.content, `prompt-${i + 1}`)}</div>`,
  )}</details>`;
}
