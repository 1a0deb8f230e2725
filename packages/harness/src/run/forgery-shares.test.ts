import { expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURE_LANGUAGES } from '../../testing/fixtures.ts';
import { FORGERY_SHARES } from '../../testing/forgery.ts';

test('the forgery files cover every fixture language once, each share in a file of its name', () => {
  const langs = Object.values(FORGERY_SHARES).flat();
  expect([...langs].sort()).toEqual([...FIXTURE_LANGUAGES].sort());
  expect(new Set(langs).size).toBe(langs.length);
  for (const name of Object.keys(FORGERY_SHARES))
    expect({ name, file: existsSync(join(import.meta.dir, `forgery-${name}.int.test.ts`)) }).toEqual({
      name,
      file: true,
    });
});
