/**
 * What the funnel cannot decide is data: a planted file that does not parse, a file in a language the
 * syntax check does not cover and one the source cannot read all stay in the pairs and are counted per
 * reason in the stored funnel rows and in the printed funnel.
 */
import { describe, expect, test } from 'bun:test';
import type { RawEntry } from '@faun/schema';
import { MemoryStore } from '../testing/memory-store.ts';
import { curateStore } from './curate.ts';
import { DEFAULT_FILTERS } from './filters.ts';
import { formatFunnel } from './funnel-table.ts';
import type { RepoSource } from './source.ts';
import { file, plantedRepo } from './test-corpus.ts';
import { syntaxCommentOnly } from './wiring.ts';

/** Base-commit files: PR 2's parses, PR 29's does not, PR 23's is unreadable. */
const source: RepoSource = {
  tree: async () => [],
  file: async (_repo, commit) => ({ base2: 'a\n', base29: 'a\ndef broken(:\n    pass\n' })[commit] ?? null,
};

function corpus() {
  const data = plantedRepo();
  // PR 21 now changes a Ruby file (a code extension the syntax check has no grammar for).
  data.entries = data.entries.map((e: RawEntry) =>
    e.number === 21 && e.pr ? { ...e, pr: { ...e.pr, files: [file('lib/widget.rb')] } } : e,
  );
  return data;
}

describe('undecided items in the funnel', () => {
  test('an unparsable file, an unsupported language and an unreadable file are counted per reason', async () => {
    const store = new MemoryStore().add(corpus());
    const result = await curateStore(store, {
      filters: DEFAULT_FILTERS,
      commentOnly: await syntaxCommentOnly(source),
    });
    const row = store.funnelRows.find((r) => r.step === 'commentOrStringOnly');
    expect(row).toMatchObject({ input: 4, removed: 0, output: 4, skipped: false });
    expect(row?.undecided).toEqual({
      'the file does not parse as python (before the change)': 1,
      'the file is not readable at the base commit': 1,
      'unsupported language (.rb)': 1,
    });
    expect(
      result.undecided['acme/widget']?.commentOrStringOnly?.map((u) => [u.issue, u.pr, u.reason]),
    ).toEqual([
      [20, 21, 'unsupported language (.rb)'],
      [22, 23, 'the file is not readable at the base commit'],
      [28, 29, 'the file does not parse as python (before the change)'],
    ]);
    // Undecided pairs are kept; without a model every pair reaching the semantic step is undecided too.
    expect(result.pairs.map((p) => `${p.pair.issue}:${p.pair.pr}`)).toEqual([
      '1:2',
      '20:21',
      '22:23',
      '28:29',
    ]);
    expect(store.funnelRows.find((r) => r.step === 'semantic')?.undecided).toEqual({
      'no model (--semantic-check MODEL) and no review (--review-in)': 4,
    });
    const printed = formatFunnel(store.funnelRows);
    expect(printed).toContain('could not decide (kept), per reason:');
    expect(printed).toMatch(
      /acme\/widget +commentOrStringOnly +the file does not parse as python \(before the change\) +1/,
    );
    expect(printed).toMatch(/\(total\) +commentOrStringOnly +unsupported language \(\.rb\) +1/);
    expect(printed).toMatch(/commentOrStringOnly +pair +4 +0 +4 +3 undecided/);
  });

  test('without a file source the comment-only step is skipped and says why for each pair', async () => {
    const store = new MemoryStore().add(corpus());
    await curateStore(store, { filters: DEFAULT_FILTERS });
    expect(store.funnelRows.find((r) => r.step === 'commentOrStringOnly')).toMatchObject({
      skipped: true,
      undecided: { 'no file source (--repo-dir / --api-url)': 4 },
    });
  });
});
