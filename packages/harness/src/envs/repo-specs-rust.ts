/**
 * Environment specs of real Rust repositories from Multi-SWE-bench's lists, offline: Cargo against
 * Debian's crate registry (`librust-*-dev`, /usr/share/cargo/registry) through the config and the
 * `faun-cargo-offline` script of native-env.ts. The test command is Multi-SWE-bench's `cargo test` with
 * the offline flags; the parser is its `parse_log` (parsers/select.ts MSB_PARSERS).
 */
import {
  CARGO_CONFIG,
  CARGO_OFFLINE_SCRIPT,
  CARGO_STUBS,
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

/**
 * Stand-in for `jemallocator` (Debian ships jemalloc-sys but not the allocator crate): the system
 * allocator under jemallocator's name, for crates that set it as the global allocator on Linux (fd).
 */
export const JEMALLOCATOR_STANDIN = `//! faun's stand-in for jemallocator: the system allocator under its name.
use std::alloc::{GlobalAlloc, Layout, System};

pub struct Jemalloc;

unsafe impl GlobalAlloc for Jemalloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        System.alloc(layout)
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        System.alloc_zeroed(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        System.realloc(ptr, layout, new_size)
    }
}
`;

/**
 * Stand-in for `tempdir` 0.3 (deprecated upstream, not in Debian; its rand 0.4 is not either): a
 * directory `<prefix>.<unique>` under the temporary directory, removed on drop.
 */
export const TEMPDIR_STANDIN = `//! faun's stand-in for tempdir 0.3: TempDir::new / new_in / path / into_path / close.
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

static COUNT: AtomicUsize = AtomicUsize::new(0);

pub struct TempDir {
    path: Option<PathBuf>,
}

impl TempDir {
    pub fn new(prefix: &str) -> io::Result<TempDir> {
        TempDir::new_in(std::env::temp_dir(), prefix)
    }

    pub fn new_in<P: AsRef<Path>>(tmpdir: P, prefix: &str) -> io::Result<TempDir> {
        let base = if tmpdir.as_ref().is_absolute() {
            tmpdir.as_ref().to_path_buf()
        } else {
            std::env::current_dir()?.join(tmpdir.as_ref())
        };
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
        for _ in 0..1000 {
            let n = COUNT.fetch_add(1, Ordering::SeqCst);
            let path = base.join(format!("{}.{}-{}-{}", prefix, std::process::id(), nanos, n));
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(TempDir { path: Some(path) }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::new(io::ErrorKind::AlreadyExists, "no unused temporary directory name"))
    }

    pub fn path(&self) -> &Path {
        self.path.as_ref().unwrap()
    }

    pub fn into_path(mut self) -> PathBuf {
        self.path.take().unwrap()
    }

    pub fn close(mut self) -> io::Result<()> {
        match self.path.take() {
            Some(p) => std::fs::remove_dir_all(p),
            None => Ok(()),
        }
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        self.path()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if let Some(p) = self.path.take() {
            let _ = std::fs::remove_dir_all(p);
        }
    }
}
`;

/**
 * fd's env steps: the jemallocator stand-in as the 0.3 patch (fd 8.1–8.3 link it unconditionally on
 * Linux; ripgrep's empty stub has no `Jemalloc`) and as 0.5 in the registry (8.4 on, behind the default
 * `use-jemalloc` feature); the tempdir stand-in (fd's tests before 2022-11-30).
 */
export const FD_STANDINS = [
  writeFileStep(`${CARGO_STUBS}/jemallocator/src/lib.rs`, JEMALLOCATOR_STANDIN),
  cargoRegistryStub('jemallocator', '0.5.99', undefined, JEMALLOCATOR_STANDIN),
  cargoRegistryStub('tempdir', '0.3.99', undefined, TEMPDIR_STANDIN),
];

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
  // fd 7.5–8.6 (2020-04 … 2023-01): Debian ships fd-find 8.6.0's crates, with clap 2 (fd until 8.3),
  // 3 (8.3.1–8.4, 2022-01 … 2022-11) and 4 (from 2022-11) side by side; requirements no Debian version meets
  // (older: lscolors 0.7–0.12, nix 0.23–0.24, test-case 1, users 0.10; newer by a minor or patch release:
  // normpath 0.3.2, num_cpus 1.15) are set to its versions by faun-cargo-offline. clap_complete 3 too:
  // fd 8.3.1–8.4's build.rs writes the shell completions with it. Stand-ins: jemallocator and tempdir
  // (FD_STANDINS). The clap 3 bases build, but from 2021-11-27 to
  // 2022-11-01 (except a4bb734…e7f192f, 2021-12) fd's walker calls std's mpsc `recv_timeout`, which
  // rustc 1.63's std can panic in (rust-lang/rust#39364, fixed by Rust 1.67's new mpsc; fd's issues
  // #933, #1060, #1113): any test then fails at random (PR 812's gold run, one in six), so no pointer
  // names a base of that range.
  rustSpec(
    'sharkdp/fd',
    [
      'librust-ansi-term-dev',
      'librust-anyhow-dev',
      'librust-argmax-dev',
      'librust-atty-dev',
      'librust-chrono-dev',
      'librust-clap-2-dev',
      'librust-clap-3-dev',
      'librust-clap-complete-3-dev',
      'librust-clap-complete-dev',
      'librust-clap-dev',
      'librust-crossbeam-channel-dev',
      'librust-ctrlc-dev',
      'librust-diff-dev',
      'librust-dirs-dev',
      'librust-dirs-next-dev',
      'librust-faccess-dev',
      'librust-filetime-dev',
      'librust-globset-dev',
      'librust-humantime-dev',
      'librust-ignore-dev',
      'librust-lazy-static-dev',
      'librust-libc-dev',
      'librust-lscolors-dev',
      'librust-nix-dev',
      'librust-normpath-dev',
      'librust-nu-ansi-term-dev',
      'librust-num-cpus-dev',
      'librust-once-cell-dev',
      'librust-regex-dev',
      'librust-regex-syntax-dev',
      'librust-tempfile-dev',
      'librust-test-case-dev',
      'librust-users-dev',
    ],
    'msb-cargo',
    FD_STANDINS,
  ),
];
