import { describe, expect, test } from 'bun:test';
import { mulberry32 } from '../bootstrap.ts';
import {
  extractPaths,
  lenientPathMatch,
  normalizePath,
  pathCandidates,
  reciprocalRank,
  strictPathMatch,
  topK,
} from './paths.ts';

const TREE = ['src/app/models.py', 'src/app/views.py', 'a/weird.py', 'README.md', 'docs/index.rst'];

describe('normalizePath', () => {
  test.each([
    ['"src/app/models.py"', 'src/app/models.py'],
    ["'src/app/models.py'", 'src/app/models.py'],
    ['`src/app/models.py`', 'src/app/models.py'],
    ['**`src/app/models.py`**', 'src/app/models.py'],
    ['./src/app/models.py', 'src/app/models.py'],
    ['././src/app/models.py', 'src/app/models.py'],
    ['/src/app/models.py', 'src/app/models.py'],
    ['src\\app\\models.py', 'src/app/models.py'],
    ['.\\src\\app\\models.py', 'src/app/models.py'],
    ['src//app/models.py', 'src/app/models.py'],
    ['  src/app/models.py.  ', 'src/app/models.py'],
    ['(src/app/models.py)', 'src/app/models.py'],
    ['src/app/models.py:', 'src/app/models.py'],
    ['.github/workflows/ci.yml', '.github/workflows/ci.yml'],
  ])('%s → %s', (raw, want) => expect(normalizePath(raw)).toBe(want));

  test('git diff prefixes a/ and b/ become an extra candidate', () => {
    expect(pathCandidates('a/src/app/models.py')).toEqual(['a/src/app/models.py', 'src/app/models.py']);
    expect(pathCandidates('`b/src/app/views.py`')).toEqual(['b/src/app/views.py', 'src/app/views.py']);
    expect(pathCandidates('src/a/x.py')).toEqual(['src/a/x.py']);
  });
});

describe('strict mode', () => {
  test('the whole answer must be the path', () => {
    expect(strictPathMatch('src/app/models.py', 'src/app/models.py')).toBe(true);
    expect(strictPathMatch('  `./src/app/models.py`\n', 'src/app/models.py')).toBe(true);
    expect(strictPathMatch('```\nsrc/app/models.py\n```', 'src/app/models.py')).toBe(true);
    expect(strictPathMatch('a/src/app/models.py', 'src/app/models.py')).toBe(true);
    expect(strictPathMatch('src\\app\\models.py', 'src/app/models.py')).toBe(true);
    expect(strictPathMatch('The bug is in src/app/models.py', 'src/app/models.py')).toBe(false);
    expect(strictPathMatch('src/app/models.py\nsrc/app/views.py', 'src/app/models.py')).toBe(false);
    expect(strictPathMatch('', 'src/app/models.py')).toBe(false);
    expect(strictPathMatch('src/app/views.py', 'src/app/models.py')).toBe(false);
  });
});

describe('lenient mode and ranking', () => {
  const answer =
    'Looking at `docs/nothere.py` first, the fault is most likely in "./src/app/views.py", maybe also ' +
    'src\\app\\models.py. See src/app/views.py again and README.md.';
  test('ranked list keeps existing paths in order of first mention', () => {
    expect(extractPaths(answer, TREE)).toEqual(['src/app/views.py', 'src/app/models.py', 'README.md']);
  });
  test('without a tree every path-looking token counts', () => {
    expect(extractPaths('edit b/src/x.py and lib/y.go, not 3.14 or e.g. this')).toEqual([
      'src/x.py',
      'lib/y.go',
    ]);
  });
  test('a real directory named a/ is kept when it exists', () => {
    expect(extractPaths('fix a/weird.py', TREE)).toEqual(['a/weird.py']);
  });
  test('lenient = first existing path mentioned', () => {
    expect(lenientPathMatch(answer, 'src/app/views.py', TREE)).toBe(true);
    expect(lenientPathMatch(answer, 'src/app/models.py', TREE)).toBe(false);
    expect(lenientPathMatch('no paths here', 'src/app/models.py', TREE)).toBe(false);
  });
  test('top-k and reciprocal rank', () => {
    const ranked = extractPaths(answer, TREE);
    expect([1, 3, 5].map((k) => topK(ranked, 'src/app/models.py', k))).toEqual([0, 1, 1]);
    expect(reciprocalRank(ranked, 'src/app/models.py')).toBeCloseTo(0.5, 12);
    expect(reciprocalRank(ranked, 'README.md')).toBeCloseTo(1 / 3, 12);
    expect(reciprocalRank(ranked, 'docs/index.rst')).toBe(0);
  });
});

test('normalizePath: the shortcut for already-normal paths gives what the full normalisation gives', () => {
  // the normalisation spelled out (every step applied to every input), against random mentions
  const QUOTES = /^[\s'"`*_<([{]+|[\s'"`*_>)\]}:;,.!?]+$/g;
  const full = (raw: string) =>
    raw
      .replace(QUOTES, '')
      .replaceAll('\\', '/')
      .replace(/\/{2,}/g, '/')
      .replace(/^(?:\.\/|\/)+/, '')
      .replace(QUOTES, '');
  const alphabet = [
    'a',
    'b',
    'Z',
    '9',
    '/',
    '.',
    '\\',
    ' ',
    '\u00a0',
    '"',
    '`',
    '*',
    '_',
    '(',
    ')',
    ':',
    '-',
    '?',
  ];
  const rand = mulberry32(5);
  let changed = 0;
  for (let k = 0; k < 20_000; k++) {
    const len = Math.floor(rand() * 9);
    const raw = Array.from({ length: len }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
    const want = full(raw);
    if (want !== raw) changed++;
    expect(normalizePath(raw)).toBe(want);
  }
  expect(changed).toBeGreaterThan(1000); // both branches were exercised
  expect(changed).toBeLessThan(20_000);
});
