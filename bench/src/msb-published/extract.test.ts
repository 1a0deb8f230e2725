import { expect, test } from 'bun:test';
import { InputError } from '@faun/kit';
import { type Pointer, readPointers, selectRows } from './extract.ts';

const ptr = (id: string, sha: string): Pointer => ({
  dataset: 'acme/bench',
  commit: 'c'.repeat(40),
  path: 'data/acme.jsonl',
  instance_id: id,
  repo: 'acme/widgets',
  pr: 1,
  base_sha: sha,
});
const line = (id: string, sha: string) => JSON.stringify({ instance_id: id, base: { sha } });

test('the pointed rows, in the pointers’ order, their bases checked', () => {
  const text = [line('a-1', '1'), line('a-2', '2'), line('a-3', '3')].join('\n');
  expect(selectRows(text, [ptr('a-3', '3'), ptr('a-1', '1')], 'f')).toEqual([
    line('a-3', '3'),
    line('a-1', '1'),
  ]);
  expect(() => selectRows(text, [ptr('a-9', '9')], 'f')).toThrow('f: no row a-9');
  expect(() => selectRows(text, [ptr('a-2', '7')], 'f')).toThrow(InputError);
});

test('a pointer without its commit is an error naming the line', () => {
  const good = JSON.stringify(ptr('a-1', '1'));
  expect(() =>
    readPointers(`${good}\n${JSON.stringify({ ...ptr('a-2', '2'), commit: 'abc' })}`, 'p'),
  ).toThrow('p:2: commit: expected a 40-hex sha');
  expect(readPointers(`${good}\n`, 'p')).toHaveLength(1);
});
