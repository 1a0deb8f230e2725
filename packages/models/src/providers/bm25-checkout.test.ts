import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRepoDirs } from '@faun/kit';
import { checkoutContents } from './bm25.ts';

const dir = mkdtempSync(join(tmpdir(), 'faun-repodirs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('bm25 reads checkout contents of --repo-dir repositories, in any case', () => {
  mkdirSync(join(dir, 'flask'));
  writeFileSync(join(dir, 'flask/app.py'), 'flask app');
  const read = checkoutContents(parseRepoDirs([`Pallets/Flask=${join(dir, 'flask')}`]));
  expect(read('pallets/flask', 'app.py')).toBe('flask app');
  expect(read('Pallets/Flask', 'missing.py')).toBeUndefined();
  expect(read('other/repo', 'app.py')).toBeUndefined();
});
