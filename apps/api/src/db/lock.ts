/**
 * The owner lock of an embedded PGlite folder. PGlite is single-process: a second process opening the same
 * folder corrupts it. Whoever opens the folder takes an exclusive `flock(2)` on `faun.lock` in it and
 * writes its PID there; a serving process adds a loopback control address and a random token, so
 * `faun serve keys …` can manage keys through the running server instead of opening the folder.
 *
 * The kernel holds the lock, not the file's content: it is released when its process exits, however it
 * exits (kill -9 included), and no process ever deletes another's lock, so two openers can never both
 * hold it. Where `flock` cannot be loaded, an exclusively created file with the holder's PID and start
 * time is the fallback.
 */
import {
  closeSync,
  ftruncateSync,
  linkSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { PrerequisiteError } from '@faun/kit';

export const LOCK_FILE = 'faun.lock';

export interface LockInfo {
  pid: number;
  /** `serve` or the command that opened the folder. */
  role: string;
  started: string;
  /** The process's start time (clock ticks since boot, Linux), so a reused PID is not taken for it. */
  pidStart?: string | null;
  /** Set by a serving process: where its control endpoints answer and the token they require. */
  control?: { url: string; token: string };
}

export interface FolderLock {
  readonly path: string;
  /** Rewrites the lock's content (same owner). */
  update(info: Partial<LockInfo>): void;
  release(): void;
}

type Flock = (fd: number, op: number) => number;
const LOCK_EX = 2;
const LOCK_NB = 4;
const LOCK_UN = 8;
let flockFn: Flock | null | undefined;

/** libc's flock through Bun's FFI, or null where it cannot be loaded. */
function loadFlock(): Flock | null {
  if (flockFn !== undefined) return flockFn;
  flockFn = null;
  if (process.env.FAUN_LOCK_NO_FLOCK === '1') return flockFn;
  try {
    const { dlopen, FFIType } = require('bun:ffi') as typeof import('bun:ffi');
    for (const lib of ['libc.so.6', 'libc.dylib', 'libSystem.B.dylib']) {
      try {
        const l = dlopen(lib, { flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } });
        flockFn = (fd, op) => l.symbols.flock(fd, op) as number;
        break;
      } catch {
        // try the next name
      }
    }
  } catch {
    // no FFI: the PID file fallback
  }
  return flockFn;
}

/** A process's start time from /proc (null where there is no /proc or no such process). */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z') return null; // a zombie: exited, waiting to be reaped
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/** True when `info` names a process that still runs (same PID and, where known, same start time). */
function alive(info: LockInfo): boolean {
  if (process.platform === 'linux') {
    const start = processStart(info.pid);
    if (start === null) return false;
    return !info.pidStart || info.pidStart === start;
  }
  try {
    process.kill(info.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parse(text: string): LockInfo | null {
  try {
    const info = JSON.parse(text) as LockInfo;
    return typeof info.pid === 'number' ? info : null;
  } catch {
    return null;
  }
}

/** True when no process holds the flock of `path` (probed without keeping it). */
function unlocked(path: string, flock: Flock): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return true;
  }
  try {
    if (flock(fd, LOCK_EX | LOCK_NB) !== 0) return false;
    flock(fd, LOCK_UN);
    return true;
  } finally {
    closeSync(fd);
  }
}

/** The live holder of the folder's lock, or null (no lock, unreadable or stale). */
export function readLock(dir: string): LockInfo | null {
  const path = join(dir, LOCK_FILE);
  let info: LockInfo | null;
  try {
    info = parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
  if (!info) return null;
  if (info.pid === process.pid) return info;
  const flock = loadFlock();
  if (flock) return unlocked(path, flock) ? null : info;
  return alive(info) ? info : null;
}

/** The error for a folder held by another process. */
export function busyError(dir: string, holder: LockInfo): PrerequisiteError {
  const what = holder.role === 'serve' ? 'the server' : `\`faun ${holder.role}\``;
  return new PrerequisiteError(
    `${what} (PID ${holder.pid}) holds the database ${dir}; PGlite allows one process at a time`,
    { hint: 'stop it, or use a PostgreSQL server (--database postgres://… or DATABASE_URL)' },
  );
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const staleNotice = (dir: string, prev: LockInfo) =>
  `note: the previous holder of ${dir} (PID ${prev.pid}, ${prev.role}, since ${prev.started}) is no longer running; taking the database over`;

export interface LockOptions {
  /** Told when the lock of a process that is gone is taken over (default: a line on stderr). */
  notice?: (line: string) => void;
}

/** Takes the folder's lock or throws (naming the holder) when a live process has it. */
export function acquireLock(dir: string, role: string, o: LockOptions = {}): FolderLock {
  const notice = o.notice ?? ((l: string) => process.stderr.write(`${l}\n`));
  const path = join(dir, LOCK_FILE);
  const info: LockInfo = {
    pid: process.pid,
    role,
    started: new Date().toISOString(),
    pidStart: processStart(process.pid),
  };
  const flock = loadFlock();
  if (!flock) return acquireByFile(dir, path, info, notice);
  const fd = openSync(path, 'a+', 0o600);
  // a reader probing the lock holds it for an instant: try a few times before calling it busy
  let got = false;
  for (let i = 0; i < 3 && !got; i++) {
    got = flock(fd, LOCK_EX | LOCK_NB) === 0;
    if (!got && i < 2) sleep(10);
  }
  if (!got) {
    closeSync(fd);
    const holder = (() => {
      try {
        return parse(readFileSync(path, 'utf8'));
      } catch {
        return null;
      }
    })();
    throw busyError(dir, holder ?? { pid: 0, role: 'another process', started: '' });
  }
  const prev = parse(readFileSync(path, 'utf8'));
  if (prev && prev.pid !== process.pid) notice(staleNotice(dir, prev));
  const write = (i: LockInfo) => {
    ftruncateSync(fd, 0);
    writeSync(fd, JSON.stringify(i), 0);
  };
  write(info);
  return heldLock(path, info, write, () => {
    try {
      ftruncateSync(fd, 0); // the file stays (deleting it would race a new holder); empty = free
      flock(fd, LOCK_UN);
    } finally {
      closeSync(fd);
    }
  });
}

/** A held lock: `write` rewrites its content on update; `free` runs once, on the first release. */
function heldLock(path: string, first: LockInfo, write: (i: LockInfo) => void, free: () => void): FolderLock {
  let info = first;
  let held = true;
  return {
    path,
    update(more) {
      if (!held) return;
      info = { ...info, ...more };
      write(info);
    },
    release() {
      if (!held) return;
      held = false;
      free();
    },
  };
}

/**
 * The fallback without flock: the lock file is created exclusively. A stale one (its process is gone) is
 * first renamed to a name of this process's own — only one process can rename a given file — and only
 * deleted when what was renamed is still the stale content; anything else is put back.
 */
function acquireByFile(dir: string, path: string, first: LockInfo, notice: (l: string) => void): FolderLock {
  const info = first;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify(info));
      closeSync(fd);
      const write = (i: LockInfo) => {
        const tmp = `${path}.${process.pid}.tmp`;
        writeFileSync(tmp, JSON.stringify(i), { mode: 0o600 });
        renameSync(tmp, path);
      };
      return heldLock(path, info, write, () => {
        const cur = readLock(dir);
        if (!cur || cur.pid === process.pid) rmSync(path, { force: true });
      });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let text = '';
      try {
        text = readFileSync(path, 'utf8');
      } catch {
        continue; // released meanwhile
      }
      let holder = parse(text);
      if (!holder) {
        sleep(150); // a holder may be mid-write
        holder = parse(readFileSync(path, 'utf8'));
      }
      if (holder && alive(holder)) throw busyError(dir, holder);
      const mine = `${path}.stale.${process.pid}`;
      try {
        renameSync(path, mine);
      } catch {
        continue; // someone else moved it first
      }
      const moved = readFileSync(mine, 'utf8');
      if (moved === text) {
        rmSync(mine, { force: true });
        if (holder) notice(staleNotice(dir, holder));
      } else {
        // a fresh lock was taken in between: give it back (link fails if yet another appeared)
        try {
          linkSync(mine, path);
        } catch {
          // another lock exists by now: that one stands
        }
        rmSync(mine, { force: true });
      }
    }
  }
  throw new PrerequisiteError(`cannot take the lock ${path}`, { hint: 'remove it if no faun process runs' });
}
