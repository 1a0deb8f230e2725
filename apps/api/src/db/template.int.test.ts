/** Fresh PGlite databases start from a saved, migrated template after the first one. */
import { expect, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createKey, listKeys } from '../service/keys.ts';
import { openDatabase } from './open.ts';
import { templatePath } from './template.ts';

test('the first fresh database saves a template; later fresh ones load it and are empty and migrated', async () => {
  const cache = mkdtempSync(join(tmpdir(), 'faun-pglite-tpl-'));
  const before = process.env.FAUN_CACHE_DIR;
  process.env.FAUN_CACHE_DIR = cache;
  try {
    const tpl = templatePath(resolve(import.meta.dir, '../../drizzle'));
    expect(tpl?.startsWith(cache)).toBe(true);
    const lines: string[] = [];
    const a = await openDatabase(join(cache, 'a'), { progress: (l) => lines.push(l) });
    await createKey(a.db, { name: 'only-in-a' });
    await a.close();
    expect(existsSync(tpl!)).toBe(true);
    expect(lines.some((l) => l.startsWith('creating a new database'))).toBe(true);
    lines.length = 0;
    for (const target of [join(cache, 'b'), 'memory://']) {
      const b = await openDatabase(target, { progress: (l) => lines.push(l) });
      try {
        expect(await listKeys(b.db)).toEqual([]);
        await createKey(b.db, { name: 'in-b' });
        expect((await listKeys(b.db)).map((k) => k.name)).toEqual(['in-b']);
      } finally {
        await b.close();
      }
    }
    expect(lines.some((l) => l.startsWith('creating a new database'))).toBe(false);
    expect(lines.filter((l) => l.startsWith('database ready')).length).toBe(2);
  } finally {
    if (before === undefined) delete process.env.FAUN_CACHE_DIR;
    else process.env.FAUN_CACHE_DIR = before;
    rmSync(cache, { recursive: true, force: true });
  }
}, 60_000);
