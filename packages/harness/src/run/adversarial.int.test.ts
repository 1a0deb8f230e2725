/**
 * Hostile and broken patches in real containers (Python fixture): every one is contained, classified,
 * and the run goes on; containers are removed afterwards; a re-run gives identical results.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stableStringify } from '@faun/schema';
import { ensureDocker } from '@faun/services';
import { adversarialPatches, type Fixture, makeFixture } from '../../testing/fixtures.ts';
import { DockerBackend, LABEL } from '../sandbox/docker.ts';
import { type VerifyOptions, verifyRun } from '../verify.ts';

let root = '';
let fx: Fixture;
// Long enough for pytest to start and import the patched module on a loaded machine (at load average 21–25 the
// memory hog's run reached 8 s before its allocation ran, and was graded timeout): the loop and the fork bomb
// still end by it.
const TIMEOUT_S = 15;

beforeAll(async () => {
  await ensureDocker();
  root = mkdtempSync(join(tmpdir(), 'faun-adv-int-'));
  fx = makeFixture('python', root);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function containersOf(runId: string): Promise<string[]> {
  const out = await Bun.$`docker ps -aq --filter label=${LABEL}.run=${runId}`.text();
  return out.split('\n').filter(Boolean);
}

test('malformed, reversed, escaping, looping, forging, fork-bombing and memory-hogging patches', async () => {
  const cases: Record<string, string> = { gold: fx.patches.gold, ...adversarialPatches(fx) };
  const logged: string[] = [];
  const opts: VerifyOptions = {
    instances: Object.keys(cases).map((k) => ({ ...fx.instance, instance_id: k })),
    predictions: Object.entries(cases).map(([k, patch]) => ({ instance_id: k, model: 'm', patch })),
    runId: 'adv',
    dir: join(root, 'run'),
    backend: new DockerBackend('adv'),
    workers: 2,
    timeoutS: TIMEOUT_S,
    // A small memory limit: the hog reaches it within ~1 s even on a loaded machine (first touches of fresh
    // memory run at ~80 MB/s at load 10 here, so 512 MB took 6-8 s, past TIMEOUT_S); the fork bomb's 128
    // processes stay under it (a plain Python one: ~40 MB), and so does pytest.
    limits: { cpus: 1, memoryMb: 160, pids: 128 },
    repoDirs: { [fx.repo]: fx.dir },
    log: (l) => logged.push(l),
  };
  const t0 = Date.now();
  const out = await verifyRun(opts);
  const by = Object.fromEntries(out.results.map((r) => [r.instance_id, r]));
  expect(by.gold).toMatchObject({ outcome: 'resolved', applied_with: 'git apply' });
  expect(by.malformed).toMatchObject({ outcome: 'apply_failed', error: 'no strategy applied the patch' });
  expect(by.reversed).toMatchObject({ outcome: 'apply_failed', error: 'the patch applies only in reverse' });
  expect(by.escape?.outcome).toBe('apply_failed');
  expect(by.escape?.error).toContain('outside the repository');
  expect(by.infinite_loop?.outcome).toBe('timeout');
  expect(by.infinite_loop!.duration_s).toBeLessThan(TIMEOUT_S + 10);
  // a conftest.py printing passing results is test infrastructure: dropped before the run, nothing left to run
  expect(by.fake_passed).toMatchObject({
    outcome: 'unresolved',
    resolved_status: 'RESOLVED_NO',
    dropped_files: [{ path: 'conftest.py', reason: 'pytest conftest' }],
  });
  expect(by.fork_bomb?.outcome).toBe('timeout');
  expect(by.fork_bomb!.duration_s).toBeLessThan(TIMEOUT_S + 10);
  expect(by.memory_hog).toMatchObject({ outcome: 'infra_error', resolved_status: null });
  expect(by.memory_hog?.error).toContain('oom');
  // killed by the memory limit, not by the time limit
  expect(by.memory_hog?.stages?.at(-1)).toMatchObject({ name: 'tests', detail: 'exit 137' });
  // Infrastructure failures are retried once (and only those).
  expect(logged.filter((l) => l.includes('retrying once'))).toEqual([
    expect.stringMatching(/^memory_hog: infrastructure failure \(oom/),
  ]);
  expect(out.report).toMatchObject({
    resolved_ids: ['gold'],
    infra_failure_ids: ['memory_hog'],
    total_instances: 8,
  });
  expect(await containersOf('adv')).toEqual([]);
  expect(Date.now() - t0).toBeLessThan(120_000);

  // Re-run under a new run id: the same outcomes.
  const again = await verifyRun({
    ...opts,
    runId: 'adv2',
    dir: join(root, 'run2'),
    backend: new DockerBackend('adv2'),
  });
  const strip = (rs: typeof out.results) =>
    stableStringify(
      rs.map((r) => ({
        ...r,
        duration_s: 0,
        stages: r.stages?.map((st) => ({ ...st, duration_s: 0 })),
        patch_sha256: r.patch_sha256,
        error: r.error?.replace(/\d+/g, 'N') ?? null,
      })),
    );
  expect(strip(again.results)).toEqual(strip(out.results));
  expect(await containersOf('adv2')).toEqual([]);
}, 600_000);
