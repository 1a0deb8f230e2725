/** The generated corpus: deterministic, lazy at any size, and its planted truth matches the entries. */
import { describe, expect, test } from 'bun:test';
import { patchFor } from './code.ts';
import { BLOCK, Corpus } from './corpus.ts';
import { type FakeEntry, type FakeRepo, TRUTH_FILTERS, type TruthPair } from './corpus-types.ts';

const HUMAN = (u: FakeEntry['user']) => u !== null && u.type === 'User';
const URL_RE = /https?:\/\/([^/\s)]+)/g;

function applyPatch(before: string, patch: string): string {
  const lines = before.split('\n');
  const m = /^@@ -(\d+),(\d+) \+\d+,\d+ @@/.exec(patch);
  if (!m) throw new Error(`bad hunk header in ${patch}`);
  const start = Number(m[1]) - 1;
  const body = patch.split('\n').slice(1);
  const oldLines = body.filter((l) => !l.startsWith('+')).map((l) => l.slice(1));
  const newLines = body.filter((l) => !l.startsWith('-')).map((l) => l.slice(1));
  expect(lines.slice(start, start + oldLines.length)).toEqual(oldLines);
  lines.splice(start, oldLines.length, ...newLines);
  return lines.join('\n');
}

describe('fake corpus', () => {
  const corpus = new Corpus({ seed: 'truth', repos: 5, entries: 5000 });

  test('deterministic per seed, different across seeds', () => {
    const again = new Corpus({ seed: 'truth', repos: 5, entries: 5000 });
    const other = new Corpus({ seed: 'other', repos: 5, entries: 5000 });
    const r = corpus.repos()[2] as FakeRepo;
    for (const n of [1, 2, 57, 333, 999])
      expect(again.entry(again.repos()[2] as FakeRepo, n)).toEqual(corpus.entry(r, n));
    expect([1, 2, 3, 4, 5].map((n) => other.entry(other.repos()[2] as FakeRepo, n)?.title)).not.toEqual(
      [1, 2, 3, 4, 5].map((n) => corpus.entry(r, n)?.title),
    );
  });

  test('lazy: 30 repositories × 800k entries, any entry at once', () => {
    const big = new Corpus({ seed: 1, repos: 30, entries: 800_000 });
    const t = performance.now();
    const last = big.repos()[29] as FakeRepo;
    expect(last.size).toBe(26_666);
    expect(big.entry(last, last.size)?.number).toBe(last.size);
    expect(big.entry(last, last.size + 1)).toBeNull();
    expect(performance.now() - t).toBeLessThan(500);
  });

  test('every scenario is planted and the truth describes the entries exactly', () => {
    const planted: Record<string, number> = {};
    for (const repo of corpus.repos()) {
      const t = corpus.truth(repo);
      const get = (n: number) => corpus.entry(repo, n) as FakeEntry;
      const closes = (p: TruthPair) =>
        get(p.pr).pull?.closing.some((c) => c.repo === repo.full && c.number === p.issue) ?? false;
      for (const p of t.fixPairs) {
        const pr = get(p.pr);
        expect({
          p,
          merged: pr.pull?.merged,
          base: pr.pull?.base,
          closes: closes(p),
          issue: get(p.issue).kind,
        }).toEqual({
          p,
          merged: true,
          base: repo.defaultBranch,
          closes: true,
          issue: 'issue',
        });
      }
      for (const p of t.clean) {
        const i = get(p.issue);
        const pr = get(p.pr);
        const body = i.body ?? '';
        const humans = new Set([i.user, ...i.comments.map((c) => c.user)].filter(HUMAN).map((u) => u?.login));
        expect({
          len: body.length >= 200 && body.length <= 8000,
          external: [...body.matchAll(URL_RE)].some((m) => m[1] !== 'github.com'),
          human: HUMAN(i.user),
          humans: humans.size >= 2,
          events: i.events.length <= 10,
          dup: i.labels.includes('duplicate'),
          files: pr.pull?.edits.length,
        }).toEqual({
          len: true,
          external: false,
          human: true,
          humans: true,
          events: true,
          dup: false,
          files: 1,
        });
      }
      for (const f of TRUTH_FILTERS) planted[f] = (planted[f] ?? 0) + t.filters[f].length;
      for (const p of t.filters.shortBody) expect((get(p.issue).body ?? '').length).toBeLessThan(200);
      for (const p of t.filters.tooLarge) expect((get(p.issue).body ?? '').length).toBeGreaterThan(8000);
      for (const p of t.filters.manyEvents) expect(get(p.issue).events.length).toBeGreaterThan(10);
      for (const p of t.filters.botAuthored) expect(get(p.issue).user?.type).toBe('Bot');
      for (const p of t.filters.duplicate) expect(get(p.issue).labels).toContain('duplicate');
      for (const p of t.filters.multiFile) expect(get(p.pr).pull?.edits.length).toBeGreaterThan(1);
      for (const p of t.filters.notMerged) expect(get(p.pr).pull?.merged).toBe(false);
      for (const p of t.filters.notDefaultBranch) expect(get(p.pr).pull?.base).not.toBe(repo.defaultBranch);
      for (const p of t.filters.crossRepoDecoy)
        expect(get(p.pr).body).toContain(`other-org/other-repo#${p.issue}`);
      for (const p of [...t.filters.codeBlockDecoy, ...t.filters.mentionOnly, ...t.filters.crossRepoDecoy])
        expect(closes(p)).toBe(false);
      for (const p of t.filters.externalLink)
        expect(get(p.issue).body).toMatch(/https:\/\/stackoverflow\.com\//);
      for (const p of t.filters.singleHumanParticipant) {
        const i = get(p.issue);
        expect(
          new Set([i.user, ...i.comments.map((c) => c.user)].filter(HUMAN).map((u) => u?.login)).size,
        ).toBe(1);
      }
      for (const p of t.filters.notOneToOne) expect(t.fixPairs).toContainEqual(p);
    }
    for (const f of TRUTH_FILTERS)
      expect({ f, planted: (planted[f] ?? 0) > 0 }).toEqual({ f, planted: true });
  });
});

describe('fake corpus contents', () => {
  const corpus = new Corpus({ seed: 'truth', repos: 5, entries: 5000 });

  test('PR patches apply to the base file and give the file at the head commit', () => {
    let checked = 0;
    for (const repo of corpus.repos())
      for (let n = 1; n <= 200; n++) {
        const e = corpus.entry(repo, n);
        if (!e?.pull) continue;
        for (const edit of e.pull.edits) {
          const before = corpus.file(repo, edit.path, repo.baseSha) ?? '';
          const after = corpus.file(repo, edit.path, e.pull.headSha) ?? '';
          expect(applyPatch(before, patchFor(before, edit))).toBe(after);
          expect(after).not.toBe(before);
          checked++;
        }
      }
    expect(checked).toBeGreaterThan(100);
  });

  test('blocks of 10: entry numbers are dense, gaps are transferred or deleted issues', () => {
    const repo = corpus.repos()[0] as FakeRepo;
    const gaps = [];
    for (let n = 1; n <= 50 * BLOCK; n++) {
      const e = corpus.entry(repo, n) as FakeEntry;
      expect(e.number).toBe(n);
      if (e.gap) gaps.push(e.gap);
    }
    expect(gaps).toContain('transferred');
    expect(gaps).toContain('deleted');
  });
});
