import { expect, test } from 'bun:test';
import { UsageError } from '@faun/kit';
import { parseFlags, pickFlags } from './args.ts';

const FLAGS = { entries: 100, 'durable-entries': 5, out: undefined };

test('flags: defaults, both value forms, numbers checked', () => {
  expect(parseFlags('x', [], FLAGS)).toEqual({ entries: 100, 'durable-entries': 5, out: undefined });
  expect(parseFlags('x', ['--entries', '7', '--durable-entries=0', '--out', 'd'], FLAGS)).toEqual({
    entries: 7,
    'durable-entries': 0,
    out: 'd',
  });
});

test('a mistyped flag or a bad number is a usage error, never a silent default', () => {
  for (const args of [['--entires', '7'], ['--entries', 'many'], ['--entries'], ['stray']]) {
    let err: unknown;
    try {
      parseFlags('x', args, FLAGS);
    } catch (e) {
      err = e;
    }
    expect(err, args.join(' ')).toBeInstanceOf(UsageError);
  }
});

test('pickFlags keeps one benchmark’s flags with their values', () => {
  expect(pickFlags(['--entries', '7', '--seconds', '2', '--out=d'], ['entries', 'out'])).toEqual([
    '--entries',
    '7',
    '--out=d',
  ]);
});

test('a switch takes no value: pickFlags leaves the next token alone, parseFlags reads it as true', () => {
  const flags = { fresh: false, out: undefined };
  expect(parseFlags('x', [], flags)).toEqual({ fresh: false, out: undefined });
  expect(parseFlags('x', ['--fresh', '--out', 'd'], flags)).toEqual({ fresh: true, out: 'd' });
  expect(pickFlags(['--fresh', '--out', 'd', '--n', '1'], ['fresh', 'out'], ['fresh'])).toEqual([
    '--fresh',
    '--out',
    'd',
  ]);
});
