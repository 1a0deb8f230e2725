/** Database paths for a test file: all in one temporary folder, made before its tests and removed after. */
import { afterAll, beforeAll } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folder (set once the file's tests start) and a new path `<stem><n>.duckdb` in it at each call. */
export interface TempDbs {
  readonly dir: string;
  fresh(): string;
}

/** Registers the folder's hooks: made before the file's tests, removed after them. */
export function tempDbs(prefix: string, stem: string): TempDbs {
  let n = 0;
  const t = {
    dir: '',
    fresh: () => join(t.dir, `${stem}${n++}.duckdb`),
  };
  beforeAll(async () => {
    t.dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(() => rm(t.dir, { recursive: true, force: true }));
  return t;
}
