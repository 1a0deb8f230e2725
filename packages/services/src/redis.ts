/** Starts a throwaway Redis server (Debian's redis-server) on a free loopback port. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrerequisiteError } from '@faun/kit';
import { ensureDebs } from './apt.ts';
import { freePort, run, sleep } from './proc.ts';

export interface ServiceHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface RedisOptions {
  /** The port to try first (default: a free one); taken by another server, another one is used. */
  port?: number;
  /** How many ports to try when the chosen one is taken before the server binds it (default 5). */
  attempts?: number;
}

/**
 * Starts redis-server on `port` and waits until it answers as itself (`INFO` names its PID: a server
 * of someone else on the same port — `freePort()` only knew the port was free an instant ago — does
 * not count): `ready`, `exited` (the port was taken meanwhile, most often) or `timeout`.
 */
async function startOn(dir: string, port: number): Promise<{ state: string; proc: Bun.Subprocess }> {
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
  const end = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) return { state: 'exited', proc };
    if (await own()) return { state: 'ready', proc };
    if (Date.now() > end) return { state: 'timeout', proc };
    await sleep(100);
  }
}

export async function ensureRedis(log?: (l: string) => void, o: RedisOptions = {}): Promise<ServiceHandle> {
  await ensureDebs(['redis-server'], log);
  const dir = mkdtempSync(join(tmpdir(), 'faun-redis-'));
  const tried: number[] = [];
  for (let i = 0; i < (o.attempts ?? 5); i++) {
    const port = i === 0 && o.port ? o.port : await freePort();
    tried.push(port);
    const { state, proc } = await startOn(dir, port);
    if (state === 'ready')
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        async stop() {
          proc.kill();
          await proc.exited;
          rmSync(dir, { recursive: true, force: true });
        },
      };
    proc.kill();
    await proc.exited;
    if (state === 'timeout') break;
  }
  rmSync(dir, { recursive: true, force: true });
  throw new PrerequisiteError(`redis-server did not answer on port ${tried.join(', ')}`);
}
