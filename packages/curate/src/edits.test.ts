import { describe, expect, test } from 'bun:test';
import { applyBlocks, deriveBlocks, formatBlocks, parseBlocks, verifyBlocks } from './edits.ts';

const roundTrip = (before: string, after: string) => {
  const blocks = deriveBlocks(before, after);
  expect(blocks).not.toBeNull();
  const text = formatBlocks(blocks ?? []);
  const r = applyBlocks(before, parseBlocks(text));
  expect(r.ok && r.text).toBe(after);
  return blocks ?? [];
};

describe('gold SEARCH/REPLACE blocks', () => {
  test('repeated code: context widens until each SEARCH is unique', () => {
    const unit = 'def f():\n    return 1\n\n';
    const before = unit.repeat(6);
    const after = `${unit.repeat(3)}def f():\n    return 2\n\n${unit.repeat(2)}`;
    const blocks = roundTrip(before, after);
    expect(blocks.length).toBe(1);
  });
  test('two distant edits give two blocks', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`);
    const after = [...lines];
    after[2] = 'changed 2';
    after[35] = 'changed 35';
    expect(roundTrip(`${lines.join('\n')}\n`, `${after.join('\n')}\n`).length).toBe(2);
  });
  test('no trailing newline, added trailing newline, CRLF, empty before, deleting everything', () => {
    roundTrip('a\nb\nc', 'a\nB\nc');
    roundTrip('a\nb\nc', 'a\nb\nc\n');
    roundTrip('a\r\nb\r\nc\r\n', 'a\r\nx\r\nc\r\n');
    roundTrip('', 'new file\n');
    roundTrip('gone\n', '');
  });
  test('unchanged file gives no blocks', () => {
    expect(deriveBlocks('same', 'same')).toEqual([]);
  });
  test('a file with marker-like lines cannot round-trip and is reported as such', () => {
    const before = 'Title\n=======\n\nx = 1\n';
    expect(deriveBlocks(before, 'Title\n=======\n\nx = 2\n')).toBeNull();
  });
  test('applyBlocks explains failures', () => {
    expect(applyBlocks('a\na\n', [{ search: 'a', replace: 'b' }])).toMatchObject({ ok: false, block: 1 });
    expect(applyBlocks('a\n', [{ search: 'zzz', replace: 'b' }])).toMatchObject({
      reason: 'SEARCH not found',
    });
    expect(verifyBlocks('a\n', 'b\n', 'garbage')).toBe(false);
  });
});
