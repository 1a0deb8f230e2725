/**
 * Resume for `faun validate`: each finished instance's validation is appended to a journal
 * (`<out>.journal.jsonl`, one `{key, validation}` per line) as soon as it is known, so an interrupted or
 * crashed validation continues where it stopped. The key covers everything the verdict depends on — the
 * instance row, its environment spec's content, the rule and the repeat count — so a changed row or spec
 * is validated again. Infrastructure failures are not kept: they are tried again on the next run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { sha256 } from '@faun/kit';
import { appendJsonl, type ExecutionInstance, stableStringify, writeJsonlAtomic } from '@faun/schema';
import type { RuleName } from '../benchmarks/benchmark.ts';
import { type EnvSpec, specId } from '../envs/specs.ts';
import type { Validation } from './validate.ts';

/** What a validation's verdict depends on, as one hash. */
export function validationKey(
  inst: ExecutionInstance,
  spec: EnvSpec | null,
  rule: RuleName,
  repeats: number,
): string {
  return sha256(stableStringify({ instance: inst, spec: spec ? specId(spec) : null, rule, repeats }));
}

/** Results that say nothing about the instance (the machine failed): not kept, tried again. */
export function retryable(v: Validation): boolean {
  return v.reason !== null && /\binfra_error\b|^infrastructure:/.test(v.reason);
}

export interface ValidationJournal {
  get(key: string): Validation | undefined;
  put(key: string, v: Validation): Promise<void>;
}

interface Entry {
  key: string;
  validation: Validation;
}

/**
 * The journal at `path` (missing = empty). A torn last line — the process died while appending — is
 * ignored; any other unreadable line is an error naming it.
 */
export function openJournal(path: string): ValidationJournal & {
  size: number;
  /**
   * Rewrites the journal with only the entries of `keys` — by default the keys this run asked for or
   * put (after a complete run: the instances it was given).
   */
  compact(keys?: Iterable<string>): Promise<void>;
  /** Every kept validation, in the order the journal first recorded its key. */
  validations(): Validation[];
} {
  const entries = new Map<string, Validation>();
  const used = new Set<string>();
  if (existsSync(path)) {
    const lines = readFileSync(path, 'utf8').split('\n');
    for (const [i, line] of lines.entries()) {
      if (!line.trim()) continue;
      let e: Entry;
      try {
        e = JSON.parse(line) as Entry;
      } catch {
        if (i === lines.length - 1) break; // torn final line
        throw new Error(
          `${path}:${i + 1}: not a journal entry (delete the file to validate everything again)`,
        );
      }
      if (typeof e?.key !== 'string' || typeof e.validation?.instance_id !== 'string')
        throw new Error(
          `${path}:${i + 1}: journal entry without key or validation.instance_id (delete the file to validate everything again)`,
        );
      entries.set(e.key, e.validation);
    }
  }
  return {
    get size() {
      return entries.size;
    },
    get(key) {
      used.add(key);
      return entries.get(key);
    },
    async put(key, validation) {
      used.add(key);
      if (retryable(validation)) return;
      entries.set(key, validation);
      await appendJsonl(path, [{ key, validation }]);
    },
    validations() {
      return [...entries.values()];
    },
    async compact(keys = used) {
      const keep = [...new Set(keys)].flatMap((key) => {
        const validation = entries.get(key);
        return validation ? [{ key, validation }] : [];
      });
      await writeJsonlAtomic(path, keep);
    },
  };
}
