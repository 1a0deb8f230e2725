/**
 * @faun/services — the machine services faun and its tests need, set up without any registry:
 * a Docker engine (Debian's docker.io + dockerd), base toolchain images built from a debootstrapped
 * Debian rootfs, Redis and PostgreSQL servers, a loopback Docker registry, headless Chromium.
 * @module
 */

export { processAlive, withLock } from '@faun/kit/lock';
export { ensureDebs, missingDebs } from './apt.ts';
export { baseImageTag, ensureBaseImage } from './base-image.ts';
export { BUILD_NET, BuildNetworkError, buildNetworkArgs } from './build-net.ts';
export {
  BUILD_CAPS,
  BUILD_NETWORKS,
  type BuildLimits,
  type BuildNetwork,
  type BuildPolicy,
  buildPolicy,
  DEFAULT_BUILD_LIMITS,
  hostRegistries,
  parseBuildNetwork,
} from './build-policy.ts';
export { BuildStepError, buildImage } from './build-run.ts';
export { type BuildStep, DockerfileError, parseDockerfile } from './build-steps.ts';
export { CHROMIUM_ARGS, chromiumPath } from './chromium.ts';
export { type DockerStatus, dockerReachable, ensureDocker, imageExists, STATE_DIR } from './docker.ts';
export {
  ensureToolchainImage,
  ensureToolchainImages,
  TOOLCHAIN_PACKAGES,
  TOOLCHAINS,
  type Toolchain,
  toolchainDockerfile,
  toolchainImageTag,
} from './images.ts';
export { ensurePostgres } from './postgres.ts';
export { freePort, run, waitFor } from './proc.ts';
export { ensureRedis, type ServiceHandle } from './redis.ts';
export { ensureRegistry } from './registry.ts';
