/**
 * Image building with the docker CLI (the other half of the container edge, beside docker.ts): the repo-env
 * and instance layers, and toolchain images for older Debian suites (bullseye = Python 3.9) that
 * @faun/services does not build. Every tag is a content hash of what built it.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaunError, outputOf, sha256 } from '@faun/kit';
import type { ExecutionInstance } from '@faun/schema';
import {
  type BuildPolicy,
  buildImage,
  buildPolicy,
  ensureDebs,
  ensureToolchainImage,
  imageExists,
  STATE_DIR,
  TOOLCHAIN_PACKAGES,
  toolchainImageTag,
  withLock,
} from '@faun/services';
import { exportTree } from './repo.ts';
import { type EnvSpec, installSteps } from './specs.ts';

export const LABEL = 'org.faun.harness';
export const WORKDIR = '/testbed';
export const SCRATCH = '/faun';
const MIRROR = process.env.FAUN_DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';
const BASE_PACKAGES = ['ca-certificates', 'git', 'patch', 'procps', 'coreutils', 'findutils', 'sed', 'grep'];

/** An image could not be built: an infrastructure failure, not the model's. */
export class ImageBuildError extends FaunError {}

/** Runs the docker CLI; resolves with the exit code and combined output. */
export async function docker(args: string[]): Promise<{ code: number; out: string }> {
  const p = Bun.spawn(['docker', ...args], { stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  const { code, stdout, stderr } = await outputOf(p);
  return { code, out: stdout + stderr };
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);

function suiteRecipe(spec: EnvSpec): string {
  return `${spec.suite}:${[...BASE_PACKAGES].join(',')}:${TOOLCHAIN_PACKAGES[spec.toolchain].join(',')}`;
}

/** Tag of the toolchain image a spec builds on. */
export function toolchainTag(spec: EnvSpec): string {
  if (!spec.suite || spec.suite === 'bookworm') return toolchainImageTag(spec.toolchain);
  return `faun/toolchain-${spec.toolchain}-${spec.suite}:${sha256(suiteRecipe(spec)).slice(0, 12)}`;
}

/** Where an env build with `registryBuild` finds the host's CA bundle (public certificates only). */
export const BUILD_CA_PATH = '/etc/ssl/certs/faun-build-ca.crt';
const BUILD_CA_FILE = 'faun-build-ca.crt';

/** The host's CA bundle (what its own package clients trust), or null. */
export function hostCaBundle(env: Record<string, string | undefined> = process.env): string | null {
  for (const p of [env.NODE_EXTRA_CA_CERTS, env.SSL_CERT_FILE, '/etc/ssl/certs/ca-certificates.crt'])
    if (p && existsSync(p)) return p;
  return null;
}

/** Context directory of the spec's `i`-th source. */
const sourceDir = (i: number) => `faun-source-${i}`;

/**
 * Fills an env build context: each of the spec's sources (its tree at the commit, from the git
 * directory `sourceOf` gives for the repository), and the host's CA bundle when the steps use a registry.
 */
export async function fillEnvContext(
  spec: EnvSpec,
  ctx: string,
  sourceOf: (repo: string) => Promise<string> = async (repo) => {
    throw new ImageBuildError(`no source for ${repo}`);
  },
): Promise<void> {
  for (const [i, s] of (spec.sources ?? []).entries())
    await exportTree(await sourceOf(s.repo), s.commit, join(ctx, sourceDir(i)));
  if (!spec.registryBuild) return;
  const ca = hostCaBundle();
  writeFileSync(join(ctx, BUILD_CA_FILE), ca ? await Bun.file(ca).text() : '');
}

/** Dockerfile of the repo-env layer. */
export function envDockerfile(spec: EnvSpec): string {
  const lines = [`FROM ${toolchainTag(spec)}`];
  const env = Object.entries(spec.env ?? {}).sort();
  if (env.length) lines.push(`ENV ${env.map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(' ')}`);
  if (spec.apt.length)
    lines.push(
      // One install of the packages this suite has (each missing one reported); a failed download fails
      // the build instead of leaving an environment without the package.
      `RUN apt-get update && apt-get install -y --no-install-recommends $(for p in ${[...spec.apt].sort().join(' ')}; do \\`,
      '      if apt-cache show "$p" >/dev/null 2>&1; then echo "$p"; else echo "faun: $p is not in this suite" >&2; fi; done) \\',
      '    && apt-get clean && rm -rf /var/lib/apt/lists/*',
    );
  for (const [i, s] of (spec.sources ?? []).entries())
    lines.push(`# ${s.repo} at ${s.commit}`, `COPY ${sourceDir(i)} ${s.dest}`);
  if (spec.registryBuild) lines.push(`COPY ${BUILD_CA_FILE} ${BUILD_CA_PATH}`);
  for (const s of spec.envSetup)
    lines.push(spec.registryBuild ? `RUN export NODE_EXTRA_CA_CERTS=${BUILD_CA_PATH}; ${s}` : `RUN ${s}`);
  lines.push(`LABEL ${LABEL}.layer=env ${LABEL}.spec=${JSON.stringify(spec.name)}`, '');
  return lines.join('\n');
}

/** Tag of the repo-env layer. */
export function envTag(spec: EnvSpec): string {
  return `faun/env-${slug(spec.name)}:${sha256(envDockerfile(spec)).slice(0, 12)}`;
}

/** Dockerfile of the instance layer. */
export function instanceDockerfile(spec: EnvSpec, inst: ExecutionInstance): string {
  const lines = [`FROM ${envTag(spec)}`, `COPY testbed ${WORKDIR}`, `WORKDIR ${WORKDIR}`];
  for (const s of installSteps(spec, inst)) lines.push(`RUN ${s}`);
  lines.push(`RUN mkdir -p ${SCRATCH}`, `LABEL ${LABEL}.layer=instance`, '');
  return lines.join('\n');
}

/** Builds `dockerfile` in `ctx` with the confined builder of @faun/services (every step under `policy`). */
export async function build(
  tag: string,
  dockerfile: string,
  ctx: string,
  policy: BuildPolicy,
  log: (l: string) => void,
): Promise<void> {
  writeFileSync(join(ctx, 'Dockerfile'), dockerfile);
  log(`building ${tag} (build network: ${policy.network})`);
  try {
    await buildImage(tag, dockerfile, ctx, policy, log);
  } catch (e) {
    throw new ImageBuildError(`image build failed for ${tag}:\n${(e as Error).message.slice(-3000)}`);
  }
}

/** Builds `tag` from a fresh temporary context prepared by `fill`. */
export async function buildIn(
  tag: string,
  dockerfile: string,
  policy: BuildPolicy,
  log: (l: string) => void,
  fill: (ctx: string) => Promise<void> = async () => {},
): Promise<void> {
  const ctx = mkdtempSync(join(tmpdir(), 'faun-build-'));
  try {
    await fill(ctx);
    await build(tag, dockerfile, ctx, policy, log);
  } finally {
    await rm(ctx, { recursive: true, force: true });
  }
}

/** The spec's toolchain image: from @faun/services for bookworm, built here for older suites. */
export async function ensureSpecToolchain(
  spec: EnvSpec,
  log: (l: string) => void,
  policy: BuildPolicy = buildPolicy('registries'),
): Promise<string> {
  if (!spec.suite || spec.suite === 'bookworm') return ensureToolchainImage(spec.toolchain, log, policy);
  const tag = toolchainTag(spec);
  if (await imageExists(tag)) return tag;
  await mkdir(STATE_DIR, { recursive: true });
  return withLock(`${STATE_DIR}/toolchain-${spec.toolchain}-${spec.suite}.lock`, async () => {
    if (await imageExists(tag)) return tag;
    await ensureDebs(['debootstrap'], log);
    const rootfs = join(STATE_DIR, `rootfs-${spec.suite}-${process.pid}`);
    await rm(rootfs, { recursive: true, force: true });
    log(`debootstrap ${spec.suite} (a few minutes)…`);
    const pkgs = [...BASE_PACKAGES, ...TOOLCHAIN_PACKAGES[spec.toolchain]].join(',');
    const p = Bun.spawn(
      ['debootstrap', '--variant=minbase', `--include=${pkgs}`, spec.suite!, rootfs, MIRROR],
      {
        stdout: 'pipe',
        stderr: 'pipe',
      },
    );
    const { code, stdout, stderr } = await outputOf(p);
    if (code !== 0)
      throw new ImageBuildError(`debootstrap ${spec.suite} failed:\n${(stdout + stderr).slice(-2000)}`);
    writeFileSync(join(rootfs, 'etc/apt/sources.list'), `deb ${MIRROR} ${spec.suite} main\n`);
    await rm(join(rootfs, 'var/cache/apt/archives'), { recursive: true, force: true });
    const base = `${tag}-rootfs`;
    const imp = Bun.spawn(['sh', '-c', `tar -C '${rootfs}' -c . | docker import - '${base}'`], {
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const impErr = await new Response(imp.stderr).text();
    if ((await imp.exited) !== 0) throw new ImageBuildError(`docker import failed: ${impErr}`);
    if (existsSync(rootfs)) await rm(rootfs, { recursive: true, force: true });
    await buildIn(
      tag,
      [
        `FROM ${base}`,
        'ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8',
        `LABEL org.faun.toolchain=${spec.toolchain}`,
        '',
      ].join('\n'),
      buildPolicy('none'),
      log,
    );
    return tag;
  });
}
