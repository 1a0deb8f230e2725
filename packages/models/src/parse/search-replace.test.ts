import { describe, expect, test } from 'bun:test';
import { sharedPath } from '@faun/kit';
import { loadSwebenchRows, toCeItem } from '../../testing/swebench.ts';
import {
  applySearchReplace,
  diffToSearchReplace,
  formatSearchReplace,
  parseSearchReplace,
} from './search-replace.ts';

const FILE = 'def f(x):\n    return x\n\n\ndef g(y):\n    return y\n';

describe('parseSearchReplace', () => {
  test('reads path, search and replace; ignores fences and prose', () => {
    const text = [
      'Here is the fix:',
      '```python',
      'pkg/mod.py',
      '<<<<<<< SEARCH',
      '    return x',
      '=======',
      '    return x + 1',
      '>>>>>>> REPLACE',
      '```',
    ].join('\n');
    const { blocks, errors } = parseSearchReplace(text);
    expect(errors).toEqual([]);
    expect(blocks).toEqual([{ path: 'pkg/mod.py', search: '    return x', replace: '    return x + 1' }]);
  });

  test('reports a block without its divider or end marker', () => {
    expect(parseSearchReplace('<<<<<<< SEARCH\nx\n>>>>>>> REPLACE').errors[0]).toContain(
      "no '=======' divider",
    );
    expect(parseSearchReplace('<<<<<<< SEARCH\nx\n=======\ny\n').errors[0]).toContain("no '>>>>>>> REPLACE'");
  });
});

describe('applySearchReplace', () => {
  test('applies blocks in order', () => {
    const r = applySearchReplace(FILE, [
      { path: null, search: '    return x', replace: '    return -x' },
      { path: null, search: 'def g(y):', replace: 'def g(y, z=0):' },
    ]);
    expect(r).toEqual({
      ok: true,
      text: 'def f(x):\n    return -x\n\n\ndef g(y, z=0):\n    return y\n',
      warnings: [],
    });
  });

  test('says why a block does not apply', () => {
    const missing = applySearchReplace(FILE, [{ path: null, search: 'return z', replace: '' }]);
    expect(missing).toEqual({
      ok: false,
      blockIndex: 0,
      reason: 'block 1: SEARCH text not found in the file (first line: "return z")',
    });
    const indent = applySearchReplace(FILE, [{ path: null, search: 'return x', replace: 'return 1' }]);
    expect(indent.ok).toBe(false);
    if (!indent.ok) expect(indent.reason).toContain('only when indentation');
    const second = applySearchReplace(FILE, [
      { path: null, search: '    return x', replace: '    return 1' },
      { path: null, search: '    return x', replace: '    return 2' },
    ]);
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.reason.startsWith('block 2:')).toBe(true);
    const empty = applySearchReplace(FILE, [{ path: null, search: '', replace: 'x' }]);
    expect(empty.ok).toBe(false);
    const twice = applySearchReplace('a\nb\na\n', [{ path: null, search: 'a', replace: 'c' }], {
      requireUnique: true,
    });
    expect(twice).toEqual({
      ok: false,
      blockIndex: 0,
      reason: 'block 1: SEARCH text occurs more than once in the file',
    });
    const first = applySearchReplace('a\nb\na\n', [{ path: null, search: 'a', replace: 'c' }]);
    expect(first.ok && first.text).toBe('c\nb\na\n');
  });

  test('an empty SEARCH creates the content of an empty file', () => {
    expect(applySearchReplace('', [{ path: null, search: '', replace: 'new\n' }])).toEqual({
      ok: true,
      text: 'new\n',
      warnings: [],
    });
  });
});

describe('diffToSearchReplace', () => {
  test('small edits get unique context; the text format round-trips', () => {
    const before = ['a', 'x', 'a', 'x', 'a', 'x', 'a', 'x', 'b', ''].join('\n');
    const after = ['a', 'x', 'a', 'x', 'a', 'x', 'a', 'y', 'b', ''].join('\n');
    const blocks = diffToSearchReplace(before, after, 'f.txt');
    const text = formatSearchReplace(blocks);
    const parsed = parseSearchReplace(text);
    expect(parsed.blocks).toEqual(blocks);
    const r = applySearchReplace(before, parsed.blocks, { requireUnique: true });
    expect(r.ok && r.text).toBe(after);
  });

  test('gold blocks of the SWE-bench Lite sample apply exactly; broken ones say why', async () => {
    const p = sharedPath('data/swebench-lite/with-files.jsonl');
    if (p === null) return;
    const rows = await loadSwebenchRows(p);
    expect(rows.length).toBeGreaterThan(20);
    for (const row of rows) {
      const item = toCeItem(row);
      const { blocks, errors } = parseSearchReplace(item.gold_patch);
      expect(errors).toEqual([]);
      expect(blocks.length).toBeGreaterThan(0);
      expect(blocks.every((b) => b.path === item.path)).toBe(true);
      const r = applySearchReplace(item.file_before, blocks, { requireUnique: true });
      expect(r.ok && r.text === item.file_after).toBe(true);
      // Break the first block: change one character of its SEARCH part.
      const broken = [{ ...blocks[0]!, search: `${blocks[0]!.search}#` }, ...blocks.slice(1)];
      const b = applySearchReplace(item.file_before, broken);
      expect(b.ok).toBe(false);
      if (!b.ok) expect(b.reason).toStartWith('block 1: SEARCH text not found');
      // Re-indent it: reported as a whitespace mismatch.
      const reindented = [{ ...blocks[0]!, search: blocks[0]!.search.replace(/^/gm, ' ') }];
      const w = applySearchReplace(item.file_before, reindented);
      expect(w.ok).toBe(false);
      if (!w.ok) expect(w.reason).toContain('only when indentation');
    }
  });
});
