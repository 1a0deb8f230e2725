/**
 * @faun/services — the machine services faun and its tests need, set up without any registry:
 * a Docker engine (Debian's docker.io + dockerd), base toolchain images built from a debootstrapped
 * Debian rootfs, Redis and PostgreSQL servers, headless Chromium.
 * @module
 */
export {};
