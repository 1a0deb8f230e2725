import { expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '@faun/kit';
import {
  aptSourceUris,
  buildPolicy,
  DEFAULT_BUILD_LIMITS,
  hostPort,
  hostRegistries,
  npmrcRegistry,
  parseBuildNetwork,
} from './build-policy.ts';

test('--build-network: none, registries (the default) and host; anything else is a usage error', () => {
  expect(parseBuildNetwork('none')).toBe('none');
  expect(parseBuildNetwork('host')).toBe('host');
  expect(parseBuildNetwork(undefined)).toBe('registries');
  expect(() => parseBuildNetwork('auto')).toThrow(UsageError);
  expect(() => parseBuildNetwork('bridge')).toThrow(/expected one of none, registries, host, got 'bridge'/);
});

test('hostPort: scheme ports, lowercase hosts, no other schemes', () => {
  expect(hostPort('http://Deb.Debian.org/debian')).toBe('deb.debian.org:80');
  expect(hostPort('https://registry.npmjs.org/')).toBe('registry.npmjs.org:443');
  expect(hostPort('http://mirror.example:8080/x')).toBe('mirror.example:8080');
  expect(hostPort('ftp://x/')).toBeNull();
  expect(hostPort('not a url')).toBeNull();
});

test('apt sources: one-line entries with options and comments, deb822 stanzas, disabled ones skipped', () => {
  const list = [
    '# deb http://commented.example/debian bookworm main',
    'deb [arch=amd64 signed-by=/k.gpg] http://a.example/debian bookworm main',
    'deb-src https://b.example/debian bookworm main # trailing',
    '',
  ].join('\n');
  expect(aptSourceUris(list, false)).toEqual(['http://a.example/debian', 'https://b.example/debian']);
  const sources = [
    'Types: deb',
    'URIs: http://c.example/debian http://d.example/debian',
    'Suites: bookworm',
    '',
    'Types: deb',
    'Enabled: no',
    'URIs: http://off.example/debian',
    '',
  ].join('\n');
  expect(aptSourceUris(sources, true)).toEqual(['http://c.example/debian', 'http://d.example/debian']);
  expect(npmrcRegistry('fund=false\nregistry = https://npm.example/\n')).toBe('https://npm.example/');
  expect(npmrcRegistry('fund=false\n')).toBeNull();
});

test('hostRegistries: the host apt sources (enabled files only), faun mirror, npm registry, extras', () => {
  const dir = mkdtempSync(join(tmpdir(), 'faun-apt-'));
  mkdirSync(join(dir, 'sources.list.d'));
  writeFileSync(join(dir, 'sources.list'), 'deb http://list.example/debian bookworm main\n');
  writeFileSync(join(dir, 'sources.list.d', 'x.sources'), 'Types: deb\nURIs: http://sources.example/d\n');
  writeFileSync(join(dir, 'sources.list.d', 'y.list.disabled'), 'deb http://disabled.example/d x main\n');
  const home = mkdtempSync(join(tmpdir(), 'faun-home-'));
  writeFileSync(join(home, '.npmrc'), 'registry=https://npm.example/\n');
  const env = { FAUN_DEBIAN_MIRROR: 'http://mirror.example/debian', HOME: home };
  expect(hostRegistries(['https://extra.example:8443/simple/'], env, dir)).toEqual([
    'extra.example:443',
    'extra.example:8443',
    'list.example:443',
    'list.example:80',
    'mirror.example:443',
    'mirror.example:80',
    'npm.example:443',
    'sources.example:443',
    'sources.example:80',
  ]);
  // npm_config_registry wins over .npmrc; npm's default when neither says
  expect(hostRegistries([], { ...env, npm_config_registry: 'https://env.example/' }, dir)).toContain(
    'env.example:443',
  );
  expect(hostRegistries([], { HOME: mkdtempSync(join(tmpdir(), 'faun-home-')) }, dir)).toContain(
    'registry.npmjs.org:443',
  );
});

test('buildPolicy: registries only with the registries network; default limits unless given', () => {
  expect(buildPolicy('none').registries).toEqual([]);
  expect(buildPolicy('host').registries).toEqual([]);
  expect(buildPolicy('registries').registries.length).toBeGreaterThan(0);
  expect(buildPolicy('none').limits).toEqual(DEFAULT_BUILD_LIMITS);
  expect(buildPolicy('none', { limits: { pids: 64 } }).limits.pids).toBe(64);
});
