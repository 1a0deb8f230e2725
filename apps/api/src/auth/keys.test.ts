import { expect, test } from 'bun:test';
import { hashSecret, newKey, parseToken, verifySecret } from './keys.ts';
import { RateLimiter } from './rate.ts';

test('a new key verifies with its own secret only', () => {
  const k = newKey();
  const parsed = parseToken(k.token);
  expect(parsed?.id).toBe(k.id);
  expect(verifySecret(k.salt, k.hash, parsed!.secret)).toBe(true);
  expect(verifySecret(k.salt, k.hash, `${parsed!.secret}x`)).toBe(false);
  expect(k.hash).toBe(hashSecret(k.salt, parsed!.secret));
  expect(k.hash).not.toContain(parsed!.secret);
  expect(parseToken('Bearer nope')).toBeNull();
  expect(parseToken('faun_zz_short')).toBeNull();
});

test('token bucket allows a burst then the refill rate', () => {
  let t = 0;
  const r = new RateLimiter(() => t);
  const allowed = Array.from({ length: 5 }, () => r.take('k', 2, 3) === 0);
  expect(allowed).toEqual([true, true, true, false, false]);
  t += 500; // one token at 2/s
  expect(r.take('k', 2, 3)).toBe(0);
  expect(r.take('k', 2, 3)).toBeCloseTo(0.5, 5);
  expect(r.take('other', 2, 3)).toBe(0);
});

test('the bucket map is bounded: the least recently used bucket goes first', () => {
  const r = new RateLimiter(() => 0, 3);
  for (const k of ['a', 'b', 'c']) r.take(k, 1, 1);
  expect(r.take('a', 1, 1)).toBeGreaterThan(0); // 'a' is empty and now the most recently used
  r.take('d', 1, 1); // evicts 'b', the least recently used
  expect(r.size).toBe(3);
  expect(r.take('b', 1, 1)).toBe(0); // a fresh bucket
  expect(r.take('a', 1, 1)).toBeGreaterThan(0); // still the same (empty) bucket
});
