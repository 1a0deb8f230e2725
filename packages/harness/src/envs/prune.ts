/**
 * `faun verify --prune-images`: removes the instance images (`faun/inst-*`) no stored run refers to,
 * and superseded repo-env images (`faun/env-*` that are not the newest of their repository and that no
 * remaining image is built on). Toolchain (`faun/toolchain-*`) and base (`faun/debian:*`) images are never
 * touched, and an image a container still uses is kept (`docker rmi` without force refuses it).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandContext } from '@faun/kit';
import { readJson } from '../files/run-files.ts';
import { docker } from './docker-images.ts';

/** One tagged image as `docker images` / `docker image inspect` describe it. */
export interface ImageInfo {
  /** `repository:tag`. */
  ref: string;
  repository: string;
  tag: string;
  created: string;
  /** Layer digests, bottom first. */
  layers: string[];
}

/** The instance-image hashes (`image_id` of stored results) of every run under `logDir`. */
export function usedImageHashes(logDir: string): Promise<Set<string>> {
  return (async () => {
    const used = new Set<string>();
    if (!existsSync(logDir)) return used;
    for (const run of readdirSync(logDir)) {
      const inst = join(logDir, run, 'instances');
      if (!existsSync(inst)) continue;
      for (const d of readdirSync(inst)) {
        const r = await readJson<{ image_id?: string | null }>(join(inst, d, 'result.json'));
        if (r?.image_id) used.add(r.image_id);
      }
    }
    return used;
  })();
}

const isInst = (i: ImageInfo) => i.repository.startsWith('faun/inst-');
const isEnv = (i: ImageInfo) => i.repository.startsWith('faun/env-');

/**
 * Which images to remove (pure): instance images whose tag is not in `used` and that are older than
 * `minAgeMs` (a run that is building right now has not stored its results yet), then env images that
 * are not the newest of their repository and are not the base of any image that stays.
 */
export function planPrune(images: ImageInfo[], used: Set<string>, now: number, minAgeMs = 0): ImageInfo[] {
  const old = (i: ImageInfo) => now - Date.parse(i.created) >= minAgeMs;
  const remove = new Set(images.filter((i) => isInst(i) && !used.has(i.tag) && old(i)));
  const newest = new Map<string, ImageInfo>();
  for (const i of images.filter(isEnv)) {
    const n = newest.get(i.repository);
    if (!n || Date.parse(i.created) > Date.parse(n.created)) newest.set(i.repository, i);
  }
  const staying = images.filter((i) => !remove.has(i));
  for (const env of images.filter(isEnv)) {
    if (newest.get(env.repository) === env || !old(env)) continue;
    const top = env.layers.at(-1);
    const isBase = staying.some((i) => i !== env && top !== undefined && i.layers.includes(top));
    if (!isBase) remove.add(env);
  }
  return [...remove].sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
}

/** Bytes of a size as docker prints it (`3.191GB`, `28.74kB`, `0B`; decimal units). */
export function parseDockerSize(s: string): number {
  const m = /^([\d.]+)\s*([kMGT]?B)$/.exec(s.trim());
  if (!m) return 0;
  const mult = { B: 1, kB: 1e3, MB: 1e6, GB: 1e9, TB: 1e12 }[m[2] as 'B'] ?? 1;
  return Math.round(Number(m[1]) * mult);
}

/** Size for people (decimal units, like docker). */
export function formatBytes(n: number): string {
  if (n < 1e3) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n / 1e3;
  let u = 0;
  while (v >= 1e3 && u < units.length - 1) {
    v /= 1e3;
    u++;
  }
  return `${v.toFixed(v < 10 ? 2 : 1)} ${units[u]}`;
}

/** Every tagged `faun/inst-*` and `faun/env-*` image with its layers. */
export async function listFaunImages(): Promise<ImageInfo[]> {
  const out: ImageInfo[] = [];
  for (const pattern of ['faun/inst-*', 'faun/env-*']) {
    const r = await docker(['images', '--format', '{{.Repository}}:{{.Tag}}', pattern]);
    if (r.code !== 0) throw new Error(`docker images failed: ${r.out.trim()}`);
    for (const ref of r.out.split('\n').filter((l) => l && !l.endsWith(':<none>'))) {
      const ins = await docker(['image', 'inspect', '--format', '{{.Created}} {{json .RootFS.Layers}}', ref]);
      if (ins.code !== 0) continue; // removed meanwhile
      const sp = ins.out.indexOf(' ');
      const colon = ref.lastIndexOf(':');
      out.push({
        ref,
        repository: ref.slice(0, colon),
        tag: ref.slice(colon + 1),
        created: ins.out.slice(0, sp),
        layers: JSON.parse(ins.out.slice(sp + 1)) as string[],
      });
    }
  }
  return out;
}

async function imageStoreBytes(): Promise<number> {
  const r = await docker(['system', 'df', '--format', '{{.Type}}\t{{.Size}}']);
  const line = r.out.split('\n').find((l) => l.startsWith('Images\t'));
  return line ? parseDockerSize(line.split('\t')[1] ?? '') : 0;
}

export interface PruneOutcome {
  removed: string[];
  /** Images planned for removal that docker refused (a container uses them). */
  kept: Array<{ ref: string; reason: string }>;
  /** Image store size before minus after. */
  reclaimedBytes: number;
}

/**
 * Removes the images `planPrune` selects. `only` narrows the candidates (tests use it to stay off
 * images of other runs on a shared engine).
 */
export async function pruneImages(opts: {
  logDirs: string[];
  minAgeMs?: number;
  only?: (ref: string) => boolean;
  /** List what would be removed (in `removed`) without removing anything. */
  dryRun?: boolean;
  log?: (line: string) => void;
}): Promise<PruneOutcome> {
  const used = new Set<string>();
  for (const d of opts.logDirs) for (const h of await usedImageHashes(d)) used.add(h);
  const images = (await listFaunImages()).filter((i) => !opts.only || opts.only(i.ref));
  const plan = planPrune(images, used, Date.now(), opts.minAgeMs ?? 0);
  if (opts.dryRun) {
    for (const img of plan) opts.log?.(`would remove ${img.ref}`);
    return { removed: plan.map((i) => i.ref), kept: [], reclaimedBytes: 0 };
  }
  const before = await imageStoreBytes();
  const removed: string[] = [];
  const kept: PruneOutcome['kept'] = [];
  for (const img of plan) {
    const r = await docker(['rmi', img.ref]);
    if (r.code === 0) {
      removed.push(img.ref);
      opts.log?.(`removed ${img.ref}`);
    } else kept.push({ ref: img.ref, reason: r.out.trim().split('\n').pop() ?? '' });
  }
  const after = await imageStoreBytes();
  return { removed, kept, reclaimedBytes: Math.max(0, before - after) };
}

/** Minimum age of an image `--prune-images` removes: a run building right now has not stored results yet. */
const PRUNE_MIN_AGE_MS = 10 * 60_000;

/** `faun verify --prune-images [--dry-run]`: prunes against the runs under the log directory. */
export async function pruneCommand(ctx: CommandContext): Promise<number> {
  const dryRun = Boolean(ctx.opts.dryRun);
  const out = await pruneImages({
    logDirs: [ctx.logDir],
    minAgeMs: PRUNE_MIN_AGE_MS,
    dryRun,
    log: (l) => ctx.log(l),
  });
  for (const k of out.kept) ctx.log(`kept ${k.ref}: ${k.reason}`);
  ctx.result(
    (dryRun
      ? `would remove ${out.removed.length} image(s) (dry run)`
      : `removed ${out.removed.length} image(s), reclaimed ${formatBytes(out.reclaimedBytes)}`) +
      (out.kept.length ? `; ${out.kept.length} kept (in use)` : '') +
      ` (runs considered: ${ctx.logDir}; images younger than ${PRUNE_MIN_AGE_MS / 60_000} min are kept)`,
  );
  ctx.emitJson(out);
  return 0;
}
