/** API key management (used by `faun serve keys create|list|revoke` and tests). */
import { asc, eq } from 'drizzle-orm';
import { newKey } from '../auth/keys.ts';
import type { Db } from '../db/open.ts';
import { apiKeys } from '../db/schema.ts';

export interface KeyOptions {
  name: string;
  admin?: boolean;
  runsPerDay?: number;
  itemsPerDay?: number;
  ratePerSec?: number;
  burst?: number;
}

/** Creates a key; the returned token is the only time the secret is visible. */
export async function createKey(db: Db, o: KeyOptions): Promise<{ id: string; token: string }> {
  const k = newKey();
  await db.insert(apiKeys).values({
    id: k.id,
    name: o.name,
    salt: k.salt,
    hash: k.hash,
    admin: o.admin ?? false,
    ...(o.runsPerDay !== undefined ? { runsPerDay: o.runsPerDay } : {}),
    ...(o.itemsPerDay !== undefined ? { itemsPerDay: o.itemsPerDay } : {}),
    ...(o.ratePerSec !== undefined ? { ratePerSec: o.ratePerSec } : {}),
    ...(o.burst !== undefined ? { burst: o.burst } : {}),
  });
  return { id: k.id, token: k.token };
}

/** Keys without their salt and hash. */
export async function listKeys(db: Db) {
  const rows = await db.select().from(apiKeys).orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  return rows.map(({ salt: _s, hash: _h, ...rest }) => rest);
}

/** Marks a key revoked; false when no such key. */
export async function revokeKey(db: Db, id: string): Promise<boolean> {
  const r = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(eq(apiKeys.id, id))
    .returning({ id: apiKeys.id });
  return r.length > 0;
}
