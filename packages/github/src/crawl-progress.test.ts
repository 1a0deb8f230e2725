import { expect, test } from 'bun:test';
import { CrawlTally } from './crawl-progress.ts';

const at = (
  stream: string,
  o: { requests?: number; items?: number; done?: boolean; est?: number; tasks?: number },
) => ({
  repo: 'o/r',
  stream,
  items: o.items ?? 0,
  requests: o.requests ?? 0,
  done: o.done ?? false,
  ...(o.est === undefined ? {} : { estimatedPages: o.est }),
  ...(o.tasks === undefined ? {} : { tasks: o.tasks }),
});

test('the count never passes the total, and a finished crawl ends at exactly 100%', () => {
  const t = new CrawlTally();
  // GitHub's rel="last" said 2 pages; the stream needs 3, then reports done (no new page)
  expect(t.update(at('issues', { requests: 1, est: 2 }))).toBe(1);
  expect([t.value, t.total]).toEqual([1, 2]);
  expect(t.update(at('issues', { requests: 2 }))).toBe(1);
  expect(t.update(at('issues', { requests: 3 }))).toBe(1);
  expect([t.value, t.total]).toEqual([3, 3]);
  expect(t.update(at('issues', { requests: 3, done: true }))).toBe(0);
  // 5 detail calls planned, 4 made: the total settles at 4 when the stream is done
  expect(t.update(at('details', { items: 2, tasks: 5 }))).toBe(2);
  expect([t.value, t.total]).toEqual([5, 8]);
  expect(t.update(at('details', { items: 4, done: true }))).toBe(2);
  expect([t.value, t.total]).toEqual([7, 7]);
  // other streams are not counted
  expect(t.update(at('pulls', { requests: 9, items: 90 }))).toBe(0);
  expect(t.value).toBeLessThanOrEqual(t.total);
});
