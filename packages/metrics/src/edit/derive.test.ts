import { describe, expect, test } from 'bun:test';
import { applySearchReplace } from './apply.ts';
import { checkSearchReplace, deriveSearchReplace, verifySearchReplace } from './derive.ts';
import {
  formatSearchReplace,
  isMarkerLine,
  parseSearchReplace,
  type SearchReplaceBlock,
} from './search-replace.ts';

const roundTrip = (before: string, after: string): SearchReplaceBlock[] => {
  const d = deriveSearchReplace(before, after, 'f.py');
  if (!d.ok) throw new Error(d.reason);
  const parsed = parseSearchReplace(formatSearchReplace(d.blocks));
  expect(parsed.problems).toEqual([]);
  expect(parsed.blocks.map((b) => [b.search, b.replace])).toEqual(d.blocks.map((b) => [b.search, b.replace]));
  const r = applySearchReplace(before, parsed.blocks);
  expect(r.ok && r.result === after).toBe(true);
  expect(r.matches.every((m) => m === 'exact' || m === 'create')).toBe(true);
  return d.blocks;
};

/** A sympy-style module: a column-0 reST title, and docstrings with indented `========` rules. */
const SYMPY_STYLE = [
  '"""',
  'Polynomial tools',
  '================',
  '"""',
  '',
  'def degree(f):',
  '    """',
  '    The degree of ``f``.',
  '',
  '    Examples',
  '    ========',
  '',
  '    >>> degree(x**2)',
  '    2',
  '',
  '    See Also',
  '    ========',
  '',
  '    order',
  '    """',
  '    return f.degree()',
  '',
  '',
  'def order(f):',
  '    """',
  '    Examples',
  '    =======',
  '',
  '    >>> order(x)',
  '    1',
  '    """',
  '    return f.order()',
  '',
].join('\n');

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
    expect(deriveSearchReplace('same', 'same')).toEqual({ ok: true, blocks: [] });
  });
  test('indented ======== rules in docstrings are content: edits next to them round-trip byte-exact', () => {
    expect(SYMPY_STYLE.split('\n').filter(isMarkerLine)).toEqual([]);
    const edited = SYMPY_STYLE.replace('    >>> degree(x**2)\n    2', '    >>> degree(x**3)\n    3').replace(
      '    return f.order()',
      '    return f.order() + 0',
    );
    const blocks = roundTrip(SYMPY_STYLE, edited);
    expect(blocks.some((b) => b.search.includes('    ========'))).toBe(true);
    // The whole file as one block survives format → parse byte for byte.
    const whole = parseSearchReplace(
      formatSearchReplace([{ path: 'p.py', search: SYMPY_STYLE, replace: edited, line: 0 }]),
    );
    expect(whole.problems).toEqual([]);
    expect(whole.blocks[0]?.search === SYMPY_STYLE && whole.blocks[0]?.replace === edited).toBe(true);
  });
  test('context stops short of a column-0 marker-like line (a reST rule of 7 to 9 =)', () => {
    const before = 'Title\n=======\nx = 1\ny = 2\n=========\nz = 3\n';
    const after = 'Title\n=======\nx = 1\ny = 20\n=========\nz = 3\n';
    const [b] = roundTrip(before, after);
    expect(b?.search).toBe('x = 1\ny = 2');
    roundTrip('Title\n=======\n\nx = 1\n', 'Title\n=======\n\nx = 2\n');
  });
  test('edits on both sides of a marker-like line become separate blocks', () => {
    const blocks = roundTrip('a\nb\n=======\nc\nd\n', 'a\nB\n=======\nC\nd\n');
    expect(blocks.map((b) => b.search)).toEqual(['a\nb', 'c\nd\n']);
  });
  test('a change that writes or removes a marker-like line, or cannot be anchored, gives a specific reason', () => {
    expect(deriveSearchReplace('a\n', 'a\n=======\n')).toEqual({
      ok: false,
      reason: "the change writes a line that reads as a block marker ('=======')",
    });
    expect(deriveSearchReplace('a\n>>>>>>> REPLACE\nb\n', 'a\nb\n')).toEqual({
      ok: false,
      reason: "the change removes or rewrites line 2, which reads as a block marker ('>>>>>>> REPLACE')",
    });
    const twin = deriveSearchReplace('x\n=======\nx\n=======\nx\n', 'x\n=======\ny\n=======\nx\n');
    expect(twin.ok).toBe(false);
    expect(!twin.ok && twin.reason).toStartWith(
      'no context width between marker-like lines re-applies exactly: block 1: ambiguous',
    );
  });
  test('checkSearchReplace says what is wrong; verifySearchReplace is its yes/no', () => {
    expect(checkSearchReplace('a\n', 'b\n', 'garbage')).toBe(
      'the blocks apply but do not give the changed file',
    );
    expect(verifySearchReplace('a\n', 'b\n', 'garbage')).toBe(false);
    const d = deriveSearchReplace('a\n', 'b\n');
    const text = formatSearchReplace(d.ok ? d.blocks : []);
    expect(checkSearchReplace('a\n', 'b\n', text)).toBeNull();
    expect(checkSearchReplace('a\n', 'c\n', text)).toBe('the blocks apply but do not give the changed file');
    expect(checkSearchReplace('a \n', 'b\n', text)).toBe(
      'block 1 matches only ignoring white space (rstrip)',
    );
    expect(checkSearchReplace('a\n', 'b\n', '=======\n')).toStartWith("line 1: '=======' outside a block");
  });
});
