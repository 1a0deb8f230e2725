/**
 * Acceptance over the fake GitHub corpus's planted truth, read straight from the generator (the crawl
 * → store path is covered once both exist): pairing precision/recall 1.0 and each filter removing
 * exactly the planted pairs, with the real tree-sitter comment/string-only check.
 */
import { describe, expect, test } from 'bun:test';
import {
  Corpus,
  type FakeEntry,
  type FakeRepo,
  type FakeUser,
  patchFor,
  TRUTH_FILTERS,
  type TruthPair,
} from '@faun/github/testing';
import type { Actor, Comment, CrossRef, IssueEvent, RawEntry } from '@faun/schema';
import { DEFAULT_FILTERS, isMerged, targetsDefaultBranch } from './filters.ts';
import { curateRepo, type RepoData } from './funnel.ts';
import { findLinks, isFixCandidate } from './pairing.ts';
import type { RepoSource } from './source.ts';
import { syntaxCommentOnly } from './wiring.ts';

const iso = (s: number) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
const actor = (u: FakeUser | null): Actor | null => (u ? { login: u.login, type: u.type } : null);

/** What a crawl stores for one fake repository (REST shapes mapped to the schema records). */
function repoData(corpus: Corpus, repo: FakeRepo): RepoData {
  const d: RepoData = {
    repo: repo.full,
    entries: [],
    comments: [],
    events: [],
    crossrefs: [],
    prFiles: new Map(),
  };
  for (let n = 1; n <= repo.size; n++) {
    const e = corpus.entry(repo, n) as FakeEntry;
    if (e.gap) continue;
    const pull = e.pull;
    const raw: RawEntry = {
      v: 1,
      repo: repo.full,
      number: n,
      kind: e.kind,
      title: e.title,
      body: e.body,
      state: e.state,
      state_reason: e.stateReason,
      author: actor(e.user),
      author_association: e.association,
      labels: e.labels,
      locked: e.locked,
      comments_count: e.comments.length,
      created_at: iso(e.createdAt),
      updated_at: iso(e.updatedAt),
      default_branch: repo.defaultBranch,
      pr: pull
        ? {
            merged: pull.merged,
            merged_at: pull.mergedAt === null ? null : iso(pull.mergedAt),
            base_ref: pull.base,
            base_sha: repo.baseSha,
            head_sha: pull.headSha,
            merge_commit_sha: pull.mergeSha,
            changed_files: new Set(pull.edits.map((x) => x.path)).size,
            closing_issues: pull.closing.filter((c) => c.repo === repo.full).map((c) => c.number),
            files: pull.edits.map((x) => ({
              filename: x.path,
              status: 'modified',
              additions: 1,
              deletions: 1,
              patch: patchFor(corpus.file(repo, x.path, repo.baseSha) ?? '', x),
            })),
          }
        : null,
    };
    d.entries.push(raw);
    for (const c of e.comments)
      d.comments.push({
        v: 1,
        repo: repo.full,
        number: n,
        id: c.id,
        author: actor(c.user),
        author_association: c.association,
        body: c.body,
        created_at: iso(c.createdAt),
      } satisfies Comment);
    for (const ev of e.events)
      d.events.push({
        v: 1,
        repo: repo.full,
        number: n,
        id: String(ev.id),
        event: ev.event,
        actor: actor(ev.actor),
        created_at: iso(ev.createdAt),
        commit_id: ev.commitId,
      } satisfies IssueEvent);
    for (const x of e.crossrefs)
      d.crossrefs.push({
        v: 1,
        target_repo: repo.full,
        target_number: n,
        source_repo: x.sourceRepo,
        source_number: x.sourceNumber,
        source_kind: x.sourceKind,
        will_close_target: x.willCloseTarget,
        created_at: iso(x.at),
        via: 'cross-referenced',
      } satisfies CrossRef);
  }
  return d;
}

function corpusSource(corpus: Corpus): RepoSource {
  const find = (full: string) => corpus.find(full)?.repo as FakeRepo;
  return {
    tree: async (repo) => corpus.paths(find(repo)),
    file: async (repo, commit, path) => corpus.file(find(repo), path, commit),
  };
}

const key = (p: { issue: number; pr: number | null }) => `${p.issue}:${p.pr}`;
const keys = (ps: TruthPair[]) => ps.map(key).sort();

describe('planted truth of the fake GitHub corpus', () => {
  test('pairing precision/recall 1.0; each filter removes exactly its planted pairs', async () => {
    const corpus = new Corpus({ seed: 'curate-acceptance', repos: 5, entries: 2500 });
    const commentOnly = await syntaxCommentOnly(corpusSource(corpus));
    let truePairs = 0;
    const planted: Record<string, number> = {};
    for (const repo of corpus.repos()) {
      const truth = corpus.truth(repo);
      const data = repoData(corpus, repo);
      const links = findLinks(repo.full, data.entries, data.crossrefs);
      const prs = new Map(data.entries.filter((e) => e.kind === 'pr').map((e) => [e.number, e]));
      const found = links
        .filter(isFixCandidate)
        .filter(
          (l) => isMerged(prs.get(l.pr) as RawEntry) && targetsDefaultBranch(prs.get(l.pr) as RawEntry),
        );
      expect({ repo: repo.full, pairs: found.map(key).sort() }).toEqual({
        repo: repo.full,
        pairs: keys(truth.fixPairs),
      });
      truePairs += truth.fixPairs.length;

      const out = await curateRepo(data, DEFAULT_FILTERS, commentOnly);
      const candidates = links.filter(isFixCandidate);
      const removedPairs = (step: string) => {
        const list = out.removed[step as keyof typeof out.removed] ?? [];
        return list
          .flatMap((r) => (r.pr === null ? candidates.filter((c) => c.issue === r.issue) : [r]))
          .map(key)
          .sort();
      };
      for (const f of TRUTH_FILTERS) {
        planted[f] = (planted[f] ?? 0) + truth.filters[f].length;
        if (f === 'crossRepoDecoy' || f === 'codeBlockDecoy' || f === 'mentionOnly') {
          for (const p of truth.filters[f])
            expect({ f, p, candidate: candidates.some((c) => c.issue === p.issue) }).toEqual({
              f,
              p,
              candidate: false,
            });
          continue;
        }
        expect({ repo: repo.full, f, removed: removedPairs(f) }).toEqual({
          repo: repo.full,
          f,
          removed: keys(truth.filters[f]),
        });
      }
      expect(out.pairs.map((p) => key(p.pair)).sort()).toEqual(keys(truth.clean));
    }
    expect(truePairs).toBeGreaterThan(100);
    // The check is only as strong as what was planted: every filter must have been exercised.
    for (const f of TRUTH_FILTERS)
      expect({ f, planted: (planted[f] ?? 0) > 0 }).toEqual({ f, planted: true });
  }, 60_000);
});
