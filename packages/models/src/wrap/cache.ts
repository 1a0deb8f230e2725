/**
 * `withCache`: an on-disk cache of model answers. The key covers what changes the answer — provider id
 * (`provider:model`), its scope (base URL), the messages and the generation parameters — and leaves out
 * transport settings (timeout, concurrency, retries). Errors are never cached. Entries older than
 * `ttlMs` (default 14 days) are ignored. Location: `FAUN_CACHE_DIR`, else `~/.cache/faun`; one JSON
 * file per key under `models/<2 hex>/<key>.json`, written atomically.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { sha256 } from '@faun/kit';
import { stableStringify, writeFileAtomic } from '@faun/schema';
import { promptSha256 } from '../prompts/build.ts';
import type { GenerateRequest, GenerateResult, ModelProvider } from '../types.ts';

export const CACHE_VERSION = 1;

/** The cache root: `FAUN_CACHE_DIR` or `~/.cache/faun`. */
export function defaultCacheDir(env: Record<string, string | undefined> = process.env): string {
  return env.FAUN_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'faun');
}

/** The cache key of a request to `provider` (sha256 hex). */
export function cacheKey(provider: Pick<ModelProvider, 'id' | 'cacheScope'>, req: GenerateRequest): string {
  return sha256(
    stableStringify({
      v: CACHE_VERSION,
      provider: provider.id,
      scope: provider.cacheScope ?? null,
      prompt: promptSha256(req.messages),
      params: {
        temperature: req.temperature ?? null,
        max_tokens: req.maxTokens ?? null,
        stop: req.stop ?? null,
        seed: req.seed ?? null,
      },
    }),
  );
}

interface Entry {
  v: number;
  created_at: string;
  result: GenerateResult;
}

export interface CacheOptions {
  dir?: string;
  ttlMs?: number;
  /** Counts hits and misses (for the run summary). */
  stats?: { hits: number; misses: number };
}

export function withCache(inner: ModelProvider, o: CacheOptions = {}): ModelProvider {
  if (inner.cacheScope === null) return inner;
  const root = join(o.dir ?? defaultCacheDir(), 'models');
  const ttl = o.ttlMs ?? 14 * 24 * 3600 * 1000;
  return {
    id: inner.id,
    cacheScope: inner.cacheScope,
    async generate(req, opts) {
      const key = cacheKey(inner, req);
      const path = join(root, key.slice(0, 2), `${key}.json`);
      const file = Bun.file(path);
      if (await file.exists()) {
        try {
          const entry = (await file.json()) as Entry;
          if (entry.v === CACHE_VERSION && Date.now() - Date.parse(entry.created_at) < ttl) {
            if (o.stats) o.stats.hits++;
            return { ...entry.result, cached: true };
          }
        } catch {
          // A torn or foreign file: treat as a miss and overwrite it.
        }
      }
      if (o.stats) o.stats.misses++;
      const result = await inner.generate(req, opts);
      const entry: Entry = {
        v: CACHE_VERSION,
        created_at: new Date().toISOString(),
        result: { ...result, cached: false },
      };
      await writeFileAtomic(path, stableStringify(entry));
      return result;
    },
  };
}
