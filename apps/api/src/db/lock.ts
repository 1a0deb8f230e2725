/**
 * The owner lock of an embedded PGlite folder. PGlite is single-process: a second process opening the same
 * folder corrupts it. Whoever opens the folder creates `faun.lock` in it (exclusively) with its PID; a
 * serving process adds a loopback control address and a random token, so `faun serve keys …` can manage
 * keys through the running server instead of opening the folder. A lock whose PID is gone is stale and
 * is taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PrerequisiteError } from '@faun/kit';

export const LOCK_FILE = 'faun.lock';

export interface LockInfo {
  pid: number;
  /** `serve` or the command that opened the folder. */
  role: string;
  started: string;
  /** Set by a serving process: where its control endpoints answer and the token they require. */
  control?: { url: string; token: string };
}

export interface FolderLock {
  readonly path: string;
  /** Rewrites the lock's content (same owner). */
  update(info: Partial<LockInfo>): void;
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live holder of the folder's lock, or null (no lock, unreadable or stale). */
export function readLock(dir: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as LockInfo;
    if (typeof info.pid !== 'number') return null;
    if (info.pid !== process.pid && !alive(info.pid)) return null;
    return info;
  } catch {
    return null;
  }
}

/** The error for a folder held by another process. */
export function busyError(dir: string, holder: LockInfo): PrerequisiteError {
  const what = holder.role === 'serve' ? 'the server' : `\`faun ${holder.role}\``;
  return new PrerequisiteError(
    `${what} (PID ${holder.pid}) holds the database ${dir}; PGlite allows one process at a time`,
    { hint: 'stop it, or use a PostgreSQL server (--database postgres://… or DATABASE_URL)' },
  );
}

/** Takes the folder's lock or throws (naming the holder) when a live process has it. */
export function acquireLock(dir: string, role: string): FolderLock {
  const path = join(dir, LOCK_FILE);
  let info: LockInfo = { pid: process.pid, role, started: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify(info));
      closeSync(fd);
      let held = true;
      return {
        path,
        update(more) {
          if (!held) return;
          info = { ...info, ...more };
          writeFileSync(path, JSON.stringify(info), { mode: 0o600 });
        },
        release() {
          if (!held) return;
          held = false;
          const cur = readLock(dir);
          if (!cur || cur.pid === process.pid) rmSync(path, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let holder = readLock(dir);
      if (!holder) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 150); // a holder may be mid-write
        holder = readLock(dir);
      }
      if (holder) throw busyError(dir, holder);
      rmSync(path, { force: true }); // stale: its process is gone
    }
  }
  throw new PrerequisiteError(`cannot take the lock ${path}`, { hint: 'remove it if no faun process runs' });
}
