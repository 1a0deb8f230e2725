/**
 * Which prebuilt images a run may use (pure, plus reading and writing the lock file).
 *
 * - A row's own `image` is data the row's author chose: it is used only with `trustRows`, and only when it
 *   is in an allowed namespace (`imageAllow`, default `swebench/` and `mswebench/`); without `trustRows`
 *   the field is ignored and faun uses the image it names itself (or builds).
 * - Every prebuilt image is pinned by its content id: with an image lock file, an image whose id differs
 *   from the locked one (a tag that moved) is refused, and an image not in the lock is refused unless the
 *   lock is being updated (`updateImageLock`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { InputError } from '@faun/kit';
import { stableStringify, writeFileAtomic } from '@faun/schema';

export const DEFAULT_IMAGE_ALLOW = ['swebench/', 'mswebench/'];

/** `docker.io/` and `index.docker.io/` name Docker Hub's default registry: the same namespace. */
function canonical(image: string): string {
  return image
    .replace(/^(docker\.io|index\.docker\.io|registry-1\.docker\.io)\//, '')
    .replace(/^library\//, '');
}

/** Why a row's image may not be used (null: it may). */
export function rowImageProblem(image: string, allow: string[]): string | null {
  const name = canonical(image);
  if (!/^[a-z0-9][a-z0-9._\-/:@]*$/.test(name))
    return `row field image: '${image}' is not an image reference`;
  if (allow.some((p) => name.startsWith(canonical(p)))) return null;
  return `row field image: '${image}' is not in an allowed namespace (${allow.join(', ')}); add one with --image-allow PREFIX`;
}

export interface LockEntry {
  /** The image's content id (`docker image inspect` .Id). */
  id: string;
  /** Its registry digest (`name@sha256:…`, RepoDigests), when it came from a registry. */
  repo_digest: string | null;
}

export type ImageLock = Record<string, LockEntry>;

const ID = /^sha256:[0-9a-f]{64}$/;

/** Reads a lock file (`{ "<image>": { "id": "sha256:…", "repo_digest": … } }`); a missing file is empty. */
export function readImageLock(file: string): ImageLock {
  if (!existsSync(file)) return {};
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new InputError(`${file}: not JSON (${(e as Error).message})`, {
      hint: 'fix the file, or remove it and run with --update-image-lock',
    });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new InputError(`${file}: expected an object of image → { id, repo_digest }`);
  const lock: ImageLock = {};
  for (const [image, v] of Object.entries(data as Record<string, unknown>)) {
    const e = v as Partial<LockEntry> | null;
    if (!e || typeof e.id !== 'string' || !ID.test(e.id))
      throw new InputError(`${file}: "${image}".id must be sha256:<64 hex>, got ${JSON.stringify(e?.id)}`);
    lock[image] = { id: e.id, repo_digest: typeof e.repo_digest === 'string' ? e.repo_digest : null };
  }
  return lock;
}

export async function writeImageLock(file: string, lock: ImageLock): Promise<void> {
  await writeFileAtomic(file, `${stableStringify(lock, 2)}\n`);
}

/** The lock's verdict on `image` with content `entry`: refused (with what to do), or accepted (maybe added). */
export function checkImageLock(
  lock: ImageLock,
  image: string,
  entry: LockEntry,
  update: boolean,
): { ok: true; added: boolean } | { ok: false; error: string } {
  const have = lock[image];
  if (have && have.id === entry.id) return { ok: true, added: false };
  if (have)
    return {
      ok: false,
      error: `image ${image} moved: the lock pins ${have.id}, the local image is ${entry.id}; use the locked image (docker pull ${have.repo_digest ?? image} and tag it), or accept the new one with --update-image-lock`,
    };
  if (!update)
    return {
      ok: false,
      error: `image ${image} is not in the image lock; pin it with --update-image-lock`,
    };
  lock[image] = entry;
  return { ok: true, added: true };
}

/** A run's image lock: shared by its workers, written back when an entry was added. */
export class ImageLockState {
  private dirty = false;
  constructor(
    readonly file: string,
    private readonly lock: ImageLock,
    private readonly update: boolean,
  ) {}

  static open(file: string, update: boolean): ImageLockState {
    return new ImageLockState(file, readImageLock(file), update);
  }

  /** Null when `image` may run; else the error to report. */
  check(image: string, entry: LockEntry): string | null {
    const r = checkImageLock(this.lock, image, entry, this.update);
    if (!r.ok) return r.error;
    if (r.added) this.dirty = true;
    return null;
  }

  async save(): Promise<boolean> {
    if (!this.dirty) return false;
    await writeImageLock(this.file, this.lock);
    this.dirty = false;
    return true;
  }
}

/**
 * The row as the run uses it: without `trust` its own `image` is dropped (faun names or builds the image);
 * with `trust` an image outside the allowed namespaces makes the row unusable (`problem`).
 */
export function trustedRow<T extends { image?: string | null }>(
  row: T,
  trust: boolean,
  allow: string[] = DEFAULT_IMAGE_ALLOW,
): { row: T } | { problem: string } {
  if (!row.image) return { row };
  if (!trust) return { row: { ...row, image: null } };
  const problem = rowImageProblem(row.image, allow);
  return problem ? { problem } : { row };
}
