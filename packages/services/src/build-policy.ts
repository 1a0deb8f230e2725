/**
 * What an image build may reach and use (pure, plus reading the host's package-client configuration).
 *
 * - `none`: no network at all.
 * - `registries` (the default): a Docker network with no route anywhere and no address of the host on it;
 *   its only neighbour is faun's egress proxy, which forwards to the package registries the host itself
 *   uses (its apt sources, its npm registry, faun's Debian mirror) and refuses every other host.
 * - `host`: the host's network, loopback services included (only when asked for explicitly).
 *
 * Every build step runs with CPU, memory and process limits, a small capability set and no-new-privileges.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '@faun/kit';

export type BuildNetwork = 'none' | 'registries' | 'host';
export const BUILD_NETWORKS: BuildNetwork[] = ['none', 'registries', 'host'];

export interface BuildLimits {
  cpus: number;
  memoryMb: number;
  pids: number;
}

export interface BuildPolicy {
  network: BuildNetwork;
  /** `host:port` pairs the egress proxy forwards to (used with `registries`). */
  registries: string[];
  limits: BuildLimits;
}

/** Limits of one build step: the machine's cores, room for a C++/Rust compile, a fork bomb stopped. */
export const DEFAULT_BUILD_LIMITS: BuildLimits = { cpus: 2, memoryMb: 6144, pids: 2048 };

/**
 * Capabilities a build step keeps (`--cap-drop ALL` then these): what apt/dpkg and package installs need
 * to own, chmod and drop to another user. Not NET_RAW, MKNOD, SYS_CHROOT, SETFCAP, SETPCAP, AUDIT_WRITE,
 * NET_BIND_SERVICE (Docker's other defaults).
 */
export const BUILD_CAPS = ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID'];

/** Parses `--build-network`; anything else is a usage error naming the choices. */
export function parseBuildNetwork(v: unknown): BuildNetwork {
  const s = String(v ?? 'registries');
  if ((BUILD_NETWORKS as string[]).includes(s)) return s as BuildNetwork;
  throw new UsageError(`--build-network: expected one of ${BUILD_NETWORKS.join(', ')}, got '${s}'`, {
    hint: 'registries (the default) reaches only the package registries; host must be asked for explicitly',
  });
}

/** `host:port` of an http(s) URL (the scheme's port when none is given), or null. */
export function hostPort(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  const port = u.port || (u.protocol === 'https:' ? '443' : '80');
  return `${u.hostname.toLowerCase()}:${port}`;
}

/** The URIs of the enabled entries of one apt sources file (one-line `.list` or deb822 `.sources`). */
export function aptSourceUris(text: string, deb822: boolean): string[] {
  const uris: string[] = [];
  if (!deb822) {
    for (const raw of text.split('\n')) {
      const line = raw.replace(/#.*/, '').trim();
      const m = /^deb(?:-src)?\s+(?:\[[^\]]*\]\s+)?(\S+)/.exec(line);
      if (m?.[1]) uris.push(m[1]);
    }
    return uris;
  }
  for (const stanza of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    for (const raw of stanza.split('\n')) {
      if (raw.startsWith('#')) continue;
      const m = /^([A-Za-z-]+):\s*(.*)$/.exec(raw);
      if (m?.[1]) fields.set(m[1].toLowerCase(), m[2] ?? '');
    }
    if ((fields.get('enabled') ?? 'yes').toLowerCase() === 'no') continue;
    uris.push(...(fields.get('uris') ?? '').split(/\s+/).filter(Boolean));
  }
  return uris;
}

/** The `registry=` of an npmrc text, or null. */
export function npmrcRegistry(text: string): string | null {
  for (const raw of text.split('\n')) {
    const m = /^\s*registry\s*=\s*(\S+)/.exec(raw);
    if (m?.[1]) return m[1];
  }
  return null;
}

const read = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : '');

/**
 * The registries the host's own package clients use: the URIs of its apt sources
 * (`/etc/apt/sources.list`, `sources.list.d/*.list|*.sources`), faun's Debian mirror (`FAUN_DEBIAN_MIRROR`)
 * and the npm registry (`npm_config_registry`, else `~/.npmrc`, else npm's default), plus `extra` URLs.
 */
export function hostRegistries(
  extra: string[] = [],
  env: Record<string, string | undefined> = process.env,
  aptDir = '/etc/apt',
): string[] {
  const urls: string[] = [env.FAUN_DEBIAN_MIRROR ?? 'http://deb.debian.org/debian'];
  urls.push(...aptSourceUris(read(join(aptDir, 'sources.list')), false));
  const d = join(aptDir, 'sources.list.d');
  if (existsSync(d))
    for (const f of readdirSync(d).sort()) {
      if (f.endsWith('.list')) urls.push(...aptSourceUris(read(join(d, f)), false));
      if (f.endsWith('.sources')) urls.push(...aptSourceUris(read(join(d, f)), true));
    }
  urls.push(
    env.npm_config_registry ??
      env.NPM_CONFIG_REGISTRY ??
      npmrcRegistry(read(join(env.HOME ?? homedir(), '.npmrc'))) ??
      'https://registry.npmjs.org/',
  );
  urls.push(...extra);
  const out = new Set<string>();
  for (const u of urls) {
    const hp = hostPort(u);
    if (!hp) continue;
    out.add(hp);
    // apt follows http→https redirects of a mirror; npm tarballs come from the same host
    const host = hp.slice(0, hp.lastIndexOf(':'));
    out.add(`${host}:443`);
  }
  return [...out].sort();
}

/** The build policy of a run. */
export function buildPolicy(
  network: BuildNetwork,
  o: { extraRegistries?: string[]; limits?: Partial<BuildLimits> } = {},
): BuildPolicy {
  return {
    network,
    registries: network === 'registries' ? hostRegistries(o.extraRegistries ?? []) : [],
    limits: { ...DEFAULT_BUILD_LIMITS, ...o.limits },
  };
}
