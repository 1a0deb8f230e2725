/**
 * A cross-process lock on a folder name (mkdir is atomic). A lock whose owner process is gone is
 * taken over, so a killed setup or build never blocks the next one. Also importable alone as
 * `@faun/kit/lock` (no other plumbing loaded).
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** True when a process with this id exists on this host. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function withLock<T>(path: string, fn: () => Promise<T>, onWait?: () => void): Promise<T> {
  let announced = false;
  for (;;) {
    try {
      mkdirSync(path, { recursive: false });
      writeFileSync(join(path, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let owner = 0;
      try {
        owner = Number(readFileSync(join(path, 'pid'), 'utf8'));
      } catch {}
      if (owner && !processAlive(owner)) {
        rmSync(path, { recursive: true, force: true });
        continue;
      }
      if (!announced) {
        onWait?.();
        announced = true;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(path, { recursive: true, force: true });
  }
}
