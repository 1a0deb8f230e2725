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
import { awaitStart, type PortOptions, run, type StartState, startOnFreePort } from './proc.ts';
import type { ServiceHandle } from './redis.ts';

function pgBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions[0])
    throw new PrerequisiteError('PostgreSQL binaries not found', { hint: 'apt-get install postgresql' });
  return join(root, versions[0], 'bin');
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
): Promise<{ state: StartState; proc: Bun.Subprocess }> {
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
  return { state: await awaitStart(proc, ready, 30_000, 200), proc };
}

/** Starts the server on the first of `attempts` ports that it can bind. */
async function startServer(
  bin: string,
  as: (cmd: string[]) => string[],
  dir: string,
  o: PortOptions,
): Promise<{ proc: Bun.Subprocess; port: number }> {
  const r = await startOnFreePort(o, (port) => startOn(bin, as, dir, port));
  if ('proc' in r) return r;
  const log = logTail(join(dir, 'postgres.log'));
  throw new PrerequisiteError(
    r.failed === 'timeout'
      ? `PostgreSQL did not start on port ${r.tried.at(-1)}: ${log}`
      : `PostgreSQL could not start on ports ${r.tried.join(', ')}: ${log}`,
  );
}

export async function ensurePostgres(log?: (l: string) => void, o: PortOptions = {}): Promise<ServiceHandle> {
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
