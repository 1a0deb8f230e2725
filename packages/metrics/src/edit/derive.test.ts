import { describe, expect, test } from 'bun:test';
import { applySearchReplace } from './apply.ts';
import { deriveSearchReplace, verifySearchReplace } from './derive.ts';
import { formatSearchReplace, parseSearchReplace } from './search-replace.ts';

const roundTrip = (before: string, after: string) => {
  const blocks = deriveSearchReplace(before, after, 'f.py');
  expect(blocks).not.toBeNull();
  const parsed = parseSearchReplace(formatSearchReplace(blocks ?? []));
  expect(parsed.problems).toEqual([]);
  const r = applySearchReplace(before, parsed.blocks);
  expect(r.ok && r.result).toBe(after);
  expect(r.matches.every((m) => m === 'exact' || m === 'create')).toBe(true);
  return blocks ?? [];
};

describe('deriveSearchReplace', () => {
  test('repeated code: context widens until each SEARCH is unique', () => {
    const unit = 'def f():\n    return 1\n\n';
    const before = unit.repeat(6);
    const after = `${unit.repeat(3)}def f():\n    return 2\n\n${unit.repeat(2)}`;
    expect(roundTrip(before, after).length).toBe(1);
  });
  test('two distant edits give two blocks, each with the path', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`);
    const after = [...lines];
    after[2] = 'changed 2';
    after[35] = 'changed 35';
    const blocks = roundTrip(`${lines.join('\n')}\n`, `${after.join('\n')}\n`);
    expect(blocks.map((b) => b.path)).toEqual(['f.py', 'f.py']);
  });
  test('no trailing newline, added trailing newline, CRLF, empty before, deleting everything', () => {
    roundTrip('a\nb\nc', 'a\nB\nc');
    roundTrip('a\nb\nc', 'a\nb\nc\n');
    roundTrip('a\r\nb\r\nc\r\n', 'a\r\nx\r\nc\r\n');
    roundTrip('', 'new file\n');
    roundTrip('gone\n', '');
  });
  test('an unchanged file gives no blocks', () => {
    expect(deriveSearchReplace('same', 'same')).toEqual([]);
  });
  test('a file with marker-like lines cannot round-trip and is reported as such (null)', () => {
    expect(deriveSearchReplace('Title\n=======\n\nx = 1\n', 'Title\n=======\n\nx = 2\n')).toBeNull();
  });
  test('verifySearchReplace rejects text that does not parse or does not give the after file', () => {
    expect(verifySearchReplace('a\n', 'b\n', 'garbage')).toBe(false);
    const blocks = deriveSearchReplace('a\n', 'b\n') ?? [];
    expect(verifySearchReplace('a\n', 'b\n', formatSearchReplace(blocks))).toBe(true);
    expect(verifySearchReplace('a\n', 'c\n', formatSearchReplace(blocks))).toBe(false);
  });
});
