#!/usr/bin/env bun
/**
 * Prepares the container runtime: a Docker engine (started when none answers) and the base toolchain
 * images, built without any registry. Prints what it does; a second run builds nothing.
 *   bun scripts/setup-services.ts [python java go node rust cpp]
 */
import { ensureDocker, ensureToolchainImages, TOOLCHAINS, type Toolchain } from '@faun/services';

const wanted = process.argv.slice(2) as Toolchain[];
const bad = wanted.filter((t) => !TOOLCHAINS.includes(t));
if (bad.length) {
  console.error(`unknown toolchain(s): ${bad.join(', ')}; known: ${TOOLCHAINS.join(', ')}`);
  process.exit(2);
}
const log = (l: string) => console.log(l);
const status = await ensureDocker(log);
log(`docker engine ${status.serverVersion}${status.started ? ' (started now)' : ' (already running)'}`);
const tags = await ensureToolchainImages(wanted.length ? wanted : TOOLCHAINS, log);
for (const t of tags) log(`ready: ${t}`);
