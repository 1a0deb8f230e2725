/**
 * Starts a throwaway PostgreSQL server (Debian's postgresql) on a free loopback port, in a temp data
 * folder owned by the `postgres` user (the server refuses to run as root).
 *
 * The port comes from `freePort()`, which only knows the port was free an instant ago: another process
 * can take it before the server binds it (another throwaway server, most often, started by a parallel
 * test file). Readiness is therefore asked through the server's own Unix socket, in its private folder —
 * a server on the same TCP port belonging to someone else never answers there — and a server that exits
 * while starting (its port taken meanwhile) is started again on another port.
 */
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrerequisiteError } from '@faun/kit';
import { ensureDebs } from './apt.ts';
import { freePort, run, sleep } from './proc.ts';
import type { ServiceHandle } from './redis.ts';

function pgBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions[0])
    throw new PrerequisiteError('PostgreSQL binaries not found', { hint: 'apt-get install postgresql' });
  return join(root, versions[0], 'bin');
}

export interface PostgresOptions {
  /** The port to try first (default: a free one); taken by another server, another one is used. */
  port?: number;
  /** How many ports to try when the chosen one is taken before the server binds it (default 5). */
  attempts?: number;
}

interface Started {
  proc: Bun.Subprocess;
  port: number;
}

/** The last lines of the server's log (for error messages). */
function logTail(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-3).join(' | ');
  } catch {
    return '';
  }
}

/**
 * Starts the server on `port` and waits until it accepts connections on its own socket: `ready`, or
 * `exited` (it stopped while starting: the port was taken, most often), or `timeout`.
 */
async function startOn(
  bin: string,
  as: (cmd: string[]) => string[],
  dir: string,
  port: number,
): Promise<{ state: 'ready' | 'exited' | 'timeout'; proc: Bun.Subprocess }> {
  const proc = Bun.spawn(
    as([
      join(bin, 'postgres'),
      '-D',
      join(dir, 'data'),
      '-p',
      String(port),
      '-k',
      dir,
      '-h',
      '127.0.0.1',
      '-c',
      'fsync=off',
    ]),
    { stdout: 'ignore', stderr: Bun.file(join(dir, 'postgres.log')) },
  );
  const ready = async () => (await run([join(bin, 'pg_isready'), '-h', dir, '-p', String(port)])).code === 0;
  const end = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) return { state: 'exited', proc };
    if (await ready()) {
      // ready, and still its own process (not a server that was there before and answered the socket)
      return { state: proc.exitCode === null ? 'ready' : 'exited', proc };
    }
    if (Date.now() > end) return { state: 'timeout', proc };
    await sleep(200);
  }
}

/** Starts the server on the first of `attempts` ports that it can bind. */
async function startServer(
  bin: string,
  as: (cmd: string[]) => string[],
  dir: string,
  o: PostgresOptions,
): Promise<Started> {
  const attempts = o.attempts ?? 5;
  const tried: number[] = [];
  for (let i = 0; i < attempts; i++) {
    const port = i === 0 && o.port ? o.port : await freePort();
    tried.push(port);
    const { state, proc } = await startOn(bin, as, dir, port);
    if (state === 'ready') return { proc, port };
    proc.kill();
    await proc.exited;
    if (state === 'timeout')
      throw new PrerequisiteError(
        `PostgreSQL did not start on port ${port}: ${logTail(join(dir, 'postgres.log'))}`,
      );
  }
  throw new PrerequisiteError(
    `PostgreSQL could not start on ports ${tried.join(', ')}: ${logTail(join(dir, 'postgres.log'))}`,
  );
}

export async function ensurePostgres(
  log?: (l: string) => void,
  o: PostgresOptions = {},
): Promise<ServiceHandle> {
  await ensureDebs(['postgresql'], log);
  const bin = pgBin();
  const dir = mkdtempSync(join(tmpdir(), 'faun-pg-'));
  const asRoot = process.getuid?.() === 0;
  const idOut = asRoot ? await run(['id', '-u', 'postgres']) : null;
  const gidOut = asRoot ? await run(['id', '-g', 'postgres']) : null;
  if (asRoot) chownSync(dir, Number(idOut?.stdout.trim()), Number(gidOut?.stdout.trim()));
  const as = (cmd: string[]) => (asRoot ? ['runuser', '-u', 'postgres', '--', ...cmd] : cmd);
  const data = join(dir, 'data');
  const init = await run(
    as([join(bin, 'initdb'), '-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']),
  );
  if (init.code !== 0) throw new PrerequisiteError(`initdb failed: ${init.stderr.trim()}`);
  const { proc, port } = await startServer(bin, as, dir, o);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      await run(as([join(bin, 'pg_ctl'), '-D', data, '-m', 'fast', '-w', 'stop']));
      proc.kill();
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
