/**
 * API key tokens: `faun_<id>_<secret>`. The id is public (it names the key in lists and logs); only
 * sha256(salt ‖ secret) is stored, and verification compares in constant time.
 */
import { hash as digest, randomBytes, timingSafeEqual } from 'node:crypto';

export interface NewKey {
  id: string;
  token: string;
  salt: string;
  hash: string;
}

export function hashSecret(salt: string, secret: string): string {
  return digest('sha256', salt + secret, 'hex');
}

/** A fresh key: the token is shown once; store only id, salt and hash. */
export function newKey(): NewKey {
  const id = randomBytes(6).toString('hex');
  const secret = randomBytes(24).toString('base64url');
  const salt = randomBytes(16).toString('hex');
  return { id, token: `faun_${id}_${secret}`, salt, hash: hashSecret(salt, secret) };
}

/** Splits a token into id and secret; null when it is not shaped like one. */
export function parseToken(token: string): { id: string; secret: string } | null {
  const m = /^faun_([0-9a-f]{12})_([A-Za-z0-9_-]{16,128})$/.exec(token);
  return m ? { id: m[1]!, secret: m[2]! } : null;
}

export function verifySecret(salt: string, hash: string, secret: string): boolean {
  const a = digest('sha256', salt + secret, 'buffer');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
