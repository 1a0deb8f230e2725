/**
 * Authentication and rate limiting. `Authorization: Bearer faun_<id>_<secret>`; a present but wrong key
 * is always 401; no key is allowed only for reads when `publicReads` is on. Verified keys are cached
 * for `keyCacheMs` so revocation takes effect within that time.
 */
import { eq } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv, KeyRow, Services } from '../context.ts';
import { apiKeys } from '../db/schema.ts';
import { ApiError } from '../errors.ts';
import { parseToken, verifySecret } from './keys.ts';
import { RateLimiter } from './rate.ts';

export type Access = 'key' | 'read';

/** The client's address as the server saw it (`anonymous` when the engine does not say). */
export function clientAddress(c: Context): string {
  const info = (c.env as { server?: { requestIP?: (r: Request) => { address: string } | null } } | undefined)
    ?.server;
  return info?.requestIP?.(c.req.raw)?.address ?? 'anonymous';
}

export function createAuth(s: Services) {
  const cache = new Map<string, { row: KeyRow | null; at: number }>();
  // separate buckets: verified keys, anonymous readers, failed authentications (per client address)
  const keyLimiter = new RateLimiter();
  const anonLimiter = new RateLimiter();
  const failLimiter = new RateLimiter();
  const failRate = s.config.authFailuresPerMin / 60;
  const failBurst = Math.max(1, s.config.authFailuresPerMin);
  const limited = (wait: number, message: string) =>
    new ApiError(
      429,
      'rate_limited',
      message,
      { retry_after_s: wait },
      { 'retry-after': String(Math.ceil(wait)) },
    );
  s.onKeyRevoked = (id) => cache.delete(id);

  async function lookup(id: string): Promise<KeyRow | null> {
    const hit = cache.get(id);
    if (hit && performance.now() - hit.at < s.config.keyCacheMs) return hit.row;
    const [row] = await s.db.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    const value = row ?? null;
    if (cache.size > 10_000) cache.clear();
    cache.set(id, { row: value, at: performance.now() });
    return value;
  }

  const unauthorized = (message: string) =>
    new ApiError(401, 'unauthorized', message, null, { 'www-authenticate': 'Bearer realm="faun"' });

  return (access: Access): MiddlewareHandler<AppEnv> =>
    async (c, next) => {
      const header = c.req.header('authorization');
      let key: KeyRow | null = null;
      if (header !== undefined) {
        // after too many failures from an address, its failures are 429s (a valid key still works:
        // a shared address is not locked out by someone else's guessing)
        // the client address is looked up only when it matters: after a failure
        const fail = (message: string) => {
          const blocked = failLimiter.take(clientAddress(c), failRate, failBurst);
          if (blocked > 0) return limited(blocked, 'too many failed authentications from this address: wait');
          return unauthorized(message);
        };
        const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
        const parsed = m ? parseToken(m[1]!) : null;
        if (!parsed) throw fail('malformed Authorization header: expected "Bearer faun_<id>_<secret>"');
        const row = await lookup(parsed.id);
        if (!row || row.revokedAt || !verifySecret(row.salt, row.hash, parsed.secret))
          throw fail('invalid or revoked API key');
        key = row;
      } else if (access === 'key' || !s.config.publicReads) {
        throw unauthorized('this endpoint needs an API key: send "Authorization: Bearer <key>"');
      }
      const wait = key
        ? keyLimiter.take(key.id, key.ratePerSec, key.burst)
        : anonLimiter.take(clientAddress(c), s.config.anonRatePerSec, s.config.anonRatePerSec * 2);
      if (wait > 0) throw limited(wait, 'too many requests: slow down');
      c.set('key', key);
      await next();
    };
}
