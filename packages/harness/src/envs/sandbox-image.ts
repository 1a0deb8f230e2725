/**
 * The sandbox layer: one small image on top of any environment image (faun's own or a published one) that
 * adds what a contained run needs — the unprivileged test user, and a time-limit supervisor the tests cannot
 * trace. Built once per environment image (tagged by its content), with no network.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FaunError, sha256 } from '@faun/kit';
import { buildImage, buildPolicy } from '@faun/services';
import { docker, LABEL } from './docker-images.ts';

/** The user every command in a sandbox runs as: no capabilities, no root, owner of the writable places. */
export const TEST_USER = { uid: 10001, gid: 10001, name: 'faun-test', home: '/root' } as const;
export const TEST_USER_SPEC = `${TEST_USER.uid}:${TEST_USER.gid}`;

/**
 * coreutils' `timeout`, installed execute-only (mode 0111): a process that executes a file it cannot read
 * is not dumpable, so the tests it supervises (same user) cannot ptrace it or read its memory to forge the
 * exit status it reports. They can still kill it — which ends the run with a non-zero status.
 */
export const SUPERVISOR = '/usr/local/libexec/faun/timeout';

const RECIPE = [
  'set -e',
  `getent group ${TEST_USER.gid} >/dev/null || echo '${TEST_USER.name}:x:${TEST_USER.gid}:' >> /etc/group`,
  `getent passwd ${TEST_USER.uid} >/dev/null || echo '${TEST_USER.name}:x:${TEST_USER.uid}:${TEST_USER.gid}:faun tests:${TEST_USER.home}:/bin/bash' >> /etc/passwd`,
  'mkdir -p /usr/local/libexec/faun',
  `cp "$(command -v timeout)" ${SUPERVISOR}`,
  `chmod 0111 ${SUPERVISOR}`,
].join('; ');

/** The Dockerfile of the sandbox layer over `base` (an image id or tag). */
export function sandboxDockerfile(base: string): string {
  return [`FROM ${base}`, 'USER 0', `RUN ${RECIPE}`, `LABEL ${LABEL}.layer=sandbox`, ''].join('\n');
}

/** The content id (`sha256:…`) of a local image, or null when it is not present. */
export async function imageId(ref: string): Promise<string | null> {
  const r = await docker(['image', 'inspect', '--format', '{{.Id}}', ref]);
  const id = r.out.trim();
  return r.code === 0 && /^sha256:[0-9a-f]{64}$/.test(id) ? id : null;
}

/** Tag of the sandbox layer over the image with content id `id`. */
export function sandboxTag(id: string): string {
  return `faun/sbx:${sha256(`${id}\n${sandboxDockerfile(id)}`).slice(0, 16)}`;
}

const building = new Map<string, Promise<string>>();

/** The sandbox layer over `ref` (built when missing); resolves with its tag and the base image's id. */
export async function ensureSandboxImage(
  ref: string,
  log: (l: string) => void = () => {},
): Promise<{ tag: string; baseId: string }> {
  const baseId = await imageId(ref);
  if (!baseId) throw new FaunError(`image ${ref} is not present`);
  const tag = sandboxTag(baseId);
  let p = building.get(tag);
  if (!p) {
    p = (async () => {
      if (await imageId(tag)) return tag;
      log(`building ${tag} (sandbox layer over ${ref})`);
      // no context, no network, confined (the base may be a published image): the recipe only edits files
      // the base image has
      const ctx = mkdtempSync(join(tmpdir(), 'faun-sbx-'));
      try {
        await buildImage(tag, sandboxDockerfile(baseId), ctx, buildPolicy('none'));
      } catch (e) {
        throw new FaunError(
          `sandbox layer over ${ref} failed to build: ${(e as Error).message.slice(-2000)}`,
        );
      } finally {
        rmSync(ctx, { recursive: true, force: true });
      }
      return tag;
    })();
    building.set(tag, p);
    p.catch(() => building.delete(tag));
  }
  return { tag: await p, baseId };
}

/** Removes the sandbox layer over `ref` (before `ref` itself is removed). */
export async function removeSandboxImage(ref: string): Promise<void> {
  const id = await imageId(ref);
  if (!id) return;
  const tag = sandboxTag(id);
  building.delete(tag);
  await docker(['rmi', tag]);
}
