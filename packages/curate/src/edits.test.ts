import { expect, test } from 'bun:test';
import { deriveBlocks, formatBlocks, parseBlocks, verifyBlocks } from './edits.ts';

test('gold blocks render with the path, parse back, and re-apply exactly', () => {
  const before = 'a\nb\nc\n';
  const after = 'a\nB\nc\n';
  const blocks = deriveBlocks(before, after, 'src/x.py');
  expect(blocks).toEqual([{ search: 'a\nb\nc\n', replace: 'a\nB\nc\n' }]);
  const text = formatBlocks(blocks ?? [], 'src/x.py');
  expect(text.startsWith('src/x.py\n')).toBe(true);
  expect(parseBlocks(text)).toEqual(blocks ?? []);
  expect(verifyBlocks(before, after, text)).toBe(true);
  expect(deriveBlocks('Title\n=======\n\nx = 1\n', 'Title\n=======\n\nx = 2\n')).toBeNull();
});
