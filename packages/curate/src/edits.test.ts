import { expect, test } from 'bun:test';
import { deriveBlocks, formatBlocks, parseBlocks, verifyBlocks } from './edits.ts';

test('gold blocks render with the path, parse back, and re-apply exactly', () => {
  const before = 'a\nb\nc\n';
  const after = 'a\nB\nc\n';
  const derived = deriveBlocks(before, after, 'src/x.py');
  expect(derived).toEqual({ blocks: [{ search: 'a\nb\nc\n', replace: 'a\nB\nc\n' }] });
  const blocks = 'blocks' in derived ? derived.blocks : [];
  const text = formatBlocks(blocks, 'src/x.py');
  expect(text.startsWith('src/x.py\n')).toBe(true);
  expect(parseBlocks(text)).toEqual(blocks);
  expect(verifyBlocks(before, after, text)).toBe(true);
});

test('a change that writes a marker-like line has no gold blocks, and says so', () => {
  expect(deriveBlocks('Title\n', 'Title\n=======\n')).toEqual({
    reason: "the change writes a line that reads as a block marker ('=======')",
  });
});
