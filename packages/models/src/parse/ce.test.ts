import { describe, expect, test } from 'bun:test';
import { sharedPath } from '@faun/kit';
import {
  applySearchReplace,
  deriveSearchReplace,
  formatSearchReplace,
  parseSearchReplace,
} from '@faun/metrics';
import type { CeItem } from '@faun/schema';
import { testIssue } from '@faun/schema/testing';
import { loadSwebenchRows, toCeItem } from '../../testing/swebench.ts';
import { checkOutput } from './inspect.ts';

const item: CeItem = {
  ...testIssue('o/r#1'),
  task: 'ce',
  base_commit: null,
  pr_number: null,
  pr_title: '',
  pr_body: '',
  path: 'pkg/mod.py',
  file_before: 'def f(x):\n    return x\n',
  file_after: 'def f(x):\n    return x + 1\n',
  gold_patch: '',
};

describe('CE output check', () => {
  test('a fenced answer with prose around it is parsed and applied exactly', () => {
    const out =
      'Fix:\n```python\npkg/mod.py\n<<<<<<< SEARCH\n    return x\n=======\n    return x + 1\n>>>>>>> REPLACE\n```\n';
    const c = checkOutput(item, out);
    expect(c.reason).toBeNull();
    expect(c.wellFormed).toBe(true);
    expect(c.data).toEqual({ blocks: 1, applied: 1, matches: ['exact'], exact: true });
  });

  test('malformed or non-applying output is kept with the reason', () => {
    expect(checkOutput(item, '')).toEqual({ wellFormed: false, data: { blocks: 0 }, reason: 'empty output' });
    expect(checkOutput(item, 'just change it').reason).toBe('no SEARCH/REPLACE blocks');
    const open = checkOutput(item, '<<<<<<< SEARCH\n    return x\n');
    expect(open.reason).toContain("line 1: block has no '=======' divider");
    const missing = checkOutput(
      item,
      '<<<<<<< SEARCH\n    return y\n=======\n    return 0\n>>>>>>> REPLACE\n',
    );
    expect(missing.wellFormed).toBe(false);
    expect(missing.reason).toStartWith('block 1: no match');
    const other = checkOutput(
      item,
      'x.py\n<<<<<<< SEARCH\n    return x\n=======\n    return 2\n>>>>>>> REPLACE\n',
    );
    expect(other.reason).toBe('a block names another file: x.py');
  });
});

describe('gold SEARCH/REPLACE blocks', () => {
  test('context grows until each SEARCH part is unique', () => {
    const before = ['a', 'x', 'a', 'x', 'a', 'x', 'a', 'x', 'b', ''].join('\n');
    const after = ['a', 'x', 'a', 'x', 'a', 'x', 'a', 'y', 'b', ''].join('\n');
    const derived = deriveSearchReplace(before, after, 'f.txt');
    if (!derived.ok) throw new Error(derived.reason);
    const parsed = parseSearchReplace(formatSearchReplace(derived.blocks));
    expect(parsed.problems).toEqual([]);
    const r = applySearchReplace(before, parsed.blocks);
    expect(r.matches).toEqual(['exact']);
    expect(r.result).toBe(after);
  });

  const p = sharedPath('data/swebench-lite/with-files.jsonl');
  test.skipIf(p === null)(
    'on the SWE-bench Lite sample gold blocks apply exactly and broken ones say why',
    async () => {
      const rows = await loadSwebenchRows(p as string);
      expect(rows.length).toBeGreaterThan(20);
      for (const row of rows) {
        const ce = toCeItem(row);
        const gold = checkOutput(ce, ce.gold_patch);
        expect(gold.reason).toBeNull();
        expect(gold.data.exact).toBe(true);
        expect((gold.data.matches as string[]).every((m) => m === 'exact')).toBe(true);
        const { blocks } = parseSearchReplace(ce.gold_patch);
        // Change one character of the first block's SEARCH part: it no longer applies, and the check says so.
        const broken = formatSearchReplace([
          { ...blocks[0]!, search: `${blocks[0]!.search}#` },
          ...blocks.slice(1),
        ]);
        const b = checkOutput(ce, broken);
        expect(b.wellFormed).toBe(false);
        expect(b.reason).toStartWith('block 1: no match');
        expect(b.data.exact).toBe(false);
      }
    },
  );
});
