/**
 * Distinct identities crawl in parallel: on a virtual clock with the fake's load model, 4 users finish
 * in well under half the time their requests keep GitHub busy (the default concurrency is one
 * repository per identity), while one repository at a time takes all of it.
 */
import { afterEach, expect, test } from 'bun:test';
import { FakeGitHub } from '../testing/index.ts';
import { createClient } from './client.ts';
import { VirtualClock } from './clock.ts';
import { crawl } from './crawler.ts';
import type { EtagCache } from './etag.ts';
import { type RealTimers, trackRealTimers } from './real-timers.ts';
import { resolveRepos } from './repos.ts';
import { MemorySink } from './sink.ts';

let timers: RealTimers | null = null;
afterEach(() => {
  timers?.restore();
  timers = null;
});

const noEtags: EtagCache = {
  get: () => undefined,
  set: () => {},
  flush: async () => {},
  stats: { hits: 0, stores: 0 },
};

async function elapsedOverBusy(concurrency?: number): Promise<{ ratio: number; peak: number }> {
  timers = trackRealTimers();
  const t = timers;
  const clock = new VirtualClock(Date.parse('2026-01-01T00:00:00Z'), () => t.pending() > 0);
  const tokens = ['t-alice', 't-bob', 't-carol', 't-dave'];
  const fake = FakeGitHub.start({
    corpus: { seed: 'parallel-test', repos: 8, entries: 800 },
    clock,
    faults: { load: true },
    tokens,
    owners: Object.fromEntries(tokens.map((x) => [x, x.slice(2)])),
  });
  try {
    const client = createClient({ baseUrl: fake.url, tokens, clock, fetch: fake.fetch, etags: noEtags });
    await client.identify();
    const metas = await resolveRepos(
      client,
      fake.corpus.repos().map((r) => r.full),
    );
    const t0 = clock.now();
    await crawl({ repos: metas, client, sink: new MemorySink(), concurrency });
    const usage = fake.usage().filter((u) => u.identity !== 'anonymous');
    const busy = usage.reduce((s, u) => s + u.busyMs + u.penaltyMs, 0);
    return { ratio: (clock.now() - t0) / busy, peak: Math.max(...usage.map((u) => u.peakInflight)) };
  } finally {
    await fake.stop();
  }
}

test('4 users, default concurrency: elapsed < 50% of the summed busy time, each identity serial', async () => {
  const r = await elapsedOverBusy();
  expect(r.peak).toBe(1);
  expect(r.ratio).toBeLessThan(0.5);
}, 60_000);

test('one repository at a time: elapsed is most of the summed busy time', async () => {
  const r = await elapsedOverBusy(1);
  expect(r.ratio).toBeGreaterThan(0.8);
}, 60_000);
