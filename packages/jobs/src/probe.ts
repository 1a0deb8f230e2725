/** A fast reachability check of a Redis server, so commands fail in seconds instead of retrying forever. */
import { Redis } from 'ioredis';

/** The URL with its password hidden, for messages. */
export function redactRedisUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

/**
 * Connects once (no retries), sends PING and disconnects. Resolves to null when Redis answered, otherwise
 * to the reason it did not (refused, timed out…). Never leaves a connection open.
 */
export async function probeRedis(url: string, timeoutMs = 3000): Promise<string | null> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  let lastError: string | null = null;
  client.on('error', (e: Error) => {
    lastError = e.message || (e as { code?: string }).code || String(e);
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      client.connect().then(() => client.ping()),
      new Promise<never>((_, rej) => {
        timer = setTimeout(() => rej(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return null;
  } catch (e) {
    return lastError ?? ((e as Error).message || String(e));
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}
