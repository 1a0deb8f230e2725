/**
 * A fresh PGlite database costs seconds (initdb inside WebAssembly); loading a saved copy of a freshly
 * migrated one costs a fraction of that. The first fresh database of a machine is saved as a template
 * in the cache (`FAUN_CACHE_DIR`, else `~/.cache/faun`), keyed by the PGlite version and the migrations,
 * and later fresh databases (a new folder, `memory://`) start from it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The cache file of the template for these migrations, or null when caching is off (FAUN_PGLITE_TEMPLATE=0). */
export function templatePath(migrations: string, env = process.env): string | null {
  if (env.FAUN_PGLITE_TEMPLATE === '0') return null;
  const h = createHash('sha256');
  try {
    const pkg = readFileSync(
      join(import.meta.dir, '../../node_modules/@electric-sql/pglite/package.json'),
      'utf8',
    );
    h.update(String((JSON.parse(pkg) as { version?: string }).version));
  } catch {
    h.update('unknown');
  }
  for (const f of readdirSync(migrations).sort())
    if (f.endsWith('.sql')) h.update(f).update(readFileSync(join(migrations, f)));
  h.update(readFileSync(join(migrations, 'meta', '_journal.json')));
  const root = env.FAUN_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'faun');
  return join(root, 'pglite', `template-${h.digest('hex').slice(0, 16)}.tar.gz`);
}

/** True when `dir` holds no PGlite database yet (absent, empty, or without PG_VERSION). */
export function isFresh(dir: string): boolean {
  return dir === 'memory://' || !existsSync(join(dir, 'PG_VERSION'));
}

/** The saved template, or null. */
export function readTemplate(path: string | null): Blob | null {
  if (!path || !existsSync(path)) return null;
  try {
    return new Blob([readFileSync(path)]);
  } catch {
    return null;
  }
}

/** Saves a template atomically; failures are ignored (the cache is an optimisation). */
export function saveTemplate(path: string, data: Uint8Array): void {
  try {
    mkdirSync(join(path, '..'), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch {
    // read-only home or full disk: start without a template next time
  }
}

/** Forgets a template that failed to load. */
export function dropTemplate(path: string | null): void {
  if (path) rmSync(path, { force: true });
}
