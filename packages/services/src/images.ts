/**
 * Base toolchain images built with no registry: `debootstrap` a Debian bookworm rootfs, `docker import`
 * it, then `docker build` one layer per toolchain with Debian's packages. Every tag carries a content hash
 * of what built it, so an existing image is reused and a second run builds nothing.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PrerequisiteError, sha256 } from '@faun/kit';
import { withLock } from '@faun/kit/lock';
import { ensureDebs } from './apt.ts';
import { ensureDocker, imageExists, STATE_DIR } from './docker.ts';
import { run, runLogged, runQuiet } from './proc.ts';

export type Toolchain = 'python' | 'java' | 'go' | 'node' | 'rust' | 'cpp';
export const TOOLCHAINS: Toolchain[] = ['python', 'java', 'go', 'node', 'rust', 'cpp'];

const SUITE = 'bookworm';
const MIRROR = process.env.FAUN_DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';
const BASE_PACKAGES = ['ca-certificates', 'git', 'patch', 'procps', 'coreutils', 'findutils', 'sed', 'grep'];

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

const BASE_RECIPE = `debootstrap --variant=minbase --include=${BASE_PACKAGES.join(',')} ${SUITE} ${MIRROR}`;

/** Tag of the imported Debian base image (content hash of its recipe). */
export function baseImageTag(): string {
  return `faun/debian:${SUITE}-${sha256(BASE_RECIPE).slice(0, 12)}`;
}

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

/** Builds (or finds) the Debian base image. */
export async function ensureBaseImage(log: Log = () => {}): Promise<string> {
  await ensureDocker(log);
  const tag = baseImageTag();
  if (await imageExists(tag)) {
    log(`base image ${tag}: present, not rebuilt`);
    return tag;
  }
  mkdirSync(STATE_DIR, { recursive: true });
  return withLock(`${STATE_DIR}/base-image.lock`, async () => {
    if (await imageExists(tag)) {
      log(`base image ${tag}: present, not rebuilt`);
      return tag;
    }
    await ensureDebs(['debootstrap'], log);
    const rootfs = join(STATE_DIR, `rootfs-${tag.split(':')[1]}`);
    rmSync(rootfs, { recursive: true, force: true });
    log(`base image ${tag}: debootstrap ${SUITE} into ${rootfs} (a few minutes)…`);
    const args = BASE_RECIPE.split(' ');
    const boot = await runQuiet([args[0] ?? 'debootstrap', ...args.slice(1, -2), SUITE, rootfs, MIRROR], {
      log,
    });
    if (boot.code !== 0)
      throw new PrerequisiteError(
        `debootstrap failed (exit ${boot.code}); its last lines:\n  ${boot.tail.join('\n  ')}`,
        { hint: `mirror: ${MIRROR}` },
      );
    writeFileSync(
      join(rootfs, 'etc/apt/sources.list'),
      `deb ${MIRROR} ${SUITE} main\ndeb ${MIRROR} ${SUITE}-updates main\n`,
    );
    rmSync(join(rootfs, 'var/cache/apt/archives'), { recursive: true, force: true });
    mkdirSync(join(rootfs, 'var/cache/apt/archives/partial'), { recursive: true });
    log(`base image ${tag}: docker import`);
    const imp = await run(['sh', '-c', `tar -C '${rootfs}' -c . | docker import - '${tag}'`]);
    if (imp.code !== 0) throw new PrerequisiteError(`docker import failed: ${imp.stderr.trim()}`);
    rmSync(rootfs, { recursive: true, force: true });
    log(`base image ${tag}: built`);
    return tag;
  });
}

/** Builds (or finds) the image for one toolchain; returns its tag. */
export async function ensureToolchainImage(tc: Toolchain, log: Log = () => {}): Promise<string> {
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
    log(`toolchain image ${tag}: docker build (${TOOLCHAIN_PACKAGES[tc].join(' ')})…`);
    const code = await runLogged(['docker', 'build', '--network', 'host', '-t', tag, ctx], (l) => {
      if (/^(Step|Successfully|E:|ERROR)/.test(l)) log(`  ${l}`);
    });
    if (code !== 0) throw new PrerequisiteError(`docker build of ${tag} failed (exit ${code})`);
    log(`toolchain image ${tag}: built`);
    return tag;
  });
}

/** Builds every toolchain image (or the ones named). */
export async function ensureToolchainImages(
  tcs: Toolchain[] = TOOLCHAINS,
  log: Log = () => {},
): Promise<string[]> {
  const tags: string[] = [];
  for (const tc of tcs) tags.push(await ensureToolchainImage(tc, log));
  return tags;
}
