/**
 * Bounded JSON bodies. The body is read up to `maxBytes` (the declared length is checked first, a chunked
 * body is cut off as soon as it passes the limit), then scanned once for its shape — how many values,
 * objects and arrays it holds and how deep it nests — before `JSON.parse` builds anything. So a body of
 * ten million `{}` costs its bytes, never millions of objects: memory stays proportional to the limit.
 * Every failure is the JSON envelope: 413 for sizes, 400 for syntax.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../context.ts';
import { ApiError } from '../errors.ts';

export interface BodyBounds {
  maxBytes: number;
  /** Objects and arrays in the whole body. */
  maxContainers: number;
  /** Values of any kind (objects, arrays, strings, numbers, literals). */
  maxValues: number;
  /** Nesting depth. */
  maxDepth?: number;
  /** What the limits mean for this endpoint, appended to the 413 message. */
  hint?: string;
}

export interface Shape {
  containers: number;
  values: number;
  depth: number;
}

const tooLarge = (message: string, details: unknown) =>
  new ApiError(413, 'payload_too_large', message, details);

/**
 * Counts the values of a JSON text without building them; stops as soon as a bound is passed (returns the
 * counts so far and the bound that failed). Syntax is left to `JSON.parse`.
 */
export function scanJson(text: string, b: Omit<BodyBounds, 'maxBytes'>): Shape & { over: string | null } {
  const maxDepth = b.maxDepth ?? 64;
  let containers = 0;
  let values = 0;
  let depth = 0;
  let maxSeen = 0;
  let inString = false;
  let inAtom = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) {
      inString = true;
      inAtom = false;
      values++;
    } else if (c === 123 || c === 91) {
      inAtom = false;
      containers++;
      values++;
      depth++;
      if (depth > maxSeen) maxSeen = depth;
      if (containers > b.maxContainers) return { containers, values, depth: maxSeen, over: 'containers' };
      if (depth > maxDepth) return { containers, values, depth: maxSeen, over: 'depth' };
    } else if (c === 125 || c === 93) {
      inAtom = false;
      depth--;
    } else if (c === 44 || c === 58 || c === 32 || c === 10 || c === 13 || c === 9) {
      inAtom = false;
    } else if (!inAtom) {
      inAtom = true; // a number or literal starts
      values++;
    }
    if (values > b.maxValues) return { containers, values, depth: maxSeen, over: 'values' };
  }
  return { containers, values, depth: maxSeen, over: null };
}

/** Reads at most `max` bytes of a request body; null when it is longer. */
async function readBounded(req: Request, max: number): Promise<Uint8Array | null> {
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const ch of chunks) {
    out.set(ch, at);
    at += ch.byteLength;
  }
  return out;
}

/**
 * Middleware: reads, bounds and parses a JSON body, and hands the parsed value to the route's validator.
 * Bodies that are not declared as JSON are left to the validator (415).
 */
export function boundedJson(b: BodyBounds): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const declared = c.req.header('content-length');
    if (declared !== undefined && Number(declared) > b.maxBytes)
      throw tooLarge(`the body exceeds ${b.maxBytes} bytes${b.hint ? ` (${b.hint})` : ''}`, {
        limit: b.maxBytes,
      });
    const media = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
    if (!/^application\/([\w.-]+\+)?json$/i.test(media)) return next();
    // a declared length (within the limit) is enforced by the engine: read it in one go
    const bytes =
      declared !== undefined
        ? new Uint8Array(await c.req.raw.arrayBuffer())
        : await readBounded(c.req.raw, b.maxBytes);
    if (!bytes)
      throw tooLarge(`the body exceeds ${b.maxBytes} bytes${b.hint ? ` (${b.hint})` : ''}`, {
        limit: b.maxBytes,
      });
    const text = new TextDecoder().decode(bytes);
    const shape = scanJson(text, b);
    if (shape.over === 'depth')
      throw new ApiError(400, 'invalid_request', `the body nests deeper than ${b.maxDepth ?? 64} levels`);
    if (shape.over)
      throw tooLarge(
        `the body holds more than ${shape.over === 'values' ? `${b.maxValues} values` : `${b.maxContainers} objects and arrays`}${b.hint ? ` (${b.hint})` : ''}`,
        { limit: shape.over === 'values' ? b.maxValues : b.maxContainers, counted: shape.over },
      );
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new ApiError(400, 'invalid_request', `the body is not valid JSON: ${(e as Error).message}`);
    }
    // the route's validator reads the body through this cache instead of the (consumed) stream
    (c.req as unknown as { bodyCache: Record<string, unknown> }).bodyCache.json = Promise.resolve(value);
    await next();
  };
}
