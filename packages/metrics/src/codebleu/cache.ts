/**
 * A content-keyed, memory-bounded cache of what CodeBLEU derives from one text (its comment-stripped form,
 * the syntax subtrees and the normalised dataflow), shared by every pair a process scores: a reference met
 * again with another hypothesis (several models against one dataset, the API's scoring jobs) is parsed once.
 * Least recently used entries go first once the estimated size passes the budget. The values are pure
 * functions of the key, so a hit gives exactly what a fresh computation would.
 */
import type { Subtrees } from './subtrees.ts';

/** What the syntax and dataflow components need from one comment-stripped string. */
export interface Analysis {
  subtrees: Subtrees;
  dataflow: string[];
}

/**
 * Default budget: FAUN_CODEBLEU_CACHE_MB (megabytes) or 16 MB. A larger cache holds more but slows every
 * pair down when texts do not repeat: its entries keep whole trees' strings alive, and the collector walks
 * them (128 MB made 20,000 distinct real-code pairs 30% slower and four times the memory).
 */
function defaultBudget(): number {
  const env = typeof process !== 'undefined' ? process.env?.FAUN_CODEBLEU_CACHE_MB : undefined;
  const mb = env === undefined ? Number.NaN : Number(env);
  return (Number.isFinite(mb) && mb >= 0 ? mb : 16) * 1024 * 1024;
}

/** Hashes of texts seen once are forgotten past this many (then the next ones start afresh). */
const SEEN_LIMIT = 1 << 16;

/** Fixed per-entry overhead in the estimate (map slot, object, array headers). */
const ENTRY_BYTES = 160;

function sizeOfStrings(list: readonly string[]): number {
  let n = 0;
  for (const s of list) n += 2 * s.length + 16;
  return n;
}

/** A 32-bit hash of a key (a collision only keeps a text one sight early). */
function keyHash(s: string): number {
  if (typeof Bun !== 'undefined') return Bun.hash.crc32(s);
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

interface Entry<V> {
  value: V;
  bytes: number;
}

/**
 * An LRU map bounded by an estimate of the bytes its keys and values hold. Keys are texts within a scope
 * (the language and options a value was derived under): one map per scope, so a lookup hashes the text as
 * it is instead of a new scope-prefixed string. Recency is kept per scope; past the budget the oldest
 * entries of the scopes go in the order the scopes were first used (a run normally has one).
 */
export class BoundedCache<V> {
  private readonly scopes = new Map<string, Map<string, Entry<V>>>();
  private used = 0;
  private count = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly sizeOf: (value: V) => number,
    public budget = defaultBudget(),
  ) {}

  /** Hashes of the keys offered once under {@link setIfSeen} and not kept yet, per scope. */
  private readonly seen = new Map<string, Set<number>>();
  private seenCount = 0;

  /**
   * Keeps `value` only when `key` was offered before (its second sight): texts met once, the hypotheses of
   * distinct pairs, never fill the cache, while a text that repeats is kept from its second use on.
   */
  setIfSeen(key: string, value: V, scope = ''): void {
    const k = keyHash(key);
    let seen = this.seen.get(scope);
    if (seen === undefined) {
      seen = new Set();
      this.seen.set(scope, seen);
    }
    if (seen.delete(k)) {
      this.seenCount--;
      this.set(key, value, scope);
      return;
    }
    if (this.seenCount >= SEEN_LIMIT) {
      for (const s of this.seen.values()) s.clear();
      this.seenCount = 0;
    }
    seen.add(k);
    this.seenCount++;
  }

  get(key: string, scope = ''): V | undefined {
    const map = this.scopes.get(scope);
    const e = map?.get(key);
    if (map === undefined || e === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // move to the most recently used end
    map.delete(key);
    map.set(key, e);
    return e.value;
  }

  set(key: string, value: V, scope = ''): void {
    const bytes = ENTRY_BYTES + 2 * key.length + this.sizeOf(value);
    let map = this.scopes.get(scope);
    if (map === undefined) {
      map = new Map();
      this.scopes.set(scope, map);
    }
    const old = map.get(key);
    if (old) {
      this.used -= old.bytes;
      this.count--;
      map.delete(key);
    }
    if (bytes > this.budget) return;
    map.set(key, { value, bytes });
    this.used += bytes;
    this.count++;
    if (this.used > this.budget) this.evict();
  }

  private evict(): void {
    for (const map of this.scopes.values()) {
      for (const [k, e] of map) {
        if (this.used <= this.budget) return;
        map.delete(k);
        this.used -= e.bytes;
        this.count--;
      }
    }
  }

  /** Estimated bytes held. */
  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.count;
  }

  /** Drops every entry and resets the hit and miss counts. */
  clear(): void {
    this.scopes.clear();
    this.seen.clear();
    this.seenCount = 0;
    this.used = 0;
    this.count = 0;
    this.hits = 0;
    this.misses = 0;
  }
}

/** Analyses keyed by grammar, options and text. */
export const analysisCache = new BoundedCache<Analysis>((a) => a.subtrees.bytes + sizeOfStrings(a.dataflow));

/** Comment-stripped texts keyed by language, options and text. */
export const strippedCache = new BoundedCache<string>((s) => 2 * s.length, defaultBudget() / 4);

/** Empties both caches (tests, or to give memory back). */
export function clearCodeBleuCache(): void {
  analysisCache.clear();
  strippedCache.clear();
}
