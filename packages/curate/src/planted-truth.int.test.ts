/**
 * Planted truth over the fake GitHub server, in memory: crawl (the real crawler, REST + GraphQL) into a
 * MemorySink, curate over a MemoryStore, and check pairing precision/recall 1.0 and each filter removing
 * exactly its pairs. (The DuckDB path end to end is `e2e-store.int.test.ts`.)
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { crawl, createClient, MemorySink, resolveRepos } from '@faun/github';
import { Corpus, FakeGitHub, type FakeRepo, TRUTH_FILTERS, type TruthPair } from '@faun/github/testing';
import { applySearchReplace, parseSearchReplace } from '@faun/metrics';
import { MemoryStore } from '../testing/memory-store.ts';
import { buildFromStore } from './build.ts';
import { curateStore } from './curate.ts';
import { DEFAULT_FILTERS, isMerged, targetsDefaultBranch } from './filters.ts';
import { findLinks, isFixCandidate } from './pairing.ts';
import { GitHubApiSource } from './source.ts';
import { syntaxCommentOnly } from './wiring.ts';

let fake: FakeGitHub;
const corpus = new Corpus({ seed: 'curate-e2e', repos: 3, entries: 1200 });
beforeAll(() => {
  fake = FakeGitHub.start({ corpus });
});
afterAll(() => fake.stop());

const key = (p: { issue: number; pr: number | null }) => `${p.issue}:${p.pr}`;
const keys = (ps: TruthPair[]) => ps.map(key).sort();

describe('fake GitHub → crawl → curate', () => {
  test('planted truth recovered', async () => {
    const client = createClient({ baseUrl: fake.url, tokens: ['fake-token-0'] });
    const names = corpus.repos().map((r) => r.full);
    const repos = await resolveRepos(client, names);
    const sink = new MemorySink();
    await crawl({ repos, client, sink });
    const store = new MemoryStore();
    store.entryList = [...sink.entryRows.values()];
    store.commentList = [...sink.commentRows.values()];
    store.eventList = [...sink.eventRows.values()];
    store.crossrefList = [...sink.crossrefRows.values()];
    for (const f of sink.fileRows.values()) store.files.set(`${f.repo}#${f.number}`, f.files);
    const source = new GitHubApiSource({ apiUrl: fake.url, token: 'fake-token-0' });
    const result = await curateStore(store, {
      filters: DEFAULT_FILTERS,
      commentOnly: await syntaxCommentOnly(source),
    });
    let tp = 0;
    let fp = 0;
    let fn = 0;
    const planted: Record<string, number> = {};
    for (const repo of corpus.repos()) {
      const truth = corpus.truth(repo);
      const entries = store.entries({ repo: repo.full });
      const links = findLinks(repo.full, entries, store.crossrefs(repo.full));
      const prs = new Map(entries.filter((e) => e.kind === 'pr').map((e) => [e.number, e]));
      const candidates = links.filter(isFixCandidate);
      const found = candidates.filter((l) => {
        const p = prs.get(l.pr);
        return p !== undefined && isMerged(p) && targetsDefaultBranch(p);
      });
      const want = new Set(keys(truth.fixPairs));
      const hits = found.filter((l) => want.has(key(l))).length;
      tp += hits;
      fp += found.length - hits;
      fn += want.size - hits;
      const removed = result.removed[repo.full] ?? {};
      for (const f of TRUTH_FILTERS) {
        planted[f] = (planted[f] ?? 0) + truth.filters[f].length;
        if (f === 'crossRepoDecoy' || f === 'codeBlockDecoy' || f === 'mentionOnly') {
          const paired = truth.filters[f].filter((p) => candidates.some((c) => c.issue === p.issue));
          expect({ f, paired }).toEqual({ f, paired: [] });
          continue;
        }
        const got = (removed[f] ?? [])
          .flatMap((r) => (r.pr === null ? candidates.filter((c) => c.issue === r.issue) : [r]))
          .map(key)
          .sort();
        expect({ repo: repo.full, f, got }).toEqual({ repo: repo.full, f, got: keys(truth.filters[f]) });
      }
      expect(
        result.pairs
          .filter((p) => p.pair.repo === repo.full)
          .map((p) => key(p.pair))
          .sort(),
      ).toEqual(keys(truth.clean));
    }
    expect({ precision: tp / (tp + fp), recall: tp / (tp + fn), tp }).toEqual({
      precision: 1,
      recall: 1,
      tp: 85,
    });

    // FL and CE through the GitHub API source of the same fake.
    const built = await buildFromStore(store, { tasks: ['qa', 'fl', 'ce'], source });
    expect(built.fl.length).toBe(result.pairs.length);
    expect(built.ce.length).toBe(result.pairs.length);
    expect(built.skipped.filter((x) => x.task !== 'qa')).toEqual([]);
    for (const item of built.fl) expect(item.tree).toContain(item.gold_path);
    for (const item of built.ce) {
      const repo = corpus.find(item.repo)?.repo as FakeRepo;
      const pr = corpus.entry(repo, item.pr_number as number);
      expect(item.file_after).toBe(corpus.file(repo, item.path, pr?.pull?.headSha ?? null) as string);
      const applied = applySearchReplace(item.file_before, parseSearchReplace(item.gold_patch).blocks);
      expect(applied.ok && applied.result === item.file_after).toBe(true);
    }
    for (const f of TRUTH_FILTERS)
      expect({ f, exercised: (planted[f] ?? 0) > 0 }).toEqual({ f, exercised: true });
  }, 120_000);
});
