/** Starts a throwaway Redis server (Debian's redis-server) on a free loopback port. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrerequisiteError } from '@faun/kit';
import { ensureDebs } from './apt.ts';
import { freePort, run, waitFor } from './proc.ts';

export interface ServiceHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function ensureRedis(log?: (l: string) => void): Promise<ServiceHandle> {
  await ensureDebs(['redis-server'], log);
  const dir = mkdtempSync(join(tmpdir(), 'faun-redis-'));
  const port = await freePort();
  const proc = Bun.spawn(
    [
      'redis-server',
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
    ],
    { stdout: 'ignore', stderr: 'pipe' },
  );
  const ok = await waitFor(
    async () => (await run(['redis-cli', '-p', String(port), 'ping'])).stdout.trim() === 'PONG',
    15_000,
  );
  if (!ok) {
    proc.kill();
    throw new PrerequisiteError(`redis-server did not answer on port ${port}`);
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop() {
      proc.kill();
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
