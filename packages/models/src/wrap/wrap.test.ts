import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProviderError } from '../errors.ts';
import type { GenerateRequest, ModelProvider } from '../types.ts';
import { cacheKey, withCache } from './cache.ts';
import { withLimiter } from './limiter.ts';
import { retryDelay, withRetry } from './retry.ts';

const signal = new AbortController().signal;
const req = (content: string, extra: Partial<GenerateRequest> = {}): GenerateRequest => ({
  messages: [{ role: 'user', content }],
  temperature: 0,
  maxTokens: 10,
  ...extra,
});

/** A provider that fails with the given errors first, then answers; counts calls. */
function flaky(errors: unknown[], scope: string | null = 'http://x/v1') {
  const state = { calls: 0 };
  const p: ModelProvider = {
    id: 'test:m',
    cacheScope: scope,
    async generate(r) {
      state.calls++;
      const e = errors.shift();
      if (e) throw e;
      return { text: `answer to ${r.messages[0]!.content}`, usage: null };
    },
  };
  return { p, state };
}

describe('withRetry', () => {
  const fast = { baseDelayMs: 1, sleep: async () => {} };
  test('retries retryable errors up to maxRetries', async () => {
    const { p, state } = flaky([
      new ProviderError('rate', { status: 429, retryable: true }),
      new ProviderError('boom', { status: 503, retryable: true }),
    ]);
    expect((await withRetry(p, { maxRetries: 2, ...fast }).generate(req('q'), { signal })).text).toBe(
      'answer to q',
    );
    expect(state.calls).toBe(3);
  });

  test('maxRetries 0 means one attempt; permanent errors are not retried', async () => {
    const a = flaky([new ProviderError('rate', { status: 429, retryable: true })]);
    await expect(withRetry(a.p, { maxRetries: 0, ...fast }).generate(req('q'), { signal })).rejects.toThrow(
      'rate',
    );
    expect(a.state.calls).toBe(1);
    const b = flaky([new ProviderError('bad key', { status: 401, retryable: false })]);
    await expect(withRetry(b.p, { maxRetries: 5, ...fast }).generate(req('q'), { signal })).rejects.toThrow(
      'bad key',
    );
    expect(b.state.calls).toBe(1);
  });

  test('back-off doubles with jitter and honours retry-after', () => {
    const e = new ProviderError('x', { retryable: true });
    expect(retryDelay(0, e, { baseDelayMs: 1000, random: () => 1 })).toBe(1000);
    expect(retryDelay(3, e, { baseDelayMs: 1000, random: () => 1 })).toBe(8000);
    expect(retryDelay(3, e, { baseDelayMs: 1000, random: () => 0 })).toBe(4000);
    expect(retryDelay(10, e, { baseDelayMs: 1000, maxDelayMs: 5000, random: () => 1 })).toBe(5000);
    const ra = new ProviderError('x', { retryable: true, retryAfterMs: 7000 });
    expect(retryDelay(0, ra, { baseDelayMs: 1000, random: () => 1 })).toBe(7000);
  });
});

describe('withCache', () => {
  test('second identical call is served from disk; errors are not cached', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faun-cache-'));
    try {
      const { p, state } = flaky([new ProviderError('boom', { status: 500, retryable: true })]);
      const stats = { hits: 0, misses: 0 };
      const c = withCache(p, { dir, stats });
      await expect(c.generate(req('q'), { signal })).rejects.toThrow('boom');
      const first = await c.generate(req('q'), { signal });
      const second = await c.generate(req('q'), { signal });
      expect(first.cached).toBeUndefined();
      expect(second).toEqual({ text: 'answer to q', usage: null, cached: true });
      expect(state.calls).toBe(2);
      expect(stats).toEqual({ hits: 1, misses: 2 });
      // A fresh wrapper over the same dir still hits.
      await withCache(p, { dir }).generate(req('q'), { signal });
      expect(state.calls).toBe(2);
      // Expired entries are ignored.
      await withCache(p, { dir, ttlMs: -1 }).generate(req('q'), { signal });
      expect(state.calls).toBe(3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the key covers model, base URL, prompt and generation parameters only', () => {
    const p = { id: 'openai:m', cacheScope: 'http://a/v1' };
    const k = cacheKey(p, req('q'));
    expect(cacheKey(p, req('q'))).toBe(k);
    expect(cacheKey({ ...p, id: 'openai:n' }, req('q'))).not.toBe(k);
    expect(cacheKey({ ...p, cacheScope: 'http://b/v1' }, req('q'))).not.toBe(k);
    expect(cacheKey(p, req('r'))).not.toBe(k);
    expect(cacheKey(p, req('q', { temperature: 0.2 }))).not.toBe(k);
    expect(cacheKey(p, req('q', { maxTokens: 11 }))).not.toBe(k);
    // The dataset item travels with the request but is not part of the key.
    expect(cacheKey(p, { ...req('q'), item: { id: 'x' } as never })).toBe(k);
  });

  test('local providers (cacheScope null) are not cached', () => {
    const { p } = flaky([], null);
    expect(withCache(p, { dir: '/nonexistent' })).toBe(p);
  });
});

describe('withLimiter', () => {
  test('never more than N calls in flight', async () => {
    let active = 0;
    let peak = 0;
    const p: ModelProvider = {
      id: 't',
      async generate() {
        active++;
        peak = Math.max(peak, active);
        await Bun.sleep(5);
        active--;
        return { text: '', usage: null };
      },
    };
    const l = withLimiter(p, 3);
    await Promise.all(Array.from({ length: 12 }, () => l.generate(req('q'), { signal })));
    expect(peak).toBe(3);
  });
});
