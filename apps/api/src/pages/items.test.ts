import { expect, test } from 'bun:test';
import { filterItems, type ItemRow, itemRow, parseItemQuery, queryString, sortItems } from './items.ts';

const row = (id: string, outcome: string, em: number | null, repo: string, length: number): ItemRow =>
  itemRow(
    {
      itemId: id,
      outcome,
      scores: em === null ? {} : { em },
      answer: null,
      error: null,
      durationMs: length / 10,
    },
    { repo, language: repo.startsWith('a') ? 'python' : 'go', length },
  );
const rows = [
  row('a#1', 'pass', 1, 'a/x', 100),
  row('a#2', 'fail', 0, 'a/x', 600),
  row('b#3', 'fail', 0.5, 'b/y', 3000),
  row('b#4', 'skipped', null, 'b/y', 9000),
];

test('filters by outcome, score range, repository, language and length bucket', () => {
  const f = (q: Record<string, string>) => filterItems(rows, parseItemQuery(q)).map((r) => r.id);
  expect(f({ status: 'fail' })).toEqual(['a#2', 'b#3']);
  expect(f({ metric: 'em', min: '0.4' })).toEqual(['a#1', 'b#3']);
  expect(f({ metric: 'em', max: '0.5', min: '0.1' })).toEqual(['b#3']);
  expect(f({ repo: 'b/y' })).toEqual(['b#3', 'b#4']);
  expect(f({ lang: 'python' })).toEqual(['a#1', 'a#2']);
  expect(f({ len: '500–1k' })).toEqual(['a#2']);
  expect(f({ len: '8k+' })).toEqual(['b#4']);
  // unusable values are ignored, not errors
  expect(f({ metric: 'em', min: 'abc', page: '-4' })).toEqual(['a#1', 'a#2', 'b#3', 'b#4']);
  expect(parseItemQuery({ page: '-4', sort: 'x;drop', dir: 'sideways' })).toEqual({ page: 1 });
});

test('sorts by a metric or a column, missing values last, ties by id; query strings keep filters', () => {
  const s = (q: Record<string, string>) => sortItems(rows, parseItemQuery(q)).map((r) => r.id);
  expect(s({ sort: 'em', dir: 'desc' })).toEqual(['a#1', 'b#3', 'a#2', 'b#4']);
  expect(s({ sort: 'em' })).toEqual(['a#2', 'b#3', 'a#1', 'b#4']);
  expect(s({ sort: 'length', dir: 'desc' })).toEqual(['b#4', 'b#3', 'a#2', 'a#1']);
  expect(s({ sort: 'outcome' })).toEqual(['a#2', 'b#3', 'a#1', 'b#4']);
  const q = parseItemQuery({ status: 'fail', repo: 'a/x', page: '3' });
  expect(queryString(q)).toBe('?status=fail&repo=a%2Fx&page=3');
  expect(queryString(q, { page: 1, sort: 'em', dir: 'desc' })).toBe(
    '?status=fail&repo=a%2Fx&sort=em&dir=desc',
  );
  expect(queryString(parseItemQuery({}))).toBe('');
});
