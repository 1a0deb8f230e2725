/** The CodeBLEU cache: bounded, least recently used first out, and a hit gives the value a fresh run gives. */
import { beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { sharedPath } from '@faun/kit';
import { analysisCache, BoundedCache, clearCodeBleuCache } from './cache.ts';
import { CODE_LANGS, codebleu, initCodeBleu } from './codebleu.ts';
import type { CodeLang } from './types.ts';

describe('BoundedCache', () => {
  test('evicts the least recently used entries past the budget', () => {
    const c = new BoundedCache<string>((s) => 2 * s.length, 1000);
    c.set('a', 'x'.repeat(100)); // ~ 160 + 2 + 200
    c.set('b', 'y'.repeat(100));
    expect(c.get('a')).toBe('x'.repeat(100)); // a is now the most recent
    c.set('c', 'z'.repeat(100)); // over budget: b goes
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toBeDefined();
    expect(c.get('c')).toBeDefined();
    expect(c.bytes).toBeLessThanOrEqual(1000);
    expect(c.hits).toBe(3);
    expect(c.misses).toBe(1);
  });

  test('an entry larger than the budget is not kept; a replaced entry is counted once', () => {
    const c = new BoundedCache<string>((s) => 2 * s.length, 500);
    c.set('big', 'x'.repeat(1000));
    expect(c.size).toBe(0);
    c.set('k', 'ab');
    c.set('k', 'abcd');
    expect(c.size).toBe(1);
    expect(c.bytes).toBe(160 + 2 + 8);
  });
});

describe('BoundedCache scopes', () => {
  test('the same text in two scopes is two entries; eviction and clear span every scope', () => {
    const c = new BoundedCache<string>((s) => 2 * s.length, 1000);
    c.set('text', 'x'.repeat(100), 'go|a');
    expect(c.get('text', 'java|a')).toBeUndefined();
    c.set('text', 'y'.repeat(100), 'java|a');
    expect(c.get('text', 'go|a')).toBe('x'.repeat(100));
    expect(c.get('text', 'java|a')).toBe('y'.repeat(100));
    expect(c.size).toBe(2);
    c.set('other', 'z'.repeat(200), 'java|a'); // over budget: the first scope's entry goes first
    expect(c.get('text', 'go|a')).toBeUndefined();
    expect(c.bytes).toBeLessThanOrEqual(1000);
    c.setIfSeen('h', 'v', 'go|a');
    c.setIfSeen('h', 'v', 'java|a'); // seen in another scope only: not kept
    expect(c.get('h', 'java|a')).toBeUndefined();
    c.clear();
    expect(c.size).toBe(0);
    expect(c.bytes).toBe(0);
  });
});

describe('BoundedCache.setIfSeen', () => {
  test('keeps a key from its second offer on, and forgets what it saw on clear', () => {
    const c = new BoundedCache<string>((s) => 2 * s.length, 10_000);
    c.setIfSeen('hyp', 'a');
    expect(c.get('hyp')).toBeUndefined();
    c.setIfSeen('hyp', 'a');
    expect(c.get('hyp')).toBe('a');
    c.setIfSeen('other', 'b');
    c.clear();
    c.setIfSeen('other', 'b');
    expect(c.get('other')).toBeUndefined();
  });
});

describe('CodeBLEU with the cache', () => {
  beforeAll(() => initCodeBleu());

  test('a hit gives the same value as a fresh computation (dev rows, every language)', () => {
    const p = sharedPath('data/metrics/codebleu-dev.jsonl');
    const rows = p
      ? readFileSync(p, 'utf8')
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l) as { lang: CodeLang; hyp: string; ref: string })
      : CODE_LANGS.map((lang) => ({ lang, hyp: 'x = 1\nprint(x)', ref: 'y = 2\nprint(y)' }));
    clearCodeBleuCache();
    const fresh = rows.map((r) => {
      const v = codebleu(r.ref, r.hyp, r.lang);
      clearCodeBleuCache();
      return v;
    });
    const warm = rows.map((r) => codebleu(r.ref, r.hyp, r.lang));
    // references are kept at once, hypotheses from their second sight on
    const again = rows.map((r) => codebleu(r.ref, r.hyp, r.lang));
    const hitsBefore = analysisCache.hits;
    const third = rows.map((r) => codebleu(r.ref, r.hyp, r.lang));
    expect(analysisCache.hits - hitsBefore).toBeGreaterThanOrEqual(2 * rows.length);
    expect(warm).toEqual(fresh);
    expect(again).toEqual(fresh);
    expect(third).toEqual(fresh);
  }, 60_000);

  test('one reference with several hypotheses is parsed once', () => {
    clearCodeBleuCache();
    const ref = 'def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total';
    const hyps = ['def f(a):\n    return sum(a)', 'def f(b):\n    s = 0\n    return s', 'pass'];
    for (const h of hyps) codebleu(ref, h, 'python');
    // ref analysed once, each hypothesis once
    expect(analysisCache.misses).toBe(1 + hyps.length);
    expect(analysisCache.hits).toBe(hyps.length - 1);
    // a hypothesis met once is not kept; met again, it is
    codebleu(ref, hyps[0] as string, 'python');
    expect(analysisCache.hits).toBe(hyps.length);
    codebleu(ref, hyps[0] as string, 'python');
    expect(analysisCache.hits).toBe(hyps.length + 2);
  });

  test('options that change the analysis are part of the key', () => {
    clearCodeBleuCache();
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text with a template literal
    const ref = 'const u = `http://x/${a}`; let b = a;';
    const hyp = "const u = 'http://x/' + a; let b = a;";
    const plain = codebleu(ref, hyp, 'javascript');
    const fixed = codebleu(ref, hyp, 'javascript', { fixCommentRemoval: true });
    clearCodeBleuCache();
    expect(codebleu(ref, hyp, 'javascript', { fixCommentRemoval: true })).toEqual(fixed);
    expect(fixed.syntax_match_score).not.toBe(plain.syntax_match_score);
  });
});
