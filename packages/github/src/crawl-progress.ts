/**
 * The crawl's progress count: issue pages and per-entity detail calls of every (repository, stream),
 * against estimates that are only estimates (GitHub's rel="last" page, the planned detail calls). The
 * total is never below the count — a stream that needs more than estimated raises it, a finished stream
 * settles it at what it did — so the display never reads "93/91 (102.2%)", and ends at 100%.
 */
import type { StreamProgress } from './crawler.ts';

interface Part {
  done: number;
  estimate: number;
}

export class CrawlTally {
  private readonly parts = new Map<string, Part>();

  /** Takes one progress report; returns the units it finished (0 for streams that are not counted). */
  update(p: StreamProgress): number {
    const kind = p.stream.startsWith('issues') ? 'issues' : p.stream.startsWith('details') ? 'details' : null;
    if (!kind) return 0;
    const key = `${p.repo}\u0000${p.stream}`;
    const part = this.parts.get(key) ?? { done: 0, estimate: 0 };
    const count = kind === 'issues' ? p.requests : p.items;
    const estimate = kind === 'issues' ? p.estimatedPages : p.tasks;
    if (estimate !== undefined && part.estimate === 0) part.estimate = estimate;
    const added = Math.max(0, count - part.done);
    part.done += added;
    if (p.done) part.estimate = part.done;
    this.parts.set(key, part);
    return added;
  }

  /** Units finished. */
  get value(): number {
    let n = 0;
    for (const p of this.parts.values()) n += p.done;
    return n;
  }

  /** Units expected: each stream's estimate, or what it did when that is more (or when it finished). */
  get total(): number {
    let n = 0;
    for (const p of this.parts.values()) n += Math.max(p.estimate, p.done);
    return n;
  }
}
