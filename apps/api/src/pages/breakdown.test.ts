import { expect, test } from 'bun:test';
import { breakdown, byCreation } from './breakdown.ts';
import { itemRow } from './items.ts';

const row = (
  id: string,
  outcome: string,
  scores: Record<string, number>,
  repo: string,
  lang: string,
  created?: string,
  unparsed = false,
) =>
  itemRow(
    {
      itemId: id,
      outcome,
      scores,
      answer: null,
      error: null,
      durationMs: 0,
      data: unparsed ? { unparsed: true } : {},
    },
    { repo, language: lang, length: 10, created: created ?? null },
  );

test('per repository and language: counts, mean metric (missing = 0) and unparsed outputs', () => {
  const rows = [
    row('1', 'scored', { bleu: 0.5 }, 'a/x', 'python'),
    row('2', 'scored', { bleu: 0.3 }, 'a/x', 'go'),
    row('3', 'fail', {}, 'b/y', 'go', undefined, true),
  ];
  expect(breakdown(rows, 'repo', 'bleu')).toEqual([
    { key: 'a/x', n: 2, value: 0.4, unparsed: 0 },
    { key: 'b/y', n: 1, value: 0, unparsed: 1 },
  ]);
  expect(breakdown(rows, 'language', 'bleu').map((g) => [g.key, g.n])).toEqual([
    ['go', 2],
    ['python', 1],
  ]);
});

test('resolved rate over creation months, or quarters over a longer span; undated items left out', () => {
  const months = [
    row('1', 'pass', {}, 'a/x', 'python', '2023-01-05T00:00:00Z'),
    row('2', 'fail', {}, 'a/x', 'python', '2023-01-20T00:00:00Z'),
    row('3', 'pass', {}, 'a/x', 'python', '2023-03-01T00:00:00Z'),
    row('4', 'pass', {}, 'a/x', 'python'),
  ];
  expect(byCreation(months, null)).toEqual([
    { key: '2023-01', n: 2, value: 0.5, unparsed: 0 },
    { key: '2023-03', n: 1, value: 1, unparsed: 0 },
  ]);
  const long = [...months, row('5', 'fail', {}, 'a/x', 'python', '2024-11-30T00:00:00Z')];
  expect(byCreation(long, null).map((g) => [g.key, g.n, g.value])).toEqual([
    ['2023-Q1', 3, 2 / 3],
    ['2024-Q4', 1, 0],
  ]);
  expect(byCreation([months[3]!], null)).toEqual([]);
});
