import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { sharedPath } from '@faun/kit';
import { applySearchReplace } from './apply.ts';
import { formatSearchReplace, parseSearchReplace, type SearchReplaceBlock } from './search-replace.ts';

const block = (search: string, replace: string, path: string | null = null): SearchReplaceBlock => ({
  path,
  search,
  replace,
  line: 0,
});

/** One block per file from a common-prefix/suffix line diff, widened until its SEARCH is unique. */
function deriveBlock(path: string, before: string, after: string): SearchReplaceBlock | null {
  const a = before.split('\n');
  const b = after.split('\n');
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf])
    suf++;
  for (let ctx = 1; ctx <= a.length; ctx *= 2) {
    const lo = Math.max(0, pre - ctx);
    const search = a.slice(lo, Math.min(a.length, a.length - suf + ctx));
    const replace = b.slice(lo, Math.min(b.length, b.length - suf + ctx));
    const s = search.join('\n');
    const unique =
      before.split('\n').filter((_, i) => a.slice(i, i + search.length).join('\n') === s).length === 1;
    if (unique && search.length > 0 && !(replace.length === 1 && replace[0] === ''))
      return block(s, replace.join('\n'), path);
  }
  return null;
}

const MARKER = /^\s*(<{5,9} ?SEARCH|={5,9}|>{5,9} ?REPLACE)\s*$/m;

describe('round trip on SWE-bench Lite files', () => {
  const file = sharedPath('data/swebench-lite/with-files.jsonl');
  test.skipIf(file === null)('derive → format → parse → apply gives files_after exactly', () => {
    const rows = readFileSync(file!, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map(
        (l) =>
          JSON.parse(l) as {
            instance_id: string;
            files_before: Record<string, string>;
            files_after: Record<string, string>;
          },
      );
    let files = 0;
    for (const r of rows) {
      const blocks: SearchReplaceBlock[] = [];
      for (const [path, before] of Object.entries(r.files_before)) {
        const after = r.files_after[path];
        if (after === undefined || after === before || MARKER.test(before) || MARKER.test(after)) continue;
        const b = deriveBlock(path, before, after);
        expect(b, `${r.instance_id} ${path}`).not.toBeNull();
        blocks.push(b!);
      }
      const text = `Here is the fix:\n\n${formatSearchReplace(blocks, { fence: true })}`;
      const parsed = parseSearchReplace(text);
      expect(parsed.problems).toEqual([]);
      expect(parsed.blocks.map(({ line: _l, ...b }) => b)).toEqual(blocks.map(({ line: _l, ...b }) => b));
      for (const b of parsed.blocks) {
        const res = applySearchReplace(r.files_before[b.path!]!, [b]);
        expect(res.failures).toEqual([]);
        expect(res.matches).toEqual(['exact']);
        expect(res.result === r.files_after[b.path!]).toBe(true);
        files++;
      }
    }
    expect(files).toBeGreaterThan(20);
  });
});

describe('parseSearchReplace', () => {
  test('paths, fences, inherited path, CRLF markers', () => {
    const text = [
      'Change the function:',
      'src/app.py',
      '```python',
      '<<<<<<< SEARCH',
      'def f():',
      '    return 1',
      '=======',
      'def f():',
      '    return 2',
      '>>>>>>> REPLACE',
      '```',
      '<<<<<<< SEARCH\r',
      'x = 1\r',
      '=======\r',
      '>>>>>>> REPLACE\r',
      '**`lib/other.py`**:',
      '<<<<<<< SEARCH',
      '=======',
      'new file',
      '>>>>>>> REPLACE',
    ].join('\n');
    const { blocks, problems } = parseSearchReplace(text);
    expect(problems).toEqual([]);
    expect(blocks.map((b) => [b.path, b.search, b.replace, b.line])).toEqual([
      ['src/app.py', 'def f():\n    return 1', 'def f():\n    return 2', 4],
      ['src/app.py', 'x = 1\r', '', 12],
      ['lib/other.py', '', 'new file', 17],
    ]);
  });
  test('broken blocks are reported with their line and reason', () => {
    const missingDivider = parseSearchReplace('<<<<<<< SEARCH\na\n>>>>>>> REPLACE\n');
    expect(missingDivider.blocks).toEqual([]);
    expect(missingDivider.problems[0]).toEqual({
      line: 1,
      problem: "block has no '=======' divider after its SEARCH section",
    });
    const unclosed = parseSearchReplace('x.py\n<<<<<<< SEARCH\na\n=======\nb\n');
    expect(unclosed.problems).toEqual([{ line: 2, problem: "block is not closed with '>>>>>>> REPLACE'" }]);
    const stray = parseSearchReplace('=======\n');
    expect(stray.problems[0]?.problem).toContain('outside a block');
    const nested = parseSearchReplace('<<<<<<< SEARCH\na\n<<<<<<< SEARCH\nb\n=======\nc\n>>>>>>> REPLACE\n');
    expect(nested.blocks.map((b) => b.search)).toEqual(['b']);
    expect(nested.problems.map((p) => p.line)).toEqual([1]);
  });
  test('format is canonical and parses back', () => {
    const blocks = [block('a\nb', 'c', 'x.py'), block('', 'new')];
    const text = formatSearchReplace(blocks);
    expect(text).toBe(
      'x.py\n<<<<<<< SEARCH\na\nb\n=======\nc\n>>>>>>> REPLACE\n\n<<<<<<< SEARCH\n=======\nnew\n>>>>>>> REPLACE\n',
    );
    expect(parseSearchReplace(text).blocks.map((b) => [b.path, b.search, b.replace])).toEqual([
      ['x.py', 'a\nb', 'c'],
      ['x.py', '', 'new'],
    ]);
  });
});

describe('applySearchReplace', () => {
  const file =
    'class A:\n    def f(self):\n        x = 1  \n        return x\n\n    def g(self):\n        return 2\n';
  test('exact match', () => {
    const r = applySearchReplace(file, [
      block('    def g(self):\n        return 2', '    def g(self):\n        return 3'),
    ]);
    expect(r).toMatchObject({ ok: true, applied: 1, matches: ['exact'] });
    expect(r.result).toBe(file.replace('return 2', 'return 3'));
  });
  test('trailing whitespace is tolerated', () => {
    const r = applySearchReplace(file, [
      block('        x = 1\n        return x', '        x = 2\n        return x'),
    ]);
    expect(r.matches).toEqual(['rstrip']);
    expect(r.result).toBe(
      'class A:\n    def f(self):\n        x = 2\n        return x\n\n    def g(self):\n        return 2\n',
    );
  });
  test('indentation is tolerated and the replacement re-indented', () => {
    const r = applySearchReplace(file, [
      block('def g(self):\n    return 2', 'def g(self):\n    if True:\n        return 3\nreturn_label = 0'),
    ]);
    expect(r.matches).toEqual(['indent']);
    expect(r.result).toBe(
      'class A:\n    def f(self):\n        x = 1  \n        return x\n\n    def g(self):\n        if True:\n            return 3\n    return_label = 0\n',
    );
  });
  test('relative indentation must still agree', () => {
    const r = applySearchReplace(file, [block('def g(self):\nreturn 2', 'x')]);
    expect(r.ok).toBe(false);
    expect(r.failures[0]?.reason).toContain('no match');
  });
  test('ambiguous, missing and empty searches fail with a reason; other blocks still apply', () => {
    const text = 'a\nb\na\nc\n';
    const r = applySearchReplace(text, [block('a', 'z'), block('q', 'z'), block('c', 'd'), block('', 'x')]);
    expect(r.ok).toBe(false);
    expect(r.applied).toBe(1);
    expect(r.result).toBe('a\nb\na\nd\n');
    expect(r.failures.map((f) => [f.index, f.reason.split(':')[0]])).toEqual([
      [0, 'ambiguous'],
      [1, 'no match'],
      [3, 'empty SEARCH section on a non-empty file; quote the lines to change'],
    ]);
  });
  test('a near miss says which line differs', () => {
    const r = applySearchReplace(file, [block('    def f(self):\n        y = 1', 'z')]);
    expect(r.failures[0]?.reason).toContain("first SEARCH line ('def f(self):') is in the file");
  });
  test('empty search creates an empty file', () => {
    expect(applySearchReplace('', [block('', 'hello\n')]).result).toBe('hello\n');
  });
});
