/** The crawler's ETag cache in the store file: keyed by (identity, URL), persistent, batched. */
import { afterEach, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from './store.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

test('answers are kept per identity, survive a reopen, and are not part of the content hash', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'faun-etags-'));
  dirs.push(dir);
  const file = join(dir, 's.duckdb');
  let s = await Store.open(file);
  const hash = await s.contentHash();
  const c = s.etags();
  for (let i = 0; i < 600; i++)
    await c.set('user:alice', `https://api/x/${i}`, {
      etag: `W/"${i}"`,
      data: [{ i }],
      headers: { link: 'l' },
    });
  expect(await c.get('user:bob', 'https://api/x/1')).toBeUndefined();
  expect(await s.contentHash()).toBe(hash);
  await s.close();
  s = await Store.open(file);
  expect(await s.etags().size()).toBe(600);
  expect(await s.etags().get('user:alice', 'https://api/x/599')).toEqual({
    etag: 'W/"599"',
    data: [{ i: 599 }],
    headers: { link: 'l' },
  });
  await s.close();
});
