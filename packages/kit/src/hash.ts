/**
 * Content hashing helpers (sha256 hex). On Bun they use its native hasher and file reader: `node:crypto`
 * and `node:fs` streams are JS layers whose loading alone costs a short command ~0.15 CPU-seconds.
 */
import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';

/** `node:crypto`, loaded only off Bun. */
function nodeCrypto(): typeof import('node:crypto') {
  return createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
}

const Hasher = typeof Bun !== 'undefined' ? Bun.CryptoHasher : undefined;

export function sha256(data: string | Uint8Array): string {
  if (Hasher) return new Hasher('sha256').update(data).digest('hex');
  return nodeCrypto().createHash('sha256').update(data).digest('hex');
}

export async function sha256File(path: string): Promise<string> {
  if (Hasher) {
    const h = new Hasher('sha256');
    for await (const chunk of Bun.file(path).stream()) h.update(chunk);
    return h.digest('hex');
  }
  const h = nodeCrypto().createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Uint8Array);
  return h.digest('hex');
}
