/**
 * Harness overhead and throughput on the Python fixture (images built once, outside the timings):
 * - overhead: the wall time of one instance through the harness (container start with limits, patch
 *   apply chain, test patch, eval script, log read, OOM check, grading, removal) minus a bare
 *   `docker run --rm` of the same test command in the same image. Target ≤ 1.5 s.
 * - throughput: `verifyRun` over N gold instances at 1, 2 and 4 workers (instances per minute).
 * Options: --repeats N (5), --instances N (8).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bareDockerRun, DockerBackend, runInstance, specFor, testCommand, verifyRun } from '@faun/harness';
import { makeFixture } from '@faun/harness/testing';
import { parseFlags } from '../args.ts';

const TARGET_OVERHEAD_S = 1.5;

export const FLAGS = { repeats: 5, instances: 8 };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const r3 = (x: number) => Math.round(x * 1000) / 1000;

export default async function harness(args: string[]): Promise<Record<string, unknown>> {
  const { repeats, instances: n } = parseFlags('harness', args, FLAGS);
  const root = await mkdtemp(join(tmpdir(), 'faun-bench-harness-'));
  try {
    const fx = makeFixture('python', root);
    const spec = specFor(fx.instance)!;
    const backend = new DockerBackend('bench');
    const env = await backend.prepare(fx.instance, spec, fx.dir, () => {});
    const cmd = `cd /testbed && ${testCommand(spec, fx.instance)}`;
    const pred = { instance_id: fx.instance.instance_id, model: 'gold', patch: fx.patches.gold };
    const opts = { backend, spec, source: fx.dir, runId: 'bench', timeoutS: 120 };
    await bareDockerRun(env.ref, cmd); // warm the page cache
    await runInstance(fx.instance, pred, opts);

    const bare: number[] = [];
    const full: number[] = [];
    for (let i = 0; i < repeats; i++) {
      let t = performance.now();
      await bareDockerRun(env.ref, cmd);
      bare.push((performance.now() - t) / 1000);
      t = performance.now();
      const r = await runInstance(fx.instance, pred, opts);
      full.push((performance.now() - t) / 1000);
      if (r.result.outcome !== 'resolved')
        throw new Error(`bench instance not resolved: ${r.result.outcome} ${r.result.error}`);
    }
    const overhead = median(full) - median(bare);
    console.log(
      `bare docker run ${r3(median(bare))} s, harness ${r3(median(full))} s → overhead ${r3(overhead)} s ` +
        `(target ≤ ${TARGET_OVERHEAD_S} s) ${overhead <= TARGET_OVERHEAD_S ? 'OK' : 'OVER'}`,
    );

    const throughput: Record<string, { seconds: number; per_minute: number }> = {};
    for (const workers of [1, 2, 4]) {
      const instances = Array.from({ length: n }, (_, i) => ({
        ...fx.instance,
        instance_id: `bench-${workers}-${i}`,
      }));
      const t = performance.now();
      const out = await verifyRun({
        instances,
        predictions: instances.map((i) => ({
          instance_id: i.instance_id,
          model: 'gold',
          patch: fx.patches.gold,
        })),
        runId: `bench-${workers}`,
        dir: join(root, `run-${workers}`),
        backend,
        workers,
        timeoutS: 120,
        repoDirs: { [fx.repo]: fx.dir },
      });
      const s = (performance.now() - t) / 1000;
      if (out.report.resolved_instances !== n)
        throw new Error(`throughput run resolved ${out.report.resolved_instances}/${n}`);
      throughput[`workers_${workers}`] = { seconds: r3(s), per_minute: r3((60 * n) / s) };
      console.log(`${workers} worker(s): ${n} instances in ${r3(s)} s → ${r3((60 * n) / s)} instances/min`);
    }
    return {
      repeats,
      bare_docker_run_s: r3(median(bare)),
      harness_instance_s: r3(median(full)),
      overhead_s: r3(overhead),
      target_overhead_s: TARGET_OVERHEAD_S,
      overhead_ok: overhead <= TARGET_OVERHEAD_S,
      throughput_instances: n,
      throughput,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
