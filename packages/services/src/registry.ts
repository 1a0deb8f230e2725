/** Starts a throwaway Docker registry (Debian's docker-registry, distribution v2) on a free loopback port. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrerequisiteError } from '@faun/kit';
import { ensureDebs } from './apt.ts';
import { freePort, waitFor } from './proc.ts';
import type { ServiceHandle } from './redis.ts';

/** `url` is `http://127.0.0.1:<port>`; `host` is `127.0.0.1:<port>` (the image-name prefix). */
export async function ensureRegistry(log?: (l: string) => void): Promise<ServiceHandle & { host: string }> {
  await ensureDebs(['docker-registry'], log);
  const dir = mkdtempSync(join(tmpdir(), 'faun-registry-'));
  const port = await freePort();
  const config = join(dir, 'config.yml');
  writeFileSync(
    config,
    [
      'version: 0.1',
      'log: { level: error }',
      `storage: { filesystem: { rootdirectory: ${join(dir, 'data')} }, delete: { enabled: true } }`,
      `http: { addr: "127.0.0.1:${port}" }`,
      '',
    ].join('\n'),
  );
  const proc = Bun.spawn(['docker-registry', 'serve', config], { stdout: 'ignore', stderr: 'pipe' });
  const url = `http://127.0.0.1:${port}`;
  const ok = await waitFor(async () => (await fetch(`${url}/v2/`).catch(() => null))?.status === 200, 15_000);
  if (!ok) {
    proc.kill();
    throw new PrerequisiteError(`docker-registry did not answer on port ${port}`);
  }
  return {
    url,
    port,
    host: `127.0.0.1:${port}`,
    async stop() {
      proc.kill();
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
