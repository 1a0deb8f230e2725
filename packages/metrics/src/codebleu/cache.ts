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

/** An LRU map bounded by an estimate of the bytes its keys and values hold. */
export class BoundedCache<V> {
  private readonly map = new Map<string, { value: V; bytes: number }>();
  private used = 0;
  hits = 0;
  misses = 0;

  constructor(
    private readonly sizeOf: (value: V) => number,
    public budget = defaultBudget(),
  ) {}

  /** Hashes of the keys offered once under {@link setIfSeen} and not kept yet. */
  private readonly seen = new Set<number>();

  /**
   * Keeps `value` only when `key` was offered before (its second sight): texts met once, the hypotheses of
   * distinct pairs, never fill the cache, while a text that repeats is kept from its second use on.
   */
  setIfSeen(key: string, value: V): void {
    const k = keyHash(key);
    if (this.seen.delete(k)) {
      this.set(key, value);
      return;
    }
    if (this.seen.size >= SEEN_LIMIT) this.seen.clear();
    this.seen.add(k);
  }

  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (!e) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // move to the most recently used end
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  set(key: string, value: V): void {
    const bytes = ENTRY_BYTES + 2 * key.length + this.sizeOf(value);
    const old = this.map.get(key);
    if (old) {
      this.used -= old.bytes;
      this.map.delete(key);
    }
    if (bytes > this.budget) return;
    this.map.set(key, { value, bytes });
    this.used += bytes;
    if (this.used > this.budget) {
      for (const [k, e] of this.map) {
        if (this.used <= this.budget) break;
        this.map.delete(k);
        this.used -= e.bytes;
      }
    }
  }

  /** Estimated bytes held. */
  get bytes(): number {
    return this.used;
  }

  get size(): number {
    return this.map.size;
  }

  /** Drops every entry and resets the hit and miss counts. */
  clear(): void {
    this.map.clear();
    this.seen.clear();
    this.used = 0;
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
