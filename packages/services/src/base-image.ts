/**
 * The Debian base image, built with no registry: `debootstrap` a bookworm rootfs on the host from faun's
 * Debian mirror and `docker import` it. Its tag is a content hash of the recipe.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PrerequisiteError, sha256 } from '@faun/kit';
import { withLock } from '@faun/kit/lock';
import { ensureDebs } from './apt.ts';
import { ensureDocker, imageExists, STATE_DIR } from './docker.ts';
import { run, runQuiet } from './proc.ts';

const SUITE = 'bookworm';
const MIRROR = process.env.FAUN_DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';
const BASE_PACKAGES = ['ca-certificates', 'git', 'patch', 'procps', 'coreutils', 'findutils', 'sed', 'grep'];

const BASE_RECIPE = `debootstrap --variant=minbase --include=${BASE_PACKAGES.join(',')} ${SUITE} ${MIRROR}`;

/** Tag of the imported Debian base image (content hash of its recipe). */
export function baseImageTag(): string {
  return `faun/debian:${SUITE}-${sha256(BASE_RECIPE).slice(0, 12)}`;
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
