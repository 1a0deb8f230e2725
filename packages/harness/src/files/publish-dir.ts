/** Cache entries shared by processes and queue jobs: built aside, published whole. */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Builds a cache entry in a folder of its own beside `dest` (`build` fills it) and publishes it by one rename,
 * so whoever shares the cache never reads an entry still being written nor sees one removed while in use. The
 * first rename wins: a later builder keeps the published entry and its own copy is removed. An entry `stale`
 * calls unfinished (left by a build stopped before this scheme) is removed before the rename.
 */
export async function buildAndPublish(
  dest: string,
  build: (dir: string) => Promise<void>,
  stale: (dest: string) => boolean = () => false,
): Promise<void> {
  await mkdir(dirname(dest), { recursive: true });
  const tmp = await mkdtemp(`${dest}.building-`);
  try {
    await build(tmp);
    if (existsSync(dest) && stale(dest)) await rm(dest, { recursive: true, force: true });
    try {
      await rename(tmp, dest);
    } catch (e) {
      if (!existsSync(dest) || stale(dest)) throw e;
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
