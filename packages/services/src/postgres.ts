/**
 * Starts a throwaway PostgreSQL server (Debian's postgresql) on a free loopback port, in a temp data
 * folder owned by the `postgres` user (the server refuses to run as root).
 */
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrerequisiteError } from '@faun/kit';
import { ensureDebs } from './apt.ts';
import { freePort, run, waitFor } from './proc.ts';
import type { ServiceHandle } from './redis.ts';

function pgBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions[0])
    throw new PrerequisiteError('PostgreSQL binaries not found', { hint: 'apt-get install postgresql' });
  return join(root, versions[0], 'bin');
}

export async function ensurePostgres(log?: (l: string) => void): Promise<ServiceHandle> {
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
  const port = await freePort();
  const proc = Bun.spawn(
    as([
      join(bin, 'postgres'),
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-h',
      '127.0.0.1',
      '-c',
      'fsync=off',
    ]),
    { stdout: 'ignore', stderr: 'ignore' },
  );
  const ok = await waitFor(
    async () => (await run([join(bin, 'pg_isready'), '-h', '127.0.0.1', '-p', String(port)])).code === 0,
    30_000,
    200,
  );
  if (!ok) {
    proc.kill();
    throw new PrerequisiteError(`PostgreSQL did not start on port ${port}`);
  }
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
