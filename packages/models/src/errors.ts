/** Provider failures as typed errors, so the retry wrapper can tell transient from permanent ones. */
import { FaunError, PrerequisiteError, UsageError } from '@faun/kit';

/**
 * A provider call failed. `retryable` marks 429/5xx/timeouts/network errors; `fatal` marks answers no
 * other item can get past either (bad key, forbidden, unknown model or endpoint): the run stops.
 */
export class ProviderError extends FaunError {
  readonly status: number | null;
  readonly retryable: boolean;
  readonly fatal: boolean;
  /** Server-requested wait (from `retry-after-ms` / `retry-after`), when given. */
  readonly retryAfterMs: number | null;
  constructor(
    message: string,
    opts: {
      status?: number | null;
      retryable?: boolean;
      fatal?: boolean;
      retryAfterMs?: number | null;
      hint?: string;
      cause?: unknown;
    } = {},
  ) {
    super(message, { hint: opts.hint, cause: opts.cause });
    this.status = opts.status ?? null;
    this.retryable = opts.retryable ?? false;
    this.fatal = opts.fatal ?? false;
    this.retryAfterMs = opts.retryAfterMs ?? null;
  }
}

/** HTTP statuses worth retrying: request timeout, conflict, rate limit, and server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** HTTP statuses that no retry or re-run fixes and that every other item would get too. */
export function isFatalStatus(status: number): boolean {
  return status === 401 || status === 403 || status === 404;
}

/**
 * True for failures that stop the whole run: a fatal provider answer, or a usage/prerequisite error
 * raised while answering an item (a model that does not fit the task, a missing service).
 */
export function isFatalError(e: unknown): e is FaunError {
  if (e instanceof ProviderError) return e.fatal;
  return e instanceof UsageError || e instanceof PrerequisiteError;
}

/** True for failures worth a re-run: retryable provider errors (429/5xx/timeouts/network). */
export function isTransientError(e: unknown): boolean {
  return e instanceof ProviderError && e.retryable;
}

/**
 * Parses `retry-after-ms` (milliseconds) or `retry-after` (seconds or an HTTP date) into milliseconds.
 * Returns null when absent or unparsable.
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | null {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers.get('retry-after');
  if (ra === null || ra.trim() === '') return null;
  if (Number.isFinite(Number(ra))) return Math.max(0, Number(ra) * 1000);
  const date = Date.parse(ra);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Short one-line description of any thrown value, for Prediction.error. */
export function describeError(e: unknown): string {
  if (e instanceof ProviderError) return `${e.status !== null ? `HTTP ${e.status}: ` : ''}${e.message}`;
  if (e instanceof Error) return e.message;
  return String(e);
}
