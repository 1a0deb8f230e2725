import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { sharedPath } from '@faun/kit';
import { applySearchReplace } from './apply.ts';
import { deriveSearchReplace } from './derive.ts';
import {
  formatSearchReplace,
  isMarkerLine,
  parseSearchReplace,
  type SearchReplaceBlock,
} from './search-replace.ts';

const block = (search: string, replace: string, path: string | null = null): SearchReplaceBlock => ({
  path,
  search,
  replace,
  line: 0,
});

interface Row {
  instance_id: string;
  files_before: Record<string, string>;
  files_after: Record<string, string>;
}
const jsonl = <T>(path: string): T[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

/** derive → format (fenced, with prose) → parse → apply; the reason when no blocks can be derived. */
function roundTrip(path: string, before: string, after: string): string | null {
  const d = deriveSearchReplace(before, after, path);
  if (!d.ok) return d.reason;
  const parsed = parseSearchReplace(`Here is the fix:\n\n${formatSearchReplace(d.blocks, { fence: true })}`);
  expect(parsed.problems).toEqual([]);
  expect(parsed.blocks.map(({ line: _l, ...b }) => b)).toEqual(d.blocks.map(({ line: _l, ...b }) => b));
  const res = applySearchReplace(before, parsed.blocks);
  expect(res.failures).toEqual([]);
  expect(res.matches.every((m) => m === 'exact' || m === 'create')).toBe(true);
  expect(res.result === after).toBe(true);
  return null;
}

/** A whole file as one block's SEARCH and REPLACE parts comes back byte for byte unless it has marker lines. */
function wholeFileSurvives(before: string, after: string): boolean {
  const parsed = parseSearchReplace(formatSearchReplace([block(before, after, 'f')]));
  return (
    parsed.problems.length === 0 && parsed.blocks[0]?.search === before && parsed.blocks[0]?.replace === after
  );
}
const hasMarker = (text: string) => text.split('\n').some(isMarkerLine);

describe('round trip on SWE-bench Lite files and the CodeBLEU dev vectors', () => {
  const rowsPath = sharedPath('data/swebench-lite/with-files.jsonl');
  test.skipIf(rowsPath === null)(
    'every changed file of every row: derive → format → parse → apply gives files_after exactly',
    () => {
      const rows = jsonl<Row>(rowsPath!);
      let files = 0;
      for (const r of rows)
        for (const [path, before] of Object.entries(r.files_before)) {
          const after = r.files_after[path] ?? '';
          expect(wholeFileSurvives(before, after), `${r.instance_id} ${path}`).toBe(
            !hasMarker(before) && !hasMarker(after),
          );
          expect(roundTrip(path, before, after), `${r.instance_id} ${path}`).toBeNull();
          files++;
        }
      expect(files).toBe(26);
    },
  );
  const devPath = sharedPath('data/metrics/codebleu-dev.jsonl');
  test.skipIf(devPath === null)(
    'every dev code vector (ref → hyp and back) round-trips or says which marker line stops it',
    () => {
      const rows = jsonl<{ hyp: string; ref: string }>(devPath!);
      const reasons = new Map<string, number>();
      let pairs = 0;
      for (const [i, r] of rows.entries())
        for (const [before, after] of [
          [r.ref, r.hyp],
          [r.hyp, r.ref],
        ] as const) {
          expect(wholeFileSurvives(before, after), `codebleu-dev.jsonl:${i + 1}`).toBe(
            !hasMarker(before) && !hasMarker(after),
          );
          const why = roundTrip('x', before, after);
          if (why !== null) reasons.set(why, (reasons.get(why) ?? 0) + 1);
          pairs++;
        }
      expect(pairs).toBe(2 * rows.length);
      expect(Object.fromEntries(reasons)).toEqual({});
    },
  );
});

describe('the marker rule', () => {
  test('markers are alone on their line, in column 0, 5 to 9 characters long', () => {
    for (const l of [
      '=======',
      '=====',
      '=========',
      '======= ',
      '=======\r',
      '<<<<<<< SEARCH',
      '<<<<<<<SEARCH',
      '>>>>>>> REPLACE',
      '>>>>> REPLACE  ',
    ])
      expect(isMarkerLine(l), JSON.stringify(l)).toBe(true);
    for (const l of [
      '    ========',
      ' =======',
      '\t=======',
      '====',
      '==========',
      '======= x',
      '  <<<<<<< SEARCH',
      '<<<<<<< SEARCH x',
      'a =======',
    ])
      expect(isMarkerLine(l), JSON.stringify(l)).toBe(false);
  });
  test('indented marker-like lines inside a block are content', () => {
    const text =
      'f.py\n<<<<<<< SEARCH\n    Examples\n    ========\n=======\n    Examples\n    --------\n>>>>>>> REPLACE\n';
    const { blocks, problems } = parseSearchReplace(text);
    expect(problems).toEqual([]);
    expect(blocks.map((b) => [b.search, b.replace])).toEqual([
      ['    Examples\n    ========', '    Examples\n    --------'],
    ]);
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
  /** One block replacing `search` by `replace` in `file`. */
  const replaceOnce = (search: string, replace: string) => applySearchReplace(file, [block(search, replace)]);
  test('exact match', () => {
    const r = replaceOnce('    def g(self):\n        return 2', '    def g(self):\n        return 3');
    expect(r).toMatchObject({ ok: true, applied: 1, matches: ['exact'] });
    expect(r.result).toBe(file.replace('return 2', 'return 3'));
  });
  test('trailing whitespace is tolerated', () => {
    const r = replaceOnce('        x = 1\n        return x', '        x = 2\n        return x');
    expect(r.matches).toEqual(['rstrip']);
    expect(r.result).toBe(
      'class A:\n    def f(self):\n        x = 2\n        return x\n\n    def g(self):\n        return 2\n',
    );
  });
  test('indentation is tolerated and the replacement re-indented', () => {
    const r = replaceOnce(
      'def g(self):\n    return 2',
      'def g(self):\n    if True:\n        return 3\nreturn_label = 0',
    );
    expect(r.matches).toEqual(['indent']);
    expect(r.result).toBe(
      'class A:\n    def f(self):\n        x = 1  \n        return x\n\n    def g(self):\n        if True:\n            return 3\n    return_label = 0\n',
    );
  });
  test('relative indentation must still agree', () => {
    const r = replaceOnce('def g(self):\nreturn 2', 'x');
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
    const r = replaceOnce('    def f(self):\n        y = 1', 'z');
    expect(r.failures[0]?.reason).toContain("first SEARCH line ('def f(self):') is in the file");
  });
  test('empty search creates an empty file', () => {
    expect(applySearchReplace('', [block('', 'hello\n')]).result).toBe('hello\n');
  });
});
