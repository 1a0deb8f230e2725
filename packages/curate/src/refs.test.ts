import { describe, expect, test } from 'bun:test';
import { stripNonProse } from './markdown.ts';
import { closingIssueNumbers, extractRefs } from './refs.ts';

const R = 'acme/widget';
const nums = (text: string) => extractRefs(text, R).map((r) => `${r.repo}#${r.number}`);

describe('reference forms', () => {
  test('#N, GH-N, owner/repo#N and full URLs', () => {
    expect(nums('see #12 and GH-13, also other/lib#14')).toEqual([
      'acme/widget#12',
      'acme/widget#13',
      'other/lib#14',
    ]);
    expect(nums('https://github.com/acme/widget/issues/7 and https://github.com/x/y/pull/8')).toEqual([
      'acme/widget#7',
      'x/y#8',
    ]);
    const url = extractRefs('https://github.com/x/y/pull/8', R)[0];
    expect(url?.form).toBe('url');
    expect(url?.urlKind).toBe('pull');
  });
  test('not references: HTML entities, URL fragments, words glued to #', () => {
    expect(nums('&#123; a#5 https://example.com/page#6 issue##7')).toEqual([]);
  });
  test('URL with comment fragment still counts, URL with extra path digits does not confuse', () => {
    expect(nums('https://github.com/acme/widget/issues/9#issuecomment-1')).toEqual(['acme/widget#9']);
  });
});

describe('closing keywords', () => {
  const kws = ['close', 'closes', 'closed', 'fix', 'fixes', 'fixed', 'resolve', 'resolves', 'resolved'];
  for (const kw of kws) {
    test(`${kw} #N (any case)`, () => {
      expect(closingIssueNumbers(`${kw} #3`, R)).toEqual([3]);
      expect(closingIssueNumbers(`${kw.toUpperCase()} #4`, R)).toEqual([4]);
    });
  }
  test('Fixes: #12 (optional colon) is recorded as viaColon', () => {
    const [ref] = extractRefs('Fixes: #12', R);
    expect(ref).toMatchObject({ number: 12, closing: true, viaColon: true, keyword: 'fixes' });
  });
  test('non-keywords do not close', () => {
    expect(closingIssueNumbers('fixing #1, closing #2, refs #3, prefixes #4, hotfixes #5', R)).toEqual([]);
  });
  test('multiple issues in one PR, each with its keyword', () => {
    expect(closingIssueNumbers('Resolves #10, resolves #123, fixes GH-7', R)).toEqual([10, 123, 7]);
  });
  test('"fixes #1 and #2" closes only #1 (GitHub needs a keyword per issue)', () => {
    expect(closingIssueNumbers('fixes #1 and #2', R)).toEqual([1]);
    expect(nums('fixes #1 and #2')).toEqual(['acme/widget#1', 'acme/widget#2']);
  });
  test('closing with a URL or owner/repo form', () => {
    expect(closingIssueNumbers('Closes https://github.com/acme/widget/issues/44', R)).toEqual([44]);
    expect(closingIssueNumbers('closes acme/widget#45', R)).toEqual([45]);
    expect(closingIssueNumbers('closes ACME/Widget#46', R)).toEqual([46]);
  });
  test('cross-repository closing references do not count for this repository', () => {
    expect(closingIssueNumbers('fixes other/lib#5', R)).toEqual([]);
    expect(closingIssueNumbers('fixes https://github.com/other/lib/issues/6', R)).toEqual([]);
    const [ref] = extractRefs('fixes other/lib#5', R);
    expect(ref).toMatchObject({ repo: 'other/lib', closing: true });
  });
});

describe('code and comments are ignored', () => {
  test('fenced block', () => {
    expect(closingIssueNumbers('text\n```\nfixes #1\n```\nafter', R)).toEqual([]);
    expect(closingIssueNumbers('~~~~py\nfixes #1\n~~~\nfixes #2\n~~~~\nfixes #3', R)).toEqual([3]);
  });
  test('unterminated fence hides the rest', () => {
    expect(closingIssueNumbers('```\nfixes #1', R)).toEqual([]);
  });
  test('inline code', () => {
    expect(closingIssueNumbers('use `fixes #1` or ``a ` fixes #2`` then fixes #3', R)).toEqual([3]);
  });
  test('indented code after a blank line, but not a paragraph continuation', () => {
    expect(closingIssueNumbers('para\n\n    fixes #1\n\nfixes #2', R)).toEqual([2]);
    expect(closingIssueNumbers('para\n    fixes #4', R)).toEqual([4]);
  });
  test('HTML comments (PR templates)', () => {
    expect(closingIssueNumbers('<!-- fixes #1 -->\nfixes #2 <!-- unterminated fixes #3', R)).toEqual([2]);
  });
  test('stripNonProse keeps line structure', () => {
    expect(stripNonProse('a\n```\nb\n```\nc').split('\n')).toEqual(['a', '', '', '', 'c']);
  });
});
