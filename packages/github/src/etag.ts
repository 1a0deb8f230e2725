/**
 * Conditional-request cache: the `etag` and body of each GET answer, so a repeated request can send
 * `if-none-match` and turn GitHub's free 304 back into the cached 200 (spec §1.3). Bounded (LRU, small
 * bodies only) and optionally persisted to a JSON file so a resumed or incremental crawl benefits.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '@faun/schema';

export interface CachedAnswer {
  etag: string;
  data: unknown;
  headers: Record<string, string>;
}

export interface EtagCache {
  get(key: string): CachedAnswer | undefined;
  set(key: string, value: CachedAnswer): void;
  /** Persists (if file-backed). */
  flush(): Promise<void>;
  readonly stats: { hits: number; stores: number };
}

/** In-memory LRU over at most `maxEntries` answers whose JSON is at most `maxBytes` long. */
export class MemoryEtagCache implements EtagCache {
  protected readonly map = new Map<string, CachedAnswer>();
  readonly stats = { hits: 0, stores: 0 };
  constructor(
    private readonly maxEntries = 2_000,
    private readonly maxBytes = 64 * 1024,
  ) {}
  get(key: string): CachedAnswer | undefined {
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, value: CachedAnswer): void {
    if (JSON.stringify(value.data).length > this.maxBytes) return;
    this.map.delete(key);
    this.map.set(key, value);
    this.stats.stores++;
    while (this.map.size > this.maxEntries) {
      const first = this.map.keys().next().value;
      if (first === undefined) break;
      this.map.delete(first);
    }
  }
  async flush(): Promise<void> {}
}

/** A {@link MemoryEtagCache} loaded from and saved to `file` (atomically). */
export class FileEtagCache extends MemoryEtagCache {
  private dirty = false;
  constructor(
    private readonly file: string,
    maxEntries?: number,
  ) {
    super(maxEntries);
    if (existsSync(file)) {
      try {
        const rows = JSON.parse(readFileSync(file, 'utf8')) as [string, CachedAnswer][];
        for (const [k, v] of rows) this.map.set(k, v);
      } catch {
        // A damaged cache is only a lost optimisation: start empty.
      }
    }
  }
  override set(key: string, value: CachedAnswer): void {
    super.set(key, value);
    this.dirty = true;
  }
  override async flush(): Promise<void> {
    if (!this.dirty) return;
    this.dirty = false;
    await writeFileAtomic(this.file, JSON.stringify([...this.map.entries()]));
  }
}
