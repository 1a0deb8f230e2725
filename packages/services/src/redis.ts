/** Starts a throwaway Redis server (Debian's redis-server) on a free loopback port. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrerequisiteError } from '@faun/kit';
import { ensureDebs } from './apt.ts';
import { awaitStart, type PortOptions, run, type StartState, startOnFreePort } from './proc.ts';

export interface ServiceHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Starts redis-server on `port` and waits until it answers as itself (`INFO` names its PID: a server
 * of someone else on the same port — `freePort()` only knew the port was free an instant ago — does
 * not count): `ready`, `exited` (the port was taken meanwhile, most often) or `timeout`.
 */
async function startOn(dir: string, port: number): Promise<{ state: StartState; proc: Bun.Subprocess }> {
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
    { stdout: 'ignore', stderr: 'ignore' },
  );
  const own = async () =>
    (await run(['redis-cli', '-p', String(port), 'info', 'server'])).stdout.includes(
      `process_id:${proc.pid}\r`,
    );
  return { state: await awaitStart(proc, own, 15_000, 100), proc };
}

export async function ensureRedis(log?: (l: string) => void, o: PortOptions = {}): Promise<ServiceHandle> {
  await ensureDebs(['redis-server'], log);
  const dir = mkdtempSync(join(tmpdir(), 'faun-redis-'));
  const r = await startOnFreePort(o, (port) => startOn(dir, port));
  if ('proc' in r) {
    const { proc, port } = r;
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
  rmSync(dir, { recursive: true, force: true });
  throw new PrerequisiteError(`redis-server did not answer on port ${r.tried.join(', ')}`);
}
