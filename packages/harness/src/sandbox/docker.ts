/**
 * The container backend — the only module that talks to Docker. Images are layered and tagged by
 * content hash: toolchain (from @faun/services) → repo env (Debian packages, setup) → instance (the
 * single-commit snapshot at /testbed + install steps). Sandboxes are testcontainers containers with
 * CPU, memory and pids limits, no network, and labels naming the run and instance.
 */

import { hostname } from 'node:os';
import { join } from 'node:path';
import { FaunError, PrerequisiteError, sha256 } from '@faun/kit';
import type { ExecutionInstance } from '@faun/schema';
import {
  type BuildNetwork,
  type BuildPolicy,
  buildPolicy,
  ensureDocker,
  imageExists,
  processAlive,
} from '@faun/services';
import {
  buildIn,
  docker,
  ensureSpecToolchain,
  envDockerfile,
  envTag,
  fillEnvContext,
  instanceDockerfile,
  LABEL,
} from '../envs/docker-images.ts';
import type { LockEntry } from '../envs/image-trust.ts';
import type { PublishedPlan } from '../envs/published.ts';
import { repoSource, snapshotRepo, treeOf } from '../envs/repo.ts';
import { removeSandboxImage } from '../envs/sandbox-image.ts';
import type { EnvSpec } from '../envs/specs.ts';
import { startContainer } from './container-sandbox.ts';
import type { Backend, LogLine, PreparedEnv, Sandbox, StartOptions } from './sandbox.ts';

// No registry here: the resource reaper's image cannot be pulled; containers are removed by us.
process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';

export { ImageBuildError, LABEL } from '../envs/docker-images.ts';

/** Where sources of repositories without a local git directory are cloned (as `faun verify` does). */
const REPO_CACHE = '/var/cache/faun/repos';

export class DockerBackend implements Backend {
  readonly name = 'docker';
  private readonly building = new Map<string, Promise<void>>();

  private readonly buildPolicy: BuildPolicy;

  private readonly repoDirs: Record<string, string>;

  /**
   * `runId` labels every container; the run's pid lets later runs detect leftovers of dead runs.
   * `buildPolicy` (or `buildNetwork`, with the default limits): what toolchain, env and instance builds may
   * reach and use — by default only the package registries; tests always run without a network.
   * `repoDirs`: local git directories of the repositories specs take sources from (else cloned).
   */
  constructor(
    private readonly runId: string,
    opts: { buildNetwork?: BuildNetwork; buildPolicy?: BuildPolicy; repoDirs?: Record<string, string> } = {},
  ) {
    this.buildPolicy = opts.buildPolicy ?? buildPolicy(opts.buildNetwork ?? 'registries');
    this.repoDirs = opts.repoDirs ?? {};
  }

  envHash(inst: ExecutionInstance, spec: EnvSpec, tree: string): string {
    if (inst.image) return sha256(`prebuilt:${inst.image}`).slice(0, 16);
    return sha256(`${envTag(spec)}\n${tree}\n${instanceDockerfile(spec, inst)}`).slice(0, 16);
  }

  /** Builds `tag` once per process even when several workers ask at the same time. */
  private once(tag: string, make: () => Promise<void>): Promise<void> {
    let p = this.building.get(tag);
    if (!p) {
      p = (async () => {
        if (!(await imageExists(tag))) await make();
      })();
      this.building.set(tag, p);
      p.catch(() => this.building.delete(tag));
    }
    return p;
  }

  async prepare(inst: ExecutionInstance, spec: EnvSpec, source: string, log: LogLine): Promise<PreparedEnv> {
    await ensureDocker(log);
    if (inst.image) {
      if (!(await imageExists(inst.image)))
        throw new PrerequisiteError(
          `prebuilt image ${inst.image} is not present locally (no registry to pull from)`,
        );
      return { ref: inst.image, hash: this.envHash(inst, spec, '') };
    }
    const tree = await treeOf(source, inst.base_commit);
    const hash = this.envHash(inst, spec, tree);
    const env = envTag(spec);
    const tag = `faun/inst-${inst.repo.toLowerCase().replace(/[^a-z0-9]+/g, '-')}:${hash}`;
    await this.once(env, async () => {
      await ensureSpecToolchain(spec, log, this.buildPolicy);
      await buildIn(env, envDockerfile(spec), this.buildPolicy, log, (ctx) =>
        fillEnvContext(spec, ctx, (repo) => repoSource(repo, this.repoDirs, REPO_CACHE)),
      );
    });
    await this.once(tag, () =>
      buildIn(tag, instanceDockerfile(spec, inst), this.buildPolicy, log, async (ctx) => {
        await snapshotRepo(source, inst.base_commit, join(ctx, 'testbed'));
      }),
    );
    return { ref: tag, hash };
  }

  /** A published image: used when present locally, else pulled (when `pull`). */
  async preparePublished(plan: PublishedPlan, pull: boolean, log: (l: string) => void): Promise<PreparedEnv> {
    await ensureDocker(log);
    const hash = sha256(`published:${plan.image}`).slice(0, 16);
    await this.once(plan.image, async () => {
      if (!pull)
        throw new PrerequisiteError(`${plan.image} is not present locally (pass --images pull to pull it)`);
      log(`pulling ${plan.image}`);
      const r = await docker(['pull', plan.image]);
      if (r.code !== 0) {
        const why = r.out.trim().split('\n').filter(Boolean).pop() ?? `exit ${r.code}`;
        throw new FaunError(`docker pull failed: ${why}`);
      }
    });
    return { ref: plan.image, hash, workdir: plan.workdir };
  }

  async imageEntry(ref: string): Promise<LockEntry | null> {
    const r = await docker(['image', 'inspect', '--format', '{{json .Id}} {{json .RepoDigests}}', ref]);
    if (r.code !== 0) return null;
    const [id, digests] = r.out.trim().split(' ');
    const repo = (JSON.parse(digests ?? 'null') as string[] | null)?.[0] ?? null;
    return { id: JSON.parse(id ?? '""') as string, repo_digest: repo };
  }

  start(env: PreparedEnv, opts: StartOptions): Promise<Sandbox> {
    return startContainer(env, opts, {
      [LABEL]: '1',
      [`${LABEL}.run`]: this.runId,
      [`${LABEL}.pid`]: String(process.pid),
      [`${LABEL}.host`]: hostname(),
      ...opts.labels,
    });
  }

  async release(env: PreparedEnv): Promise<void> {
    if (!env.ref.startsWith('faun/inst-')) return; // prebuilt images are not ours to remove
    this.building.delete(env.ref);
    await removeSandboxImage(env.ref); // the sandbox layer over it first
    await docker(['rmi', env.ref]); // fails harmlessly while another container still uses it
  }

  /** Removes containers labelled by runs whose process is gone (this host only). */
  async reapOrphans(): Promise<number> {
    const r = await docker([
      'ps',
      '-a',
      '--filter',
      `label=${LABEL}`,
      '--format',
      `{{.ID}} {{.Label "${LABEL}.pid"}} {{.Label "${LABEL}.host"}}`,
    ]);
    if (r.code !== 0) return 0;
    const dead: string[] = [];
    for (const line of r.out.trim().split('\n').filter(Boolean)) {
      const [id, pid, host] = line.split(' ');
      if (!id || host !== hostname()) continue;
      if (!pid || !processAlive(Number(pid))) dead.push(id);
    }
    if (dead.length) await docker(['rm', '-f', ...dead]);
    return dead.length;
  }
}

/** Runs `cmd` in a bare container of `image` (the benchmark's baseline). */
export async function bareDockerRun(image: string, cmd: string): Promise<number> {
  const r = await docker(['run', '--rm', '--network', 'none', image, 'bash', '-c', cmd]);
  return r.code;
}
