import { expect, test } from 'bun:test';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MSB_PARSERS } from '../parsers/select.ts';
import { testInstance } from '../run/test-instance.ts';
import { envDockerfile } from './docker-images.ts';
import { CARGO_CONFIG, CARGO_OFFLINE_SCRIPT, CARGO_STUBS, cargoRegistryStub } from './native-env.ts';
import { JEMALLOCATOR_STANDIN, RUST_SPECS, TEMPDIR_STANDIN } from './repo-specs-rust.ts';
import { installSteps, specFor, testCommand } from './specs.ts';

const rg = testInstance({ repo: 'BurntSushi/ripgrep', language: 'rust' });

test("ripgrep gets its own spec with Multi-SWE-bench's parser and cargo test offline", () => {
  const s = specFor(rg)!;
  expect(s.name).toBe('BurntSushi/ripgrep');
  expect(s.parser).toBe(MSB_PARSERS['BurntSushi/ripgrep']!);
  expect(testCommand(s, rg)).toBe('cargo test --offline --ignore-rust-version 2>&1');
  expect(installSteps(s, rg)[0]).toBe('faun-cargo-offline');
  for (const r of RUST_SPECS) expect(r.toolchain).toBe('rust');
});

test('the env layer writes the cargo config (Debian registry, offline, stand-in crates) and the script', () => {
  const dockerfile = envDockerfile(specFor(rg)!);
  expect(dockerfile).toContain('librust-grep-dev');
  const decoded = [...dockerfile.matchAll(/echo (\S+) \| base64 -d > (\S+)/g)].map(
    (m) => [m[2], Buffer.from(m[1]!, 'base64').toString()] as const,
  );
  expect(Object.fromEntries(decoded)).toEqual({
    '/root/.cargo/config.toml': CARGO_CONFIG,
    '/usr/local/bin/faun-cargo-offline': CARGO_OFFLINE_SCRIPT,
  });
  expect(CARGO_CONFIG).toContain('replace-with = "debian"');
  expect(CARGO_CONFIG).toContain('directory = "/usr/share/cargo/registry"');
  expect(dockerfile).toContain('simd-accel = []');
});

/** The files an env Dockerfile writes through `echo <base64> | base64 -d > path`, by path. */
function writtenFiles(dockerfile: string): Record<string, string> {
  return Object.fromEntries(
    [...dockerfile.matchAll(/echo (\S+) \| base64 -d > (\S+)/g)].map((m) => [
      m[2]!,
      Buffer.from(m[1]!, 'base64').toString(),
    ]),
  );
}

test("fd: Multi-SWE-bench's fail-fast cargo test offline; clap 2, 3 and 4 from Debian; stand-in crates", () => {
  const fd = testInstance({ repo: 'sharkdp/fd', language: 'rust' });
  const s = specFor(fd)!;
  expect(s.name).toBe('sharkdp/fd');
  expect(s.parser).toBe(MSB_PARSERS['sharkdp/fd']!);
  // the whole `cargo test` (doctests included, no --no-fail-fast), only the offline flags added
  expect(testCommand(s, fd)).toBe('cargo test --offline --ignore-rust-version 2>&1');
  expect(installSteps(s, fd)[0]).toBe('faun-cargo-offline');
  const dockerfile = envDockerfile(s);
  // clap 2, 3 and 4 and clap_complete 3 and 4 side by side: each base's lockfile picks its own
  expect([...new Set(dockerfile.match(/librust-clap[a-z0-9-]*-dev/g))].sort()).toEqual(
    ['2', '3', 'complete-3', 'complete', ''].map((v) => `librust-clap${v ? `-${v}` : ''}-dev`).sort(),
  );
  const files = writtenFiles(dockerfile);
  // jemallocator 0.3 (the [patch] path ripgrep's empty stub has) and 0.5 (the registry) define `Jemalloc`
  expect(files[`${CARGO_STUBS}/jemallocator/src/lib.rs`]).toBe(JEMALLOCATOR_STANDIN);
  expect(files['/usr/share/cargo/registry/jemallocator-0.5.99/src/lib.rs']).toBe(JEMALLOCATOR_STANDIN);
  expect(files['/usr/share/cargo/registry/tempdir-0.3.99/src/lib.rs']).toBe(TEMPDIR_STANDIN);
  expect(JEMALLOCATOR_STANDIN).toContain('unsafe impl GlobalAlloc for Jemalloc');
  expect(TEMPDIR_STANDIN.match(/pub fn \w+|impl Drop for TempDir/g)).toEqual([
    'pub fn new',
    'pub fn new_in',
    'pub fn path',
    'pub fn into_path',
    'pub fn close',
    'impl Drop for TempDir',
  ]);
  // the patch stub is overwritten after the shared step wrote it empty
  const empty = dockerfile.indexOf(`: > ${CARGO_STUBS}/jemallocator/src/lib.rs`);
  expect(empty).toBeGreaterThan(0);
  expect(empty).toBeLessThan(dockerfile.indexOf(`base64 -d > ${CARGO_STUBS}/jemallocator/src/lib.rs`));
  // ripgrep's environment keeps its empty jemallocator stub and has no tempdir
  const rgFiles = writtenFiles(envDockerfile(specFor(rg)!));
  expect(Object.keys(rgFiles).sort()).toEqual([
    '/root/.cargo/config.toml',
    '/usr/local/bin/faun-cargo-offline',
  ]);
});

/** Runs faun-cargo-offline in a workspace with a fake `cargo` that fails until memmap2 asks for 0.5.7. */
function runOffline(manifest: string, registry: string[]): { rc: number; manifest: string; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'faun-cargo-'));
  const ws = join(dir, 'ws');
  const reg = join(dir, 'reg');
  const bin = join(dir, 'bin');
  for (const d of [join(ws, 'crates/searcher'), bin, ...registry.map((r) => join(reg, r))])
    mkdirSync(d, { recursive: true });
  writeFileSync(join(ws, 'Cargo.lock'), 'old\n');
  writeFileSync(join(ws, 'crates/searcher/Cargo.toml'), manifest);
  writeFileSync(
    join(bin, 'cargo'),
    '#!/bin/sh\nif grep -q \'"0.5.7"\' crates/searcher/Cargo.toml; then : > Cargo.lock; exit 0; fi\n' +
      'echo \'error: failed to select a version for the requirement `memmap2 = "^0.3.0"`\'; exit 101\n',
  );
  chmodSync(join(bin, 'cargo'), 0o755);
  writeFileSync(join(bin, 'faun-cargo-offline'), CARGO_OFFLINE_SCRIPT);
  chmodSync(join(bin, 'faun-cargo-offline'), 0o755);
  const p = Bun.spawnSync(['sh', join(bin, 'faun-cargo-offline')], {
    cwd: ws,
    env: { PATH: `${bin}:${process.env.PATH}`, FAUN_CARGO_REGISTRY: reg },
  });
  return {
    rc: p.exitCode,
    manifest: readFileSync(join(ws, 'crates/searcher/Cargo.toml'), 'utf8'),
    out: p.stdout.toString() + p.stderr.toString(),
  };
}

test('faun-cargo-offline relaxes a requirement Debian cannot meet to the version it ships', () => {
  for (const line of [
    'memmap2 = "0.3.0"',
    'memmap = { package = "memmap2", version = "0.3.0" }',
    'memmap2 = { version = "0.3.0", optional = true }',
  ]) {
    const r = runOffline(`[dependencies]\n${line}\nbstr = "0.2.0"\n`, ['memmap2-0.5.7', 'memmap2-0.4.1']);
    expect([r.rc, r.out]).toEqual([0, "faun-cargo-offline: memmap2 requirement set to 0.5.7 (Debian's)\n"]);
    expect(r.manifest).toBe(`[dependencies]\n${line.replace('0.3.0', '0.5.7')}\nbstr = "0.2.0"\n`);
  }
  const sec = runOffline('[dependencies.memmap2]\nversion = "0.3"\n', ['memmap2-0.5.7']);
  expect([sec.rc, sec.manifest]).toEqual([0, '[dependencies.memmap2]\nversion = "0.5.7"\n']);
});

test('faun-cargo-offline fails, saying why, when Debian ships no version of the crate', () => {
  const r = runOffline('[dependencies]\nmemmap2 = "0.3.0"\n', []);
  expect(r.rc).toBe(1);
  expect(r.out).toContain('Debian ships no memmap2');
  expect(r.manifest).toBe('[dependencies]\nmemmap2 = "0.3.0"\n');
});

test('bytes: serde and serde_test from Debian, empty loom stand-ins added to the registry', () => {
  const bytes = testInstance({ repo: 'tokio-rs/bytes', language: 'rust' });
  const s = specFor(bytes)!;
  expect(s.name).toBe('tokio-rs/bytes');
  expect(s.parser).toBe(MSB_PARSERS['tokio-rs/bytes']!);
  const dockerfile = envDockerfile(s);
  expect(dockerfile).toContain('librust-serde-test-dev');
  expect(dockerfile).toContain('/usr/share/cargo/registry/loom-0.7.99/src');
  // unit and integration tests, no doctests
  expect(testCommand(s, bytes)).toBe('cargo test --offline --ignore-rust-version --tests 2>&1');
  // ripgrep's environment is unchanged by the option.
  expect(envDockerfile(specFor(rg)!)).not.toContain('loom');
});

test('cargoRegistryStub writes a stand-in with the given lib.rs', () => {
  const reg = mkdtempSync(join(tmpdir(), 'faun-reg-'));
  const lib = 'pub struct Jemalloc; // it\'s "quoted"\n';
  const p = Bun.spawnSync(['sh', '-c', cargoRegistryStub('jemallocator', '0.5.99', reg, lib)]);
  expect(p.exitCode).toBe(0);
  expect(readFileSync(join(reg, 'jemallocator-0.5.99/src/lib.rs'), 'utf8')).toBe(lib);
  expect(readFileSync(join(reg, 'jemallocator-0.5.99/Cargo.toml'), 'utf8')).toContain('version = "0.5.99"');
});

test('cargoRegistryStub writes a crate a directory source accepts: manifest, empty lib, checksum file', () => {
  const reg = mkdtempSync(join(tmpdir(), 'faun-reg-'));
  const p = Bun.spawnSync(['sh', '-c', cargoRegistryStub('loom', '0.5.99', reg)]);
  expect(p.exitCode).toBe(0);
  expect(readFileSync(join(reg, 'loom-0.5.99/Cargo.toml'), 'utf8')).toBe(
    '[package]\nname = "loom"\nversion = "0.5.99"\nedition = "2018"\n',
  );
  expect(readFileSync(join(reg, 'loom-0.5.99/src/lib.rs'), 'utf8')).toBe('');
  expect(JSON.parse(readFileSync(join(reg, 'loom-0.5.99/.cargo-checksum.json'), 'utf8'))).toEqual({
    package: null,
    files: {},
  });
});
