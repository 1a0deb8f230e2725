import { expect, test } from 'bun:test';
import { InputError } from './errors.ts';
import { within } from './paths.ts';

test('within: paths below the root pass, anything leading elsewhere is an input error', () => {
  expect(within('/r', ['a', 'b'])).toBe('/r/a/b');
  expect(within('/r/', ['..x', 'y'])).toBe('/r/..x/y');
  expect(within('/r', ['a/../b'])).toBe('/r/b');
  expect(within('/r', [])).toBe('/r');
  for (const parts of [['..'], ['../..'], ['a', '../../x'], ['/etc/passwd'], ['logs', '..', '..', 'x']])
    expect(() => within('/r', parts, 'instance id')).toThrow(InputError);
  expect(() => within('/r', ['../x'], 'instance id')).toThrow("instance id '../x' leads outside /r");
});
