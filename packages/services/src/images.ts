/**
 * Base toolchain images built with no registry: the Debian base image (base-image.ts), then one layer per
 * toolchain with Debian's packages, built by the confined builder (build-run.ts; by default its network
 * reaches only the package registries). Every tag carries a content hash
 * of what built it, so an existing image is reused and a second run builds nothing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PrerequisiteError, sha256 } from '@faun/kit';
import { withLock } from '@faun/kit/lock';
import { baseImageTag, ensureBaseImage } from './base-image.ts';
import { type BuildPolicy, buildPolicy } from './build-policy.ts';
import { buildImage } from './build-run.ts';
import { ensureDocker, imageExists, STATE_DIR } from './docker.ts';

export type Toolchain = 'python' | 'java' | 'go' | 'node' | 'rust' | 'cpp';
export const TOOLCHAINS: Toolchain[] = ['python', 'java', 'go', 'node', 'rust', 'cpp'];

/** Debian packages each toolchain layer adds (what the harness's environment specs rely on). */
export const TOOLCHAIN_PACKAGES: Record<Toolchain, string[]> = {
  python: ['python3', 'python3-pytest', 'python3-setuptools', 'python3-venv'],
  java: [
    'openjdk-17-jdk-headless',
    'maven',
    'junit4',
    'junit5',
    'libmaven-compiler-plugin-java',
    'libsurefire-java',
  ],
  go: ['golang-go'],
  node: ['nodejs'],
  rust: ['rustc', 'cargo'],
  cpp: ['g++', 'make', 'cmake', 'googletest', 'libgtest-dev'],
};

export function toolchainDockerfile(tc: Toolchain, base = baseImageTag()): string {
  return [
    `FROM ${base}`,
    'ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8',
    `RUN apt-get update && apt-get install -y --no-install-recommends ${TOOLCHAIN_PACKAGES[tc].join(' ')} \\`,
    '    && apt-get clean && rm -rf /var/lib/apt/lists/*',
    `LABEL org.faun.toolchain=${tc}`,
    '',
  ].join('\n');
}

/** Tag of a toolchain image: content hash of its Dockerfile (which names the base tag). */
export function toolchainImageTag(tc: Toolchain): string {
  return `faun/toolchain-${tc}:${sha256(toolchainDockerfile(tc)).slice(0, 12)}`;
}

type Log = (line: string) => void;

/** Builds (or finds) the image for one toolchain; returns its tag. */
export async function ensureToolchainImage(
  tc: Toolchain,
  log: Log = () => {},
  policy: BuildPolicy = buildPolicy('registries'),
): Promise<string> {
  if (!TOOLCHAINS.includes(tc))
    throw new PrerequisiteError(`unknown toolchain '${tc}' (known: ${TOOLCHAINS.join(', ')})`);
  await ensureDocker(log);
  const tag = toolchainImageTag(tc);
  if (await imageExists(tag)) {
    log(`toolchain image ${tag}: present, not rebuilt`);
    return tag;
  }
  await ensureBaseImage(log);
  return withLock(`${STATE_DIR}/toolchain-${tc}.lock`, async () => {
    if (await imageExists(tag)) {
      log(`toolchain image ${tag}: present, not rebuilt`);
      return tag;
    }
    const ctx = join(STATE_DIR, `build-${tc}`);
    mkdirSync(ctx, { recursive: true });
    writeFileSync(join(ctx, 'Dockerfile'), toolchainDockerfile(tc));
    log(`toolchain image ${tag}: build (${TOOLCHAIN_PACKAGES[tc].join(' ')}, network ${policy.network})…`);
    try {
      await buildImage(tag, toolchainDockerfile(tc), ctx, policy, log);
    } catch (e) {
      throw new PrerequisiteError(`build of ${tag} failed: ${(e as Error).message}`);
    }
    log(`toolchain image ${tag}: built`);
    return tag;
  });
}

/** Builds every toolchain image (or the ones named). */
export async function ensureToolchainImages(
  tcs: Toolchain[] = TOOLCHAINS,
  log: Log = () => {},
  policy?: BuildPolicy,
): Promise<string[]> {
  // two at a time: each build waits on downloads as much as on the CPU; the base image they share comes first
  if (tcs.length) await ensureBaseImage(log);
  const tags: string[] = new Array(tcs.length);
  let next = 0;
  const work = async () => {
    while (next < tcs.length) {
      const i = next++;
      tags[i] = await ensureToolchainImage(tcs[i]!, log, policy);
    }
  };
  await Promise.all([work(), work()]);
  return tags;
}
