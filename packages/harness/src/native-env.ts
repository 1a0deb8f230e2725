/**
 * Offline dependency set-up of the native languages, as shell steps for the env and instance layers:
 * Go modules resolved from Debian's Go sources (/usr/share/gocode), Rust crates from Debian's crate
 * registry (/usr/share/cargo/registry). Pure data (strings); the specs in repo-specs-native.ts use them.
 */

/**
 * `faun-go-offline`, run in a Go repository: a replace directive for every module Debian ships (its
 * go.mod's `module` line → its directory), a go.mod for required directories without one, and an empty
 * stand-in module for each module of the graph Debian lacks (test-only requirements of dependencies),
 * until `go list -m all` resolves with GOPROXY=off.
 */
export const GO_OFFLINE_SCRIPT = String.raw`#!/bin/sh
set -u
SRC=/usr/share/gocode/src
STUBS=/usr/local/share/faun-go-stubs
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
    mkdir -p "$STUBS/$p" && printf 'module %s\n' "$p" > "$STUBS/$p/go.mod"
    go mod edit "-replace=$p=$STUBS/$p"
  done
done
exit 1
`;

/** An env-layer step that installs `script` as the executable `path` (base64, so no quoting issues). */
export function installScript(path: string, script: string): string {
  return `echo ${Buffer.from(script).toString('base64')} | base64 -d > ${path} && chmod +x ${path}`;
}
