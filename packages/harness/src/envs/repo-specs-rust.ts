/**
 * Environment specs of real Rust repositories from Multi-SWE-bench's lists, offline: Cargo against
 * Debian's crate registry (`librust-*-dev`, /usr/share/cargo/registry) through the config and the
 * `faun-cargo-offline` script of native-env.ts. The test command is Multi-SWE-bench's `cargo test` with
 * the offline flags; the parser is its `parse_log` (parsers/select.ts MSB_PARSERS).
 */
import {
  CARGO_CONFIG,
  CARGO_OFFLINE_SCRIPT,
  CARGO_STUBS_STEP,
  cargoRegistryStub,
  installScript,
} from './native-env.ts';
import { writeFileStep } from './spec-steps.ts';
import type { EnvSpec } from './specs.ts';

/** `cargo` flags of every step: Debian's registry only; bookworm's rustc 1.63 is older than some `rust-version`s. */
export const CARGO_FLAGS = '--offline --ignore-rust-version';

/**
 * A Rust workspace whose dependency graph Debian's crates cover (`apt`: the librust-*-dev packages);
 * `envExtra`: further env steps (registry stand-ins).
 */
export function rustSpec(
  name: string,
  apt: string[],
  parser: EnvSpec['parser'],
  envExtra: string[] = [],
  testArgs = '',
): EnvSpec {
  return {
    name,
    versions: null,
    toolchain: 'rust',
    apt: ['librust-encoding-rs-dev', ...apt],
    envSetup: [
      writeFileStep('/root/.cargo/config.toml', CARGO_CONFIG),
      CARGO_STUBS_STEP,
      installScript('/usr/local/bin/faun-cargo-offline', CARGO_OFFLINE_SCRIPT),
      ...envExtra,
    ],
    // Re-resolve the lockfile offline, then compile every test binary once so a test run rebuilds only
    // what the patches touch.
    install: ['faun-cargo-offline', `cargo test ${CARGO_FLAGS} --no-run >/dev/null 2>&1 || true`],
    // Multi-SWE-bench's `cargo test`, fail-fast as upstream: after the first test target that fails, the
    // later ones do not run (so their tests are missing from that stage, as in its reports).
    testCmd: `cargo test ${CARGO_FLAGS}${testArgs ? ` ${testArgs}` : ''} 2>&1`,
    parser,
    env: { CARGO_TERM_COLOR: 'never', CARGO_INCREMENTAL: '0' },
    specVersion: '1',
  };
}

export const RUST_SPECS: EnvSpec[] = [
  // ripgrep 11–13 (2019–2022): Debian ships ripgrep 13.0.0's crates; memmap 0.7 (before 2021-01) and
  // memmap2 (relaxed to Debian's 0.5) both exist. The workspace's own grep-*, globset and ignore crates
  // are path dependencies, so the tests build the work tree's code.
  rustSpec(
    'BurntSushi/ripgrep',
    [
      'librust-aho-corasick-dev',
      'librust-atty-dev',
      'librust-base64-dev',
      'librust-bstr-dev',
      'librust-bytecount-dev',
      'librust-clap-2-dev',
      'librust-crossbeam-channel-dev',
      'librust-crossbeam-utils-dev',
      'librust-encoding-rs-io-dev',
      'librust-fnv-dev',
      'librust-glob-dev',
      'librust-globset-dev',
      'librust-grep-dev',
      'librust-ignore-dev',
      'librust-lazy-static-dev',
      'librust-log-dev',
      'librust-memchr-dev',
      'librust-memmap-dev',
      'librust-memmap2-dev',
      'librust-num-cpus-dev',
      'librust-pcre2-dev',
      'librust-regex-dev',
      'librust-regex-syntax-dev',
      'librust-same-file-dev',
      'librust-serde-derive-dev',
      'librust-serde-dev',
      'librust-serde-json-dev',
      'librust-termcolor-dev',
      'librust-thread-local-dev',
      'librust-walkdir-dev',
      'librust-winapi-dev',
      'librust-winapi-util-dev',
    ],
    'msb-cargo',
  ),
  // bytes 1.0–1.7 (2020-12 … 2024-10): no dependency but serde (optional) and serde_test; loom is a
  // `cfg(loom)` test dependency, never compiled here, that Debian does not ship: empty stand-ins for the
  // versions the manifests ask for (0.5, 0.7). Later bytes (portable-atomic 1.x with `require-cas`) needs
  // crates Debian's 0.3 does not meet.
  // Multi-SWE-bench runs `cargo test`, doctests included; here `--tests` (unit and integration tests):
  // rustdoc compiles each of bytes' ~130 doctests into its own binary, about 7 minutes per stage run on this
  // machine, and the fixes' tests are integration tests.
  rustSpec(
    'tokio-rs/bytes',
    ['librust-serde-dev', 'librust-serde-test-dev'],
    'msb-cargo',
    [cargoRegistryStub('loom', '0.5.99'), cargoRegistryStub('loom', '0.7.99')],
    '--tests',
  ),
];
