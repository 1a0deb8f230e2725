/**
 * SWE-bench Lite through `verifyRun`, offline, environments built from Debian's packages and the mirrors:
 * every Lite row (../shared/data/swebench-lite/*.jsonl) whose repository has a mirror under `--mirrors`
 * (`DIR/owner+name` or `DIR/owner+name/repo`, as the search tool's fetch lays them out) runs with the
 * gold patch and with an empty one. Per repository: rows, environment build time (time spent preparing
 * images), gold resolved, empty resolved, and for each gold failure its failing tests and reason.
 * `--passes 2` runs everything twice in fresh run directories: the second pass reuses every image (no
 * results), and its wall time is reported as a fraction of the first.
 * Options: --mirrors DIR (required), --data DIR, --workers N (2), --passes N (1), --timeout S (3600:
 * on a shared 2-core machine a large test file can take over half an hour), --repos owner/name,…
 * (default: every repository with a mirror), --ids instance_id,… (only those rows), --logs DIR (write the
 * run directories, with every test log, to DIR/<kind>-<pass> and keep them; default: a temporary folder
 * removed at the end).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Backend,
  builtinPredictions,
  DockerBackend,
  loadInstances,
  specFor,
  verifyRun,
} from '@faun/harness';
import { UsageError } from '@faun/kit';
import type { ExecutionInstance, ExecutionResult } from '@faun/schema';
import { parseFlags } from '../args.ts';

export const FLAGS = {
  mirrors: undefined,
  data: join(import.meta.dir, '..', '..', '..', '..', 'shared', 'data', 'swebench-lite'),
  workers: 2,
  passes: 1,
  timeout: 3600,
  repos: undefined,
  ids: undefined,
  logs: undefined,
};

export interface GoldFailure {
  instance_id: string;
  outcome: string;
  reason: string | null;
  failing: string[];
}

export interface RepoFigures {
  rows: number;
  env_build_seconds: number;
  gold_resolved: number;
  empty_resolved: number;
  gold_failures: GoldFailure[];
}

/** Per-repository figures from one pass's results (pure). */
export function summarize(
  instances: ExecutionInstance[],
  gold: ExecutionResult[],
  empty: ExecutionResult[],
  buildSeconds: Record<string, number>,
): Record<string, RepoFigures> {
  const repoOf = new Map(instances.map((i) => [i.instance_id, i.repo]));
  const out: Record<string, RepoFigures> = {};
  const slot = (repo: string) => {
    out[repo] ??= { rows: 0, env_build_seconds: 0, gold_resolved: 0, empty_resolved: 0, gold_failures: [] };
    return out[repo];
  };
  for (const i of instances) slot(i.repo).rows++;
  for (const [repo, s] of Object.entries(buildSeconds))
    slot(repo).env_build_seconds = Math.round(s * 10) / 10;
  for (const r of empty)
    if (r.outcome === 'resolved') slot(repoOf.get(r.instance_id) ?? '?').empty_resolved++;
  for (const r of gold) {
    const s = slot(repoOf.get(r.instance_id) ?? '?');
    if (r.outcome === 'resolved') {
      s.gold_resolved++;
      continue;
    }
    const ts = r.tests_status as Record<string, { failure: string[] }>;
    const failing = [...(ts.FAIL_TO_PASS?.failure ?? []), ...(ts.PASS_TO_PASS?.failure ?? [])];
    s.gold_failures.push({ instance_id: r.instance_id, outcome: r.outcome, reason: r.error, failing });
  }
  for (const s of Object.values(out))
    s.gold_failures.sort((a, b) => a.instance_id.localeCompare(b.instance_id));
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

/** `owner/name` → its mirror's git directory under `dir`, for the repositories that have one. */
export function mirrorDirs(dir: string, repos: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const repo of repos) {
    const base = join(dir, repo.replace('/', '+'));
    for (const cand of [join(base, 'repo'), base])
      if (existsSync(join(cand, 'HEAD'))) {
        out[repo] = cand;
        break;
      }
  }
  return out;
}

/** A backend that adds up, per repository, the time spent preparing environments. */
function timed(inner: Backend, seconds: Record<string, number>): Backend {
  return {
    name: inner.name,
    envHash: (i, s, t) => inner.envHash(i, s, t),
    async prepare(inst, spec, source, log) {
      const t = performance.now();
      try {
        return await inner.prepare(inst, spec, source, log);
      } finally {
        seconds[inst.repo] = (seconds[inst.repo] ?? 0) + (performance.now() - t) / 1000;
      }
    },
    start: (env, opts) => inner.start(env, opts),
    reapOrphans: inner.reapOrphans ? () => inner.reapOrphans!() : undefined,
  };
}

export default async function lite(args: string[]): Promise<Record<string, unknown>> {
  const f = parseFlags('lite', args, FLAGS);
  if (!f.mirrors) throw new UsageError('lite needs --mirrors DIR (the directory of fetched mirrors)');
  const data = f.data ?? FLAGS.data;
  if (!existsSync(data)) throw new UsageError(`no SWE-bench Lite data at ${data} (pass --data DIR)`);
  const files = (await readdir(data)).filter((n) => n.endsWith('.jsonl')).sort();
  const all: ExecutionInstance[] = [];
  for (const n of files) all.push(...(await loadInstances(join(data, n))));
  const wanted = f.repos ? new Set(f.repos.split(',')) : null;
  const mirrors = mirrorDirs(
    f.mirrors,
    [...new Set(all.map((i) => i.repo))].filter((r) => !wanted || wanted.has(r)),
  );
  const ids = f.ids ? new Set(f.ids.split(',')) : null;
  const instances = all.filter((i) => mirrors[i.repo] && specFor(i) && (!ids || ids.has(i.instance_id)));
  // Repositories the specs take dependency sources from (astroid, numbagg) come from the mirrors too.
  const sourceRepos = [...new Set(instances.flatMap((i) => (specFor(i)?.sources ?? []).map((s) => s.repo)))];
  const sourceDirs = { ...mirrorDirs(f.mirrors, sourceRepos), ...mirrors };
  const skipped = [...new Set(all.map((i) => i.repo))].filter((r) => !mirrors[r]).sort();
  console.log(
    `${instances.length} Lite rows over ${Object.keys(mirrors).length} repositories with a mirror; ` +
      `no mirror: ${skipped.join(', ') || 'none'}`,
  );
  // every pass runs in fresh run directories: a kept folder from an earlier run would be resumed, not re-run
  if (f.logs && existsSync(f.logs) && (await readdir(f.logs)).length)
    throw new UsageError(`--logs ${f.logs} is not empty`, { hint: 'pass a new folder for every run' });
  const root = f.logs ?? (await mkdtemp(join(tmpdir(), 'faun-bench-lite-')));
  const passes: Array<{ wall_seconds: number; per_repo: Record<string, RepoFigures> }> = [];
  try {
    for (let p = 1; p <= Math.max(1, f.passes); p++) {
      const build: Record<string, number> = {};
      const backend = timed(
        new DockerBackend(`bench-lite-${p}`, { buildNetwork: 'registries', repoDirs: sourceDirs }),
        build,
      );
      const t = performance.now();
      const run = async (kind: 'gold' | 'empty') =>
        (
          await verifyRun({
            instances,
            predictions: builtinPredictions(kind, instances),
            runId: `lite-${kind}-${p}`,
            dir: join(root, `${kind}-${p}`),
            backend,
            workers: f.workers,
            timeoutS: f.timeout,
            repoDirs: mirrors,
            onResult: (r) => console.log(`  pass ${p} ${kind}: ${r.instance_id} ${r.outcome}`),
          })
        ).results;
      const gold = await run('gold');
      const empty = await run('empty');
      const wall = (performance.now() - t) / 1000;
      const per_repo = summarize(instances, gold, empty, build);
      passes.push({ wall_seconds: Math.round(wall), per_repo });
      console.log(`pass ${p}: ${Math.round(wall)} s`);
      for (const [repo, s] of Object.entries(per_repo)) {
        console.log(
          `  ${repo}: ${s.rows} rows, env build ${s.env_build_seconds} s, gold ${s.gold_resolved}/${s.rows}, empty ${s.empty_resolved}/${s.rows}`,
        );
        for (const g of s.gold_failures)
          console.log(
            `    ${g.instance_id} ${g.outcome}: ${g.reason ?? ''} ${g.failing.slice(0, 5).join(' ')}`,
          );
      }
    }
  } finally {
    if (!f.logs) await rm(root, { recursive: true, force: true });
  }
  if (f.logs) console.log(`run directories kept under ${root}`);
  const ratio =
    passes.length > 1 ? Math.round((passes[1]!.wall_seconds / passes[0]!.wall_seconds) * 100) / 100 : null;
  if (ratio !== null)
    console.log(`second pass / first: ${ratio} (target ≤ 0.4) ${ratio <= 0.4 ? 'OK' : 'OVER'}`);
  return { rows: instances.length, no_mirror: skipped, workers: f.workers, passes, second_over_first: ratio };
}
