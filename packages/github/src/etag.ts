/**
 * Conditional-request cache: the `etag` and body of each GET answer, so a repeated request can send
 * `if-none-match` and turn GitHub's free 304 back into the cached 200 (spec §1.3). Keyed by
 * (identity, URL): GitHub's ETags are specific to the credentials (eclipse-csi/otterdog#201), so an
 * answer cached under one account is never offered for another. {@link MemoryEtagCache} is an LRU for
 * tests and short runs; `@faun/store`'s `EtagStore` keeps a whole crawl's answers in the DuckDB file.
 */

export interface CachedAnswer {
  etag: string;
  data: unknown;
  headers: Record<string, string>;
}

export interface EtagCache {
  get(identity: string, url: string): Promise<CachedAnswer | undefined> | CachedAnswer | undefined;
  set(identity: string, url: string, value: CachedAnswer): Promise<void> | void;
  /** Persists what is pending (if backed by a file). */
  flush(): Promise<void>;
  readonly stats: { hits: number; stores: number };
}

/** In-memory LRU over at most `maxEntries` answers whose JSON is at most `maxBytes` long. */
export class MemoryEtagCache implements EtagCache {
  protected readonly map = new Map<string, CachedAnswer>();
  readonly stats = { hits: 0, stores: 0 };
  constructor(
    private readonly maxEntries = 200_000,
    private readonly maxBytes = 256 * 1024,
  ) {}
  get size(): number {
    return this.map.size;
  }
  get(identity: string, url: string): CachedAnswer | undefined {
    const key = `${identity}\n${url}`;
    const v = this.map.get(key);
    if (v) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(identity: string, url: string, value: CachedAnswer): void {
    if (JSON.stringify(value.data).length > this.maxBytes) return;
    const key = `${identity}\n${url}`;
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
