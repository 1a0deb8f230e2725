/**
 * Key management for `faun serve keys …`: directly on the database, or — when a running server holds the
 * embedded PGlite folder — through that server's control endpoints, so the folder is never opened twice.
 */

import { busyError, type LockInfo, readLock } from '../db/lock.ts';
import { databaseTarget, isPostgresUrl, openDatabase } from '../db/open.ts';
import { CONTROL_HEADER } from '../routes/control.ts';
import { createKey, type KeyOptions, listKeys, revokeKey } from './keys.ts';

export type KeyListing = Awaited<ReturnType<typeof listKeys>>[number];

export interface KeyOps {
  /** `database` or `server PID N`: where the operation went. */
  via: string;
  create(o: KeyOptions): Promise<{ id: string; token: string }>;
  list(): Promise<KeyListing[]>;
  revoke(id: string): Promise<boolean>;
  close(): Promise<void>;
}

function remoteOps(dir: string, holder: LockInfo & { control: { url: string; token: string } }): KeyOps {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(`${holder.control.url}${path}`, {
        method,
        headers: { [CONTROL_HEADER]: holder.control.token, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(10_000),
      });
    } catch {
      throw busyError(dir, holder);
    }
    if (!res.ok) throw busyError(dir, holder);
    return (await res.json()) as T;
  };
  return {
    via: `server PID ${holder.pid}`,
    create: (o) => call('POST', '/internal/keys', o),
    list: async () =>
      (await call<Record<string, unknown>[]>('GET', '/internal/keys')).map(
        (k) =>
          ({
            ...k,
            createdAt: new Date(String(k.createdAt)),
            revokedAt: k.revokedAt ? new Date(String(k.revokedAt)) : null,
          }) as KeyListing,
      ),
    revoke: async (id) =>
      (await call<{ revoked: boolean }>('POST', `/internal/keys/${encodeURIComponent(id)}/revoke`)).revoked,
    close: async () => {},
  };
}

/** Opens key management on `target` (default $DATABASE_URL or .faun/api-db). */
export async function openKeyOps(
  target: string | undefined,
  progress?: (line: string) => void,
): Promise<KeyOps> {
  const t = databaseTarget(target);
  if (!isPostgresUrl(t) && t !== 'memory://') {
    const holder = readLock(t);
    if (holder?.control) return remoteOps(t, { ...holder, control: holder.control });
    if (holder) throw busyError(t, holder);
  }
  const d = await openDatabase(t, { role: 'serve keys', ...(progress ? { progress } : {}) });
  return {
    via: 'database',
    create: (o) => createKey(d.db, o),
    list: () => listKeys(d.db),
    revoke: (id) => revokeKey(d.db, id),
    close: () => d.close(),
  };
}
