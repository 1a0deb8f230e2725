/** Locations: the workspace root and the shared reference data beside it (`../shared`). */
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { InputError } from './errors.ts';

/** The faun workspace root (the folder with the root package.json). */
export const REPO_ROOT = resolve(import.meta.dir, '../../..');

/** `<root>/../shared`, overridable with FAUN_SHARED_DIR. */
export function sharedDir(): string {
  return process.env.FAUN_SHARED_DIR ?? resolve(REPO_ROOT, '..', 'shared');
}

/**
 * Path of a file under the shared reference data. When it is missing this throws a message saying so,
 * unless FAUN_NO_SHARED=1 is set, in which case it returns null (the caller then skips that check).
 */
export function sharedPath(rel: string): string | null {
  const p = join(sharedDir(), rel);
  if (existsSync(p)) return p;
  if (process.env.FAUN_NO_SHARED === '1') return null;
  throw new Error(
    `shared reference data missing: ${p} — this test needs ../shared/ beside the checkout ` +
      '(set FAUN_SHARED_DIR to its location, or FAUN_NO_SHARED=1 to skip the checks that need it)',
  );
}

/**
 * `root` joined with `parts`, refused (InputError naming `what`) unless it resolves to `root` itself or a path
 * below it: a name taken from input (an instance id, a model name, a repository) can never lead elsewhere.
 */
export function within(root: string, parts: string[], what = 'a name'): string {
  const base = resolve(root);
  const p = resolve(base, ...parts);
  const rel = relative(base, p);
  if (rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel))) return p;
  throw new InputError(`${what} '${parts.join('/')}' leads outside ${base}`, {
    hint: 'names from rows and predictions must not hold .. or absolute paths',
  });
}
