# Sourced by native-logs.sh and pair-logs.sh (their arguments: OUT_DIR, then names; ALL, the names they
# know): the shared settings and functions for running a project's test suite in faun's toolchain images.
# OUT_DIR is taken off the arguments, leaving the names.
# shellcheck shell=bash
OUT=${1:?usage: $(basename "$0") OUT_DIR [name…] (names: $ALL)}
shift
MIRRORS=${MIRRORS:-/work/.mirror}
NPM_TARBALL_URL=${NPM_TARBALL_URL:-https://registry.npmjs.org/npm/-/npm-9.9.4.tgz}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

tag() { (cd "$ROOT" && bun -e "import { toolchainImageTag } from '@faun/services'; console.log(toolchainImageTag('$1'))"); }

# checkout REPO COMMIT DIR: a work tree of REPO at COMMIT from its mirror.
checkout() {
  local git="$MIRRORS/${1/\//+}/repo"
  [ -d "$git" ] || { echo "missing mirror $git (fetch github:$1 first)" >&2; exit 1; }
  git clone -q "$git" "$3" && git -C "$3" checkout -q "$2"
}

# run IMAGE OUTDIR SCRIPT [docker args…]: runs SCRIPT (bash) in IMAGE with OUTDIR at /out.
run() {
  local image=$1 out=$2 script=$3
  shift 3
  mkdir -p "$out"
  printf '%s\n' "$script" >"$out/run.sh"
  echo "== $(basename "$out") ($image)" >&2
  docker run --rm -v "$out:/out" "$@" "$image" bash /out/run.sh
}

# A TLS-intercepting proxy between the containers and the registry needs its CA: CA_BUNDLE (default
# $NODE_EXTRA_CA_CERTS) is mounted and handed to node.
CA_BUNDLE=${CA_BUNDLE:-${NODE_EXTRA_CA_CERTS:-}}
ca_args() { if [ -n "$CA_BUNDLE" ]; then echo "-e NODE_EXTRA_CA_CERTS=/ca.crt -v $CA_BUNDLE:/ca.crt:ro"; fi; }

# npm itself, from the registry as a tarball ($NPM_TARBALL_URL), unpacked once per run.
npm_cli() {
  [ -d "$WORK/npm" ] || { mkdir -p "$WORK/npm" && curl -sSfL "$NPM_TARBALL_URL" | tar xz -C "$WORK/npm"; }
  echo "$WORK/npm/package"
}

# Sources generated from gson's java-templates, as its own build does.
GSON_TEMPLATES='for f in $(cd src/main/java-templates && find . -name "*.java"); do mkdir -p src/main/java/$(dirname $f); sed "s/\${project.version}/2.10.1/g" src/main/java-templates/$f > src/main/java/$f; done'

# Container script preludes: go-cmp's and regex-syntax's sources from Debian's packages, copied to /tmp and
# entered (their versions in /out/version.txt).
GO_CMP_SETUP='set -e
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends golang-github-google-go-cmp-dev >/dev/null
dpkg-query -W golang-github-google-go-cmp-dev > /out/version.txt
export CGO_ENABLED=0 GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local GOCACHE=/tmp/gocache
cp -r /usr/share/gocode/src/github.com/google/go-cmp /tmp/cmp && cd /tmp/cmp'
REGEX_SYNTAX_SETUP='set -e
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends librust-regex-syntax-dev >/dev/null
dpkg-query -W librust-regex-syntax-dev > /out/version.txt
export CARGO_HOME=/tmp/cargo CARGO_TERM_COLOR=never
cp -r /usr/share/cargo/registry/regex-syntax-0.6.* /tmp/rs && cd /tmp/rs && rm -f .cargo-checksum.json'

# run_each KIND "KNOWN" NAME…: runs the function of each NAME (its dashes as underscores), in order; a NAME
# not in KNOWN stops with exit 2.
run_each() {
  local kind=$1 known=$2 p
  shift 2
  for p in "$@"; do
    case " $known " in
    *" $p "*) "${p//-/_}" ;;
    *) echo "unknown $kind $p (known: $known)" >&2 && exit 2 ;;
    esac
  done
  echo "logs in $OUT" >&2
}
