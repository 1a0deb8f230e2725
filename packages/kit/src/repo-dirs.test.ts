import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from './errors.ts';
import { parseRepoDirs, repoDirOf } from './repo-dirs.ts';

const dir = mkdtempSync(join(tmpdir(), 'faun-repo-dirs-'));
mkdirSync(join(dir, 'flask'));
mkdirSync(join(dir, 'req'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--repo-dir owner/repo=PATH', () => {
  test('repositories are keyed lower-case and looked up in any case', () => {
    const d = parseRepoDirs([`Pallets/Flask=${join(dir, 'flask')}`, `psf/requests=${join(dir, 'req')}`]);
    expect(d).toEqual({ 'pallets/flask': join(dir, 'flask'), 'psf/requests': join(dir, 'req') });
    expect(repoDirOf(d, 'pallets/flask')).toBe(join(dir, 'flask'));
    expect(repoDirOf(d, 'PSF/Requests')).toBe(join(dir, 'req'));
    expect(repoDirOf(d, 'other/repo')).toBeNull();
    // A map built in code with mixed-case keys is looked up the same way.
    expect(repoDirOf({ 'Acme/W': '/w' }, 'acme/w')).toBe('/w');
    expect(parseRepoDirs([])).toEqual({});
  });
  test('bad values are usage errors (exit 2) naming the value', () => {
    const cases: Array<[string[], string]> = [
      [['flask=/tmp'], '--repo-dir "flask=/tmp": expected owner/repo=PATH'],
      [['o/r='], '--repo-dir "o/r=": expected owner/repo=PATH'],
      [[dir], `--repo-dir ${JSON.stringify(dir)}: expected owner/repo=PATH`],
      [[`o/r=${join(dir, 'nope')}`], `--repo-dir o/r=${join(dir, 'nope')}: directory does not exist`],
      [[`o/r=${dir}`, `O/R=${dir}`], '--repo-dir: O/R is given twice'],
    ];
    for (const [values, message] of cases) {
      let err: unknown;
      try {
        parseRepoDirs(values);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).message).toBe(message);
      expect((err as UsageError).exitCode).toBe(2);
    }
  });
});
