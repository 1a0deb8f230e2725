/** Forgeries from the code under test (packages/harness/testing/forgery.ts), for the languages of share 'c-cpp-js'. */
import { afterAll, beforeAll, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDocker } from '@faun/services';
import { FORGERY_SHARES, forgeryCase, forgeryTitle } from '../../testing/forgery.ts';

let root = '';
beforeAll(async () => {
  await ensureDocker();
  root = mkdtempSync(join(tmpdir(), 'faun-forgery-'));
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

for (const lang of FORGERY_SHARES['c-cpp-js']!)
  test(forgeryTitle(lang), () => forgeryCase(lang, root), 900_000);
