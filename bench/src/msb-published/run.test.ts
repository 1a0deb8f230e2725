import { expect, test } from 'bun:test';
import { firstError } from './run.ts';

test('firstError: the first compiler error of a build log, else its first error line', () => {
  const log = [
    '[INFO] Compiling 3 source files',
    '[ERROR] COMPILATION ERROR : ',
    '[ERROR] /w/src/main/java/a/B.java:[3,40] package x.y does not exist',
    '[ERROR] /w/src/main/java/a/C.java:[4,1] cannot find symbol',
  ].join('\n');
  expect(firstError(log)).toBe('/w/src/main/java/a/B.java:[3,40] package x.y does not exist');
  expect(firstError('[INFO] x\n[ERROR] Failed to execute goal g\n')).toBe('Failed to execute goal g');
  expect(firstError('all fine\n')).toBe('the log shows no error line');
});
