/**
 * Harness overhead and throughput on the Python fixture (images built once, outside the timings):
 * - overhead: the wall time of one instance through the harness (container start with limits, patch
 *   apply chain, test patch, eval script, log read, OOM check, grading, removal) minus a bare
 *   `docker run --rm` of the same test command in the same image. Target ≤ 1.5 s.
 * - throughput: `verifyRun` over N gold instances at 1, 2 and 4 workers (instances per minute).
 * - builds: per fixture language (Python, Go, Java, JavaScript, TypeScript, Rust, C++, C), the environment
 *   and instance images built cold (that language's images removed first; the toolchain base images stay),
 *   the same build again from a fresh backend (the content-hash tags make it a look-up), and the run time of
 *   the gold instance. Target: the second build ≤ 10% of the first.
 * Options: --repeats N (5), --instances N (8), --builds 0 to skip the build timings, --languages a,b,…
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bareDockerRun,
  DockerBackend,
  docker,
  envTag,
  runInstance,
  specFor,
  testCommand,
  verifyRun,
} from '@faun/harness';
import { FIXTURE_LANGUAGES, type FixtureLanguage, makeFixture } from '@faun/harness/testing';
import { UsageError } from '@faun/kit';
import { parseFlags } from '../args.ts';

const TARGET_OVERHEAD_S = 1.5;

export const FLAGS = { repeats: 5, instances: 8, builds: 1, languages: undefined as string | undefined };

/** Second build over first: at most this. */
const TARGET_REBUILD_RATIO = 0.1;

/** Removes the images a fixture's instances and its environment are tagged with (children first). */
async function removeImages(repo: string, env: string): Promise<void> {
  const prefix = `faun/inst-${repo.toLowerCase().replace(/[^a-z0-9]+/g, '-')}:`;
  const list = await docker(['images', '--format', '{{.Repository}}:{{.Tag}}']);
  const inst = list.out.split('\n').filter((t) => t.startsWith(prefix));
  if (inst.length) await docker(['rmi', '-f', ...inst]);
  await docker(['rmi', '-f', env]);
}

/** Per-language build, rebuild and run times of the fixture instances (see the module comment). */
async function buildTimes(root: string, langs: FixtureLanguage[]): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const lang of langs) {
    const fx = makeFixture(lang, root);
    const spec = specFor(fx.instance);
    if (!spec) throw new Error(`no environment spec for the ${lang} fixture`);
    // once first, so the toolchain base images exist and their build is not counted; then cold
    const first = await new DockerBackend('bench').prepare(fx.instance, spec, fx.dir, () => {});
    await removeImages(fx.instance.repo, envTag(spec));
    let t = performance.now();
    const cold = await new DockerBackend('bench').prepare(fx.instance, spec, fx.dir, () => {});
    const buildS = (performance.now() - t) / 1000;
    t = performance.now();
    const warm = await new DockerBackend('bench').prepare(fx.instance, spec, fx.dir, () => {});
    const rebuildS = (performance.now() - t) / 1000;
    if (cold.ref !== first.ref || warm.ref !== cold.ref)
      throw new Error(
        `${lang}: the same inputs gave other image tags (${first.ref}, ${cold.ref}, ${warm.ref})`,
      );
    const backend = new DockerBackend('bench');
    const pred = { instance_id: fx.instance.instance_id, model: 'gold', patch: fx.patches.gold };
    t = performance.now();
    const r = await runInstance(fx.instance, pred, {
      backend,
      spec,
      source: fx.dir,
      runId: `bench-build-${lang}`,
      timeoutS: 900,
    });
    const runS = (performance.now() - t) / 1000;
    const ratio = rebuildS / buildS;
    out[lang] = {
      build_s: r3(buildS),
      rebuild_s: r3(rebuildS),
      rebuild_ratio: r3(ratio),
      rebuild_ok: ratio <= TARGET_REBUILD_RATIO,
      gold_run_s: r3(runS),
      gold_outcome: r.result.outcome,
    };
    console.log(
      `${lang.padEnd(10)} build ${r3(buildS)} s, again ${r3(rebuildS)} s (${r3(ratio)} of it; target ≤ ${TARGET_REBUILD_RATIO}), ` +
        `gold instance ${r3(runS)} s: ${r.result.outcome}`,
    );
  }
  return out;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const r3 = (x: number) => Math.round(x * 1000) / 1000;

export default async function harness(args: string[]): Promise<Record<string, unknown>> {
  const { repeats, instances: n, builds, languages } = parseFlags('harness', args, FLAGS);
  const langs = (languages ?? FIXTURE_LANGUAGES.join(',')).split(',').map((l) => l.trim());
  for (const l of langs)
    if (!FIXTURE_LANGUAGES.includes(l as FixtureLanguage))
      throw new UsageError(`bench harness: --languages ${l}: not a fixture language`, {
        hint: `choose from ${FIXTURE_LANGUAGES.join(', ')}`,
      });
  const root = await mkdtemp(join(tmpdir(), 'faun-bench-harness-'));
  try {
    const perLanguage = builds ? await buildTimes(root, langs as FixtureLanguage[]) : null;
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
      ...(perLanguage ? { per_language: perLanguage, target_rebuild_ratio: TARGET_REBUILD_RATIO } : {}),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
