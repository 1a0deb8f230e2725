import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedPath } from '@faun/kit';
import { scoreFl } from '@faun/metrics';
import type { FlItem } from '@faun/schema';
import { loadSwebenchRows, toFlItem } from '../../testing/swebench.ts';
import { bm25Rank, checkoutContents, createBm25Provider, tokenize } from './bm25.ts';

/** A localization item titled `title` over `tree` (no body). */
const flItem = (title: string, tree: string[], more: Partial<FlItem> = {}): FlItem =>
  ({ task: 'fl', id: 'i', issue_title: title, issue_body: '', tree, ...more }) as FlItem;

/** What `provider` answers for `item`. */
async function answer(provider: ReturnType<typeof createBm25Provider>, item: FlItem): Promise<string> {
  return (await provider.generate({ messages: [], item }, { signal: new AbortController().signal })).text;
}

describe('BM25 fault-localization baseline', () => {
  test('tokenize splits paths on / _ . - and camelCase', () => {
    expect(tokenize('src/flask/blueprintSetup_state.py')).toEqual([
      'src',
      'flask',
      'blueprint',
      'setup',
      'state',
      'py',
    ]);
    expect(tokenize('HTTPAdapter')).toEqual(['http', 'adapter']);
  });

  test('ranks the path sharing rare query words first, ties in input order', () => {
    const docs = ['a/util.py', 'a/session_cookie.py', 'a/cookie.py', 'b/other.py'].map((id) => ({ id }));
    const ranked = bm25Rank('session cookie is lost', docs).map((r) => r.id);
    expect(ranked[0]).toBe('a/session_cookie.py');
    expect(ranked[1]).toBe('a/cookie.py');
    expect(ranked.slice(2)).toEqual(['a/util.py', 'b/other.py']);
  });

  test('file contents add evidence when given', () => {
    const docs = [
      { id: 'x.py', text: 'def frobnicate(): pass' },
      { id: 'y.py', text: 'nothing' },
    ];
    expect(bm25Rank('frobnicate fails', docs)[0]!.id).toBe('x.py');
  });

  test('--repo-dir contents are indexed when the files exist', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faun-bm25-'));
    try {
      mkdirSync(join(dir, 'o/r/src'), { recursive: true });
      writeFileSync(join(dir, 'o/r/src/b.py'), 'def frobnicate():\n    pass\n');
      const item = flItem('frobnicate fails', ['src/a.py', 'src/b.py', 'src/missing.py'], { repo: 'o/r' });
      expect(await answer(createBm25Provider(''), item)).toBe('src/a.py');
      const withContents = createBm25Provider('', checkoutContents({ 'o/r': join(dir, 'o/r') }));
      expect(await answer(withContents, item)).toBe('src/b.py');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('BM25 baseline as a model (bm25:K)', () => {
  test('bm25:K answers with K ranked paths', async () => {
    const item = flItem('cli crash', ['src/app.py', 'src/cli.py', 'src/x.py']);
    expect((await answer(createBm25Provider('2'), item)).split('\n')).toEqual(['src/cli.py', 'src/app.py']);
    expect(() => createBm25Provider('zero')).toThrow('bad list length');
  });

  test('bm25:K as documented: strict em needs a single path; top-k and mrr use the ranking', async () => {
    const item = flItem('cli crash in the app', ['src/app.py', 'src/cli.py', 'src/x.py'], {
      gold_path: 'src/cli.py',
    });
    const one = await answer(createBm25Provider(''), item);
    const three = await answer(createBm25Provider('3'), item);
    expect(three.split('\n')).toEqual(['src/app.py', 'src/cli.py', 'src/x.py']);
    expect(one).toBe('src/app.py');
    expect(scoreFl(item, three).scores).toMatchObject({ em: 0, em_lenient: 0, top1: 0, top3: 1, mrr: 0.5 });
    // The same gold path first: the list still scores 0 on strict em, the single path scores 1.
    const first = { ...item, gold_path: 'src/app.py' };
    expect(scoreFl(first, three).scores).toMatchObject({ em: 0, em_lenient: 1, top1: 1, mrr: 1 });
    expect(scoreFl(first, one).scores).toMatchObject({ em: 1, top1: 1, mrr: 1 });
  });

  const p = sharedPath('data/swebench-lite/with-files.jsonl');
  test.skipIf(p === null)('runs offline on the SWE-bench Lite sample and beats chance', async () => {
    const items = (await loadSwebenchRows(p as string)).map(toFlItem);
    const provider = createBm25Provider('');
    let hits = 0;
    for (const item of items) {
      const r = await provider.generate({ messages: [], item }, { signal: new AbortController().signal });
      expect(item.tree).toContain(r.text);
      if (r.text === item.gold_path) hits++;
    }
    // Chance is 1/|tree| ≈ 1% on these trees (75–257 files); 5 hits of 26 is a loose floor.
    expect(hits).toBeGreaterThanOrEqual(5);
    // "Raise error when blueprint name contains a dot" → src/flask/blueprints.py (checked by hand).
    const flask = items.find((i) => i.id === 'pallets__flask-4045')!;
    const r = await provider.generate(
      { messages: [], item: flask },
      { signal: new AbortController().signal },
    );
    expect(r.text).toBe('src/flask/blueprints.py');
  });
});
