/**
 * End to end with the real DuckDB store: fake GitHub → crawl → temp DuckDB → `faun curate` →
 * `faun build` (files through the fake's API), twice, with byte-identical datasets.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crawl, createClient, MemorySink, resolveRepos } from '@faun/github';
import { Corpus, FakeGitHub } from '@faun/github/testing';
import type { CommandContext } from '@faun/kit';
import { Store } from '@faun/store';
import { runBuild, runCurate } from './cli.ts';

let fake: FakeGitHub;
let tmp = '';
const corpus = new Corpus({ seed: 'curate-e2e-store', repos: 2, entries: 600 });
const savedToken = process.env.GITHUB_TOKEN;
beforeAll(async () => {
  fake = FakeGitHub.start({ corpus });
  tmp = await mkdtemp(join(tmpdir(), 'faun-curate-e2e-'));
  process.env.GITHUB_TOKEN = 'fake-token-1';
});
afterAll(async () => {
  await fake.stop();
  await rm(tmp, { recursive: true, force: true });
  if (savedToken === undefined) delete process.env.GITHUB_TOKEN;
  else process.env.GITHUB_TOKEN = savedToken;
});

function ctx(opts: Record<string, unknown>): { c: CommandContext; lines: string[] } {
  const lines: string[] = [];
  const c: CommandContext = {
    opts: { keepRule: 'both', ...opts },
    args: [],
    sources: {},
    argv: [],
    json: false,
    quiet: true,
    logDir: tmp,
    log: (l) => lines.push(l),
    emitJson: () => {},
    result: () => {},
    progress: () => ({ setTotal() {}, tick() {}, status() {}, done() {} }),
  };
  return { c, lines };
}

describe('fake GitHub → crawl → DuckDB → faun curate → faun build', () => {
  test('pairs, funnel and datasets from the real store; building twice is byte-identical', async () => {
    const client = createClient({ baseUrl: fake.url, tokens: ['fake-token-0'] });
    const repos = await resolveRepos(
      client,
      corpus.repos().map((r) => r.full),
    );
    const sink = new MemorySink();
    await crawl({ repos, client, sink });
    const db = join(tmp, 'crawl.duckdb');
    const store = await Store.open(db);
    await store.ingest({
      entries: [...sink.entryRows.values()],
      comments: [...sink.commentRows.values()],
      events: [...sink.eventRows.values()],
      crossrefs: [...sink.crossrefRows.values()],
      prFiles: [...sink.fileRows.values()],
    });
    await store.close();

    const cur = ctx({ db, apiUrl: fake.url });
    expect(await runCurate(cur.c)).toBe(0);
    const check = await Store.open(db);
    const pairs = await check.pairs();
    const funnel = await check.funnel();
    await check.close();
    const clean = corpus
      .repos()
      .flatMap((r) => corpus.truth(r).clean.map((p) => `${p.repo}#${p.issue}:${p.pr}`));
    expect(pairs.map((p) => `${p.repo}#${p.issue}:${p.pr}`).sort()).toEqual(clean.sort());
    expect(funnel.filter((r) => r.step === 'commentOrStringOnly').every((r) => !r.skipped)).toBe(true);

    const hashes: string[] = [];
    for (const k of [1, 2]) {
      const b = ctx({ db, out: join(tmp, `ds${k}`), tasks: ['qa', 'fl', 'ce'], apiUrl: fake.url });
      expect(await runBuild(b.c)).toBe(0);
      const card = JSON.parse(await readFile(join(tmp, `ds${k}`, 'card.json'), 'utf8'));
      hashes.push(card.content_hash);
      expect(card.counts.fl).toBe(clean.length);
      expect(card.counts.ce).toBe(clean.length);
    }
    expect(hashes[1]).toBe(hashes[0] as string);
    for (const f of ['qa.jsonl', 'fl.jsonl', 'ce.jsonl', 'card.json', 'README.md'])
      expect(await readFile(join(tmp, 'ds2', f), 'utf8')).toBe(await readFile(join(tmp, 'ds1', f), 'utf8'));
  }, 120_000);
});
