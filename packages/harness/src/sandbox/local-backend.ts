/** The local-process backend: snapshots in a cache directory, sandboxes as temporary copies (unit tests). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FaunError, sha256 } from '@faun/kit';
import type { ExecutionInstance } from '@faun/schema';
import { stableStringify } from '@faun/schema';
import { snapshotRepo, treeOf } from '../envs/repo.ts';
import { type EnvSpec, installSteps } from '../envs/specs.ts';
import { buildAndPublish } from '../files/publish-dir.ts';
import {
  type Backend,
  LocalSandbox,
  type LogLine,
  localExec,
  type PreparedEnv,
  type Sandbox,
} from './sandbox.ts';

const READY = '.faun-ready';

export class LocalBackend implements Backend {
  readonly name = 'local';
  private readonly envs = new Map<string, Record<string, string>>();
  private readonly building = new Map<string, Promise<void>>();

  constructor(private readonly cacheDir: string) {}

  envHash(inst: ExecutionInstance, spec: EnvSpec, tree: string): string {
    return sha256(stableStringify({ tree, install: installSteps(spec, inst), spec: spec.specVersion })).slice(
      0,
      16,
    );
  }

  async prepare(inst: ExecutionInstance, spec: EnvSpec, source: string, log: LogLine): Promise<PreparedEnv> {
    const hash = this.envHash(inst, spec, await treeOf(source, inst.base_commit));
    const dir = join(this.cacheDir, `local-${hash}`);
    this.envs.set(dir, spec.env ?? {});
    let p = this.building.get(dir);
    if (!p) {
      p = this.build(inst, spec, source, dir, log);
      this.building.set(dir, p);
      p.catch(() => this.building.delete(dir));
    }
    await p;
    return { ref: dir, hash };
  }

  /**
   * Builds the snapshot aside and publishes it whole, ready marker included (`buildAndPublish`): several
   * backends (one per queue job) share a cache folder, and one must never remove or rebuild an entry another
   * is copying from. An entry without the marker is unfinished and built again.
   */
  private async build(
    inst: ExecutionInstance,
    spec: EnvSpec,
    source: string,
    dir: string,
    log: (l: string) => void,
  ) {
    if (existsSync(join(dir, READY))) return;
    await buildAndPublish(
      dir,
      async (tmp) => {
        await snapshotRepo(source, inst.base_commit, tmp);
        for (const step of installSteps(spec, inst)) {
          log(`install: ${step}`);
          const r = await localExec(step, tmp, { timeoutMs: 600_000, baseEnv: spec.env });
          if (r.exitCode !== 0)
            throw new FaunError(`install step failed (${r.exitCode}): ${step}\n${r.output.slice(-2000)}`);
        }
        await Bun.write(join(tmp, '.git', 'info', 'exclude'), `${READY}\n`);
        await Bun.write(join(tmp, READY), '');
      },
      (entry) => !existsSync(join(entry, READY)),
    );
  }

  start(env: PreparedEnv): Promise<Sandbox> {
    return LocalSandbox.create(env.ref, this.envs.get(env.ref) ?? {});
  }
}
