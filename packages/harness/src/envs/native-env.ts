/**
 * Offline dependency set-up of the native languages, as shell steps for the env and instance layers:
 * Go modules resolved from Debian's Go sources (/usr/share/gocode), Rust crates from Debian's crate
 * registry (/usr/share/cargo/registry). Pure data (strings); the specs in repo-specs-native.ts use them.
 */

/**
 * `faun-go-offline`, run in a Go repository: a replace directive for every module Debian ships (its
 * go.mod's `module` line → its directory), a go.mod for required directories without one — the
 * repository's own requirements first, then those of the graph (a dependency's go.mod requires a module
 * Debian ships with no go.mod: echo's fasttemplate → bytebufferpool) — and an empty stand-in module for
 * each module of the graph Debian lacks (test-only requirements of dependencies), until `go list -m all`
 * resolves with GOPROXY=off.
 */
export const GO_OFFLINE_SCRIPT = String.raw`#!/bin/sh
set -u
SRC=${'$'}{FAUN_GOCODE:-/usr/share/gocode/src}
STUBS=${'$'}{FAUN_GO_STUBS:-/usr/local/share/faun-go-stubs}
mkdir -p "$STUBS"
find "$SRC" -name go.mod -not -path '*/vendor/*' -not -path '*/testdata/*' -not -path '*/_*' 2>/dev/null | sort |
  while read -r f; do
    m=$(awk '$1 == "module" { gsub(/"/, "", $2); print $2; exit }' "$f")
    [ -n "$m" ] && echo "$m $(dirname "$f")"
  done | awk '!seen[$1]++' > /tmp/faun-go-mods
self=$(awk '$1 == "module" { gsub(/"/, "", $2); print $2; exit }' go.mod)
awk '/^require \(/ { blk = 1; next } blk && /^\)/ { blk = 0; next } blk && NF >= 2 { print $1 } /^require [^(]/ { print $2 }' go.mod |
  while read -r p; do
    if ! grep -q "^$p " /tmp/faun-go-mods && [ -d "$SRC/$p" ]; then
      printf 'module %s\n' "$p" > "$SRC/$p/go.mod" && echo "$p $SRC/$p" >> /tmp/faun-go-mods
    fi
  done
args=""
while read -r m d; do
  [ "$m" = "$self" ] && continue
  args="$args -replace=$m=$d"
done < /tmp/faun-go-mods
go mod edit $args
for _ in $(seq 1 40); do
  out=$(go list -m all 2>&1) && exit 0
  missing=$(printf '%s\n' "$out" | sed -n 's/^[[:space:]]*\(go: \)\{0,1\}\([^@[:space:]]*\)@[^:[:space:]]*: .*$/\2/p' | sort -u)
  [ -z "$missing" ] && { printf '%s\n' "$out" >&2; exit 1; }
  for p in $missing; do
    if [ -d "$SRC/$p" ]; then
      # Debian ships it without a go.mod (a dependency's go.mod requires it, the repository's does not)
      [ -f "$SRC/$p/go.mod" ] || printf 'module %s\n' "$p" > "$SRC/$p/go.mod"
      go mod edit "-replace=$p=$SRC/$p"
    else
      mkdir -p "$STUBS/$p" && printf 'module %s\n' "$p" > "$STUBS/$p/go.mod"
      go mod edit "-replace=$p=$STUBS/$p"
    fi
  done
done
exit 1
`;

/** An env-layer step that installs `script` as the executable `path` (base64, so no quoting issues). */
export function installScript(path: string, script: string): string {
  return `echo ${Buffer.from(script).toString('base64')} | base64 -d > ${path} && chmod +x ${path}`;
}

/** Where the env layer puts the stand-in crates the cargo config patches in. */
export const CARGO_STUBS = '/usr/local/share/faun-cargo-stubs';

/** Debian's crate registry, the directory source CARGO_CONFIG points crates.io at. */
export const DEBIAN_CRATES = '/usr/share/cargo/registry';

/**
 * Env step: an empty crate `name` `version` in the registry, for a dependency Debian does not ship that no
 * build compiles but the lockfile still names (a `[target.'cfg(loom)'.dev-dependencies]` entry), or a
 * stand-in whose `lib.rs` is `lib`. Its checksum file has no package checksum, as `cargo vendor` writes for
 * git sources.
 */
export function cargoRegistryStub(name: string, version: string, registry = DEBIAN_CRATES, lib = ''): string {
  const dir = `${registry}/${name}-${version}`;
  return [
    `mkdir -p ${dir}/src`,
    `printf '[package]\\nname = "${name}"\\nversion = "${version}"\\nedition = "2018"\\n' > ${dir}/Cargo.toml`,
    lib
      ? `echo ${Buffer.from(lib).toString('base64')} | base64 -d > ${dir}/src/lib.rs`
      : `: > ${dir}/src/lib.rs`,
    `printf '{"package":null,"files":{}}' > ${dir}/.cargo-checksum.json`,
  ].join(' && ');
}

/**
 * `~/.cargo/config.toml` of the Rust environments: crates.io replaced by Debian's crate registry (a
 * directory source), offline, and `[patch.crates-io]` for the crates Debian lacks or trims: an empty
 * `jemallocator` (ripgrep links it on musl only) and Debian's `encoding_rs` with its `simd-accel`
 * feature declared again (Debian drops it with packed_simd; ripgrep's manifests name it).
 */
export const CARGO_CONFIG = `[source.crates-io]
replace-with = "debian"

[source.debian]
directory = "/usr/share/cargo/registry"

[net]
offline = true

[patch.crates-io]
jemallocator = { path = "${CARGO_STUBS}/jemallocator" }
encoding_rs = { path = "${CARGO_STUBS}/encoding_rs" }
`;

/** Env step: the stand-in crates of CARGO_CONFIG (needs Debian's librust-encoding-rs-dev installed). */
export const CARGO_STUBS_STEP = [
  `mkdir -p ${CARGO_STUBS}/jemallocator/src`,
  `printf '[package]\\nname = "jemallocator"\\nversion = "0.3.2"\\nedition = "2018"\\n' > ${CARGO_STUBS}/jemallocator/Cargo.toml`,
  `: > ${CARGO_STUBS}/jemallocator/src/lib.rs`,
  `cp -r "$(ls -d /usr/share/cargo/registry/encoding_rs-0.8.* | sort -V | tail -1)" ${CARGO_STUBS}/encoding_rs`,
  `cd ${CARGO_STUBS}/encoding_rs && rm -f .cargo-checksum.json`,
  `(grep -q '^simd-accel' Cargo.toml || { grep -q '^\\[features\\]' Cargo.toml && sed -i 's/^\\[features\\]$/[features]\\nsimd-accel = []/' Cargo.toml || printf '\\n[features]\\nsimd-accel = []\\n' >> Cargo.toml; })`,
].join(' && ');

/**
 * \`faun-cargo-offline\`, run in a Cargo workspace: drops Cargo.lock and re-resolves it against Debian's
 * registry; a requirement no Debian version meets (\`failed to select a version for the requirement
 * \`memmap2 = "^0.2"\`\`) is rewritten in the work tree's manifests to the newest version Debian ships,
 * until the lockfile resolves.
 */
export const CARGO_OFFLINE_SCRIPT = String.raw`#!/bin/sh
set -u
REG=${'$'}{FAUN_CARGO_REGISTRY:-/usr/share/cargo/registry}
rm -f Cargo.lock
for _ in $(seq 1 30); do
  out=$(cargo generate-lockfile --offline 2>&1) && exit 0
  name=$(printf '%s\n' "$out" | sed -n 's/.*failed to select a version for the requirement .\([A-Za-z0-9_-]*\) = .*/\1/p' | head -1)
  [ -z "$name" ] && { printf '%s\n' "$out" >&2; exit 1; }
  have=$(ls -d "$REG/$name"-[0-9]* 2>/dev/null | sed "s|.*/$name-||" | sort -V | tail -1)
  [ -z "$have" ] && { printf 'faun-cargo-offline: Debian ships no %s\n%s\n' "$name" "$out" >&2; exit 1; }
  before=$(find . -name Cargo.toml -not -path './target/*' -exec cat {} + | md5sum)
  find . -name Cargo.toml -not -path './target/*' -exec sed -i -E \
    -e "s/^($name[[:space:]]*=[[:space:]]*)\"[^\"]*\"/\1\"$have\"/" \
    -e "/^$name[[:space:]]*=[[:space:]]*\{/ s/(version[[:space:]]*=[[:space:]]*)\"[^\"]*\"/\1\"$have\"/" \
    -e "/package[[:space:]]*=[[:space:]]*\"$name\"/ s/(version[[:space:]]*=[[:space:]]*)\"[^\"]*\"/\1\"$have\"/" \
    -e "/^\[(dev-|build-)?dependencies\.$name\]/,/^\[/ s/^(version[[:space:]]*=[[:space:]]*)\"[^\"]*\"/\1\"$have\"/" {} +
  after=$(find . -name Cargo.toml -not -path './target/*' -exec cat {} + | md5sum)
  [ "$before" = "$after" ] && { printf 'faun-cargo-offline: cannot relax %s\n%s\n' "$name" "$out" >&2; exit 1; }
  echo "faun-cargo-offline: $name requirement set to $have (Debian's)"
done
exit 1
`;
