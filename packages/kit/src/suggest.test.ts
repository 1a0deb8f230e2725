import { expect, test } from 'bun:test';
import { didYouMean, suggest } from './suggest.ts';

test('suggestions are the nearest candidates by edit distance, ignoring case', () => {
  expect(suggest('verfy', ['verify', 'validate', 'report'])).toEqual(['verify']);
  expect(suggest('SCORE', ['score', 'store', 'serve'])).toEqual(['score', 'store']);
  expect(suggest('zzzzzz', ['score'])).toEqual([]);
  expect(didYouMean('curat', ['curate', 'crawl'])).toBe(" Did you mean 'curate'?");
  expect(didYouMean('x', [])).toBe('');
});
