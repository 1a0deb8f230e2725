import { describe, expect, test } from 'bun:test';
import { dropBlankLines, pyIsBlank, pySplit, pyStrip } from './pystr.ts';

// Expected values are Python 3.11's: str.split(), str.strip() and
// '\n'.join(l for l in s.split('\n') if l.strip() != '').
describe('Python str helpers', () => {
  test('split() on every Python whitespace, not on U+FEFF or U+200B', () => {
    expect(pySplit('  a\tb\n\nc  ')).toEqual(['a', 'b', 'c']);
    expect(pySplit('a\x0bb\x0cc\x1cd\x1fe\x85f\xa0g')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
    expect(pySplit('a\u1680b\u2000c\u200ad\u2028e\u2029f\u202fg\u205fh\u3000i')).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
      'f',
      'g',
      'h',
      'i',
    ]);
    expect(pySplit('a\ufeffb\u200bc')).toEqual(['a\ufeffb\u200bc']);
    expect(pySplit('x = f(y) + 1')).toEqual(['x', '=', 'f(y)', '+', '1']);
    expect(pySplit('')).toEqual([]);
    expect(pySplit(' \t\r\n ')).toEqual([]);
    expect(pySplit('😀 é')).toEqual(['😀', 'é']);
  });

  test('strip() and blank test', () => {
    expect(pyStrip('\u3000 a b \x85')).toBe('a b');
    expect(pyStrip('\ufeffa')).toBe('\ufeffa');
    expect(pyIsBlank(' \t\x0c\u2028')).toBe(true);
    expect(pyIsBlank(' .')).toBe(false);
  });

  test('blank lines dropped, the others joined by \\n', () => {
    expect(dropBlankLines('a\n\n  \nb\n')).toBe('a\nb');
    expect(dropBlankLines('\n\na')).toBe('a');
    expect(dropBlankLines('a\nb\nc')).toBe('a\nb\nc');
    expect(dropBlankLines('a\n \t\nb\nc\n\x0c\nd')).toBe('a\nb\nc\nd');
    expect(dropBlankLines('')).toBe('');
    expect(dropBlankLines('\n')).toBe('');
    expect(dropBlankLines(' \n\t')).toBe('');
    // only \n separates lines here; \r stays in its line (and a line of only \r is blank)
    expect(dropBlankLines('a\r\n\r\nb')).toBe('a\r\nb');
    expect(dropBlankLines('x\u2028y\n\u3000\nz')).toBe('x\u2028y\nz');
  });

  test('same as split/filter/join on random texts', () => {
    const alphabet = ['a', 'b', ' ', '\t', '\n', '\n', '\r', '\x0b', '\u3000', '\ufeff', 'é'];
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let k = 0; k < 2000; k++) {
      let s = '';
      const len = Math.floor(rand() * 24);
      for (let i = 0; i < len; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
      const lines = s.split('\n').filter((l) => !pyIsBlank(l));
      expect(dropBlankLines(s)).toBe(lines.join('\n'));
      expect(pySplit(s)).toEqual(
        s
          .split(/[\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/)
          .filter((x) => x !== ''),
      );
    }
  });
});
