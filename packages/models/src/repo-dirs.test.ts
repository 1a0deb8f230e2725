import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkoutContents } from './providers/bm25.ts';
import { parseRepoDirs, repoDirOf } from './repo-dirs.ts';

const dir = mkdtempSync(join(tmpdir(), 'faun-repodirs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--repo-dir', () => {
  test('owner/repo=PATH is repeatable and case-insensitive on the repository', () => {
    mkdirSync(join(dir, 'flask'));
    mkdirSync(join(dir, 'req'));
    writeFileSync(join(dir, 'flask/app.py'), 'flask app');
    const d = parseRepoDirs([`Pallets/Flask=${join(dir, 'flask')}`, `psf/requests=${join(dir, 'req')}`]);
    expect(d.root).toBeNull();
    expect(repoDirOf(d, 'pallets/flask')).toBe(join(dir, 'flask'));
    expect(repoDirOf(d, 'psf/requests')).toBe(join(dir, 'req'));
    expect(repoDirOf(d, 'other/repo')).toBeNull();
    const read = checkoutContents(d);
    expect(read('pallets/flask', 'app.py')).toBe('flask app');
    expect(read('other/repo', 'app.py')).toBeUndefined();
  });

  test('the older DIR/<owner>/<name> form works alone and only alone', () => {
    mkdirSync(join(dir, 'root/o/r'), { recursive: true });
    writeFileSync(join(dir, 'root/o/r/x.py'), 'x');
    const d = parseRepoDirs([join(dir, 'root')]);
    expect(repoDirOf(d, 'o/r')).toBe(join(dir, 'root/o/r'));
    expect(checkoutContents(d)('o/r', 'x.py')).toBe('x');
    expect(() => parseRepoDirs([join(dir, 'root'), `o/r=${join(dir, 'flask')}`])).toThrow(
      "without 'owner/repo=' can only be given alone",
    );
  });

  test('bad values and missing directories are usage errors', () => {
    expect(() => parseRepoDirs(['flask=/tmp'])).toThrow('expected owner/repo=PATH');
    expect(() => parseRepoDirs(['o/r='])).toThrow('expected owner/repo=PATH');
    expect(() => parseRepoDirs([`o/r=${join(dir, 'nope')}`])).toThrow('directory does not exist');
    expect(() => parseRepoDirs([`o/r=${dir}`, `O/R=${dir}`])).toThrow('O/R is given twice');
  });
});
