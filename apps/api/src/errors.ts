/**
 * The API's one error type and envelope: every failure leaves the server as
 * `{ error: { code, message, details } }` with a fitting status, through `app.onError`.
 */
import type { z } from 'zod';

export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 503,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ErrorEnvelope {
  error: { code: string; message: string; details: unknown };
}

export function envelope(code: string, message: string, details: unknown = null): ErrorEnvelope {
  return { error: { code, message, details } };
}

/** Zod issues as `{ path: 'body.items.0.id', message }`, the paths a client can act on. */
export function issuesOf(error: z.ZodError, prefix: string): { path: string; message: string }[] {
  return error.issues.slice(0, 50).map((i) => ({
    path: [prefix, ...i.path.map(String)].filter(Boolean).join('.'),
    message: i.message,
  }));
}

/** A 400 for a body that failed validation. */
export function invalid(error: z.ZodError, prefix = 'body'): ApiError {
  const details = issuesOf(error, prefix);
  const first = details[0];
  return new ApiError(
    400,
    'invalid_request',
    first ? `${first.path}: ${first.message}` : 'the request is not valid',
    details,
  );
}
