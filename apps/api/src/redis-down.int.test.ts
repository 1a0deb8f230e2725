/** `faun serve` and `faun worker` fail fast (exit 1, clear message) when Redis cannot be reached. */
import { expect, test } from 'bun:test';
import { resolve } from 'node:path';

const CLI = resolve(import.meta.dir, '../../cli/src/main.ts');

for (const args of [
  ['serve', '--database', 'memory://', '--port', '0', '--datasets', '.'],
  ['worker', '--backend', 'local'],
]) {
  test(`faun ${args[0]} with an unreachable Redis exits 1 within seconds`, async () => {
    const t0 = Date.now();
    const p = Bun.spawn(['bun', CLI, ...args, '--redis-url', 'redis://127.0.0.1:1'], {
      stdout: 'pipe',
      stderr: 'pipe',
      env: { ...process.env, FAUN_NO_SHARED: '1' },
    });
    const killer = setTimeout(() => p.kill(), 15_000);
    const [stderr, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
    clearTimeout(killer);
    expect(stderr).toContain('cannot reach Redis at redis://127.0.0.1:1');
    expect(code).toBe(1);
    expect(Date.now() - t0).toBeLessThan(8000);
  }, 20_000);
}
