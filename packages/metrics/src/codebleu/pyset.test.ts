/**
 * CPython 3.11's str hash and set order under PYTHONHASHSEED=0. Expected values were printed by
 * `PYTHONHASHSEED=0 python3` 3.11.2 (`hash(s)`, `list(set(xs))`) for these made-up names.
 */
import { expect, test } from 'bun:test';
import { pySetList, pyStrHash } from './pyset.ts';

test('hash(str) under seed 0: Latin-1, UCS-2 and UCS-4 storage, the empty string', () => {
  expect(pyStrHash('abc')).toBe(-4594863902769663758n);
  expect(pyStrHash('a')).toBe(4644417185603328019n);
  expect(pyStrHash('')).toBe(0n);
  expect(pyStrHash('é')).toBe(6047309291227476195n);
  expect(pyStrHash('ab€')).toBe(-6661611623252364461n);
  expect(pyStrHash('x😀')).toBe(-4086645887891144435n);
});

test('list(set(xs)) under seed 0: slot order, duplicates dropped, tables grown past 60% full', () => {
  const cases: [string[], string[]][] = [
    [
      ['b', 'a'],
      ['a', 'b'],
    ],
    [
      ['a', 'b'],
      ['a', 'b'],
    ],
    [
      ['end', 'index', 'endIndex', 'returnValue', 'res'],
      ['res', 'endIndex', 'end', 'index', 'returnValue'],
    ],
    [
      ['x', 'y', 'x', 'z', 'w', 'v'],
      ['y', 'x', 'z', 'v', 'w'],
    ],
    [
      ['v0', 'v1', 'v2', 'v3', 'v4', 'v5', 'v6', 'v7', 'v8', 'v9', 'v10', 'v11'],
      ['v8', 'v10', 'v11', 'v3', 'v2', 'v6', 'v1', 'v0', 'v4', 'v5', 'v9', 'v7'],
    ],
    [
      // 14 names: the table grows from 8 to 32 slots at the fifth
      ['i', 'j', 'k', 'n', 'm', 'total', 'count', 'item', 'value', 'key', 'result', 'data', 'node', 'left'],
      ['key', 'n', 'count', 'k', 'node', 'i', 'm', 'value', 'left', 'data', 'j', 'result', 'total', 'item'],
    ],
    [
      ['right', 'acc', 'é', 'λ', '😀', 'value', 'data'],
      ['é', 'λ', '😀', 'right', 'value', 'acc', 'data'],
    ],
  ];
  for (const [xs, want] of cases) expect(pySetList(xs)).toEqual(want);
  expect(pySetList([])).toEqual([]);
  expect(pySetList(['only'])).toEqual(['only']);
  expect(pySetList(['same', 'same'])).toEqual(['same']);
});
