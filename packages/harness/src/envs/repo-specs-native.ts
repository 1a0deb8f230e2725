/**
 * Environment specs of real Go, Rust, C and C++ repositories from Multi-SWE-bench's lists, built from
 * Debian's packages only: the test command is Multi-SWE-bench's for the repository and the parser its
 * `parse_log` (parsers/select.ts MSB_PARSERS). Which versions work is documented in
 * packages/harness/README.md ("Native repositories").
 */
import { GO_OFFLINE_SCRIPT, installScript } from './native-env.ts';
import type { EnvSpec } from './specs.ts';

/** Where Debian's `golang-*-dev` packages put their sources. */
const GOCODE = '/usr/share/gocode/src';

const GO_ENV = {
  GOFLAGS: '-mod=mod',
  GOPROXY: 'off',
  GOSUMDB: 'off',
  GOTOOLCHAIN: 'local',
  CGO_ENABLED: '0',
  GOCACHE: '/root/.cache/go-build',
};

/** A Go repository whose module graph Debian's `golang-*-dev` packages cover. */
function goSpec(name: string, apt: string[], parser: EnvSpec['parser']): EnvSpec {
  return {
    name,
    versions: null,
    toolchain: 'go',
    apt,
    envSetup: [installScript('/usr/local/bin/faun-go-offline', GO_OFFLINE_SCRIPT)],
    // Resolve the graph offline, then compile every test binary once so test runs only rebuild changes.
    install: ['faun-go-offline', "go test -count=1 -run '^$' ./... >/dev/null 2>&1 || true"],
    // Multi-SWE-bench's command (fix-run.sh).
    testCmd: 'go test -v -count=1 ./... 2>&1',
    parser,
    env: GO_ENV,
    specVersion: '1',
  };
}

// gin 1.7–1.8 (Debian ships 1.8.1 and its dependencies).
const GIN = goSpec(
  'gin-gonic/gin',
  ['golang-github-gin-gonic-gin-dev', 'golang-github-go-playground-assert-v2-dev'],
  'msb-go-parent',
);
// echo v4.1–4.4 (Debian ships 4.2.1 and its dependencies).
const ECHO = goSpec(
  'labstack/echo',
  ['golang-github-labstack-echo-dev', 'golang-github-dgrijalva-jwt-go-dev'],
  'msb-go',
);

const NATIVE_BASE: EnvSpec[] = [
  // gin before #2827 (2021-08-19, which moved binding/protobuf.go to google.golang.org/protobuf): the base
  // may import github.com/golang/protobuf/proto, which gin 1.8.1's dependencies do not bring. Debian's 1.5
  // (the API over google.golang.org/protobuf) takes its place; without it every stage fails to compile the
  // binding package ("does not contain package github.com/golang/protobuf/proto").
  { ...GIN, versions: ['1.7-golang-protobuf'], apt: [...GIN.apt, 'golang-github-golang-protobuf-1-5-dev'] },
  GIN,
  // echo from 4.5 (2021-08): the JWT middleware imports github.com/golang-jwt/jwt 3.2, the maintained fork of
  // dgrijalva/jwt-go with its API, which Debian ships only as v4 (another module path). The env layer serves
  // Debian's dgrijalva/jwt-go under the fork's path; faun-go-offline then finds it by its go.mod. From go
  // 1.17 on, echo's go.mod prunes the graph, and `go list -m all` then also loads golang.org/x/mod and
  // x/tools (which Debian's x/* modules require, echo never imports) failing with no module named: they get
  // empty modules.
  {
    ...ECHO,
    versions: ['4.5-golang-jwt'],
    envSetup: [
      `mkdir -p ${GOCODE}/github.com/golang-jwt && cp -r ${GOCODE}/github.com/dgrijalva/jwt-go ${GOCODE}/github.com/golang-jwt/jwt && ` +
        `printf 'module github.com/golang-jwt/jwt\\n' > ${GOCODE}/github.com/golang-jwt/jwt/go.mod`,
      `for m in golang.org/x/mod golang.org/x/tools; do [ -f ${GOCODE}/$m/go.mod ] || ` +
        `{ mkdir -p ${GOCODE}/$m && printf 'module %s\\n' $m > ${GOCODE}/$m/go.mod; }; done`,
      ...ECHO.envSetup,
    ],
  },
  ECHO,
];

/** jq 1.7–1.8 with Debian's oniguruma (Multi-SWE-bench builds the bundled copy, a submodule). */
const JQ_SPEC: EnvSpec = {
  name: 'jqlang/jq',
  versions: null,
  toolchain: 'cpp',
  apt: ['autoconf', 'automake', 'libtool', 'libonig-dev', 'bison', 'flex'],
  envSetup: [],
  install: [
    'autoreconf -i >/dev/null 2>&1 && ./configure --with-oniguruma=yes --disable-docs --disable-valgrind --disable-maintainer-mode >/dev/null && make -j2 >/dev/null 2>&1 || true',
  ],
  // Multi-SWE-bench's fix-run.sh (autoreconf, configure, make, make check) without `make clean`: the
  // instance layer already built and configured the base, so only what the patches touch is rebuilt, and
  // autoreconf / configure run again only when a patch touches the build system (they took over half of
  // each ~75 s stage run).
  testCmd:
    "if [ ! -f config.status ] || git status --porcelain --untracked-files=no | grep -qE '(configure\\.ac|Makefile\\.am|\\.m4)$'; then autoreconf -i >/dev/null 2>&1; ./configure --with-oniguruma=yes --disable-docs --disable-valgrind --disable-maintainer-mode >/dev/null; fi; make -j2 2>&1 && make check 2>&1",
  parser: 'msb-automake',
  specVersion: '2',
};

/**
 * mruby with Debian's Ruby, rake and bison (Multi-SWE-bench: `rake`, then `rake all test --trace`, whose
 * `--trace` makes mrbtest print one `name : .` line per test). The instance layer builds the base; a run
 * rebuilds what the patches touch, compiling with two jobs, then runs the tests serially as the reference
 * does (a parallel rake would interleave mrbtest's and bintest's lines). From June 2026 mruby compiles
 * with Prism, a git submodule this machine cannot fetch: instances from then on are out of reach here.
 */
const MRUBY_SPEC: EnvSpec = {
  name: 'mruby/mruby',
  versions: null,
  toolchain: 'cpp',
  apt: ['ruby', 'rake', 'bison'],
  envSetup: [],
  install: ['rake -m -j2 all >/dev/null 2>&1 || true'],
  testCmd: 'rake -m -j2 all 2>&1 && rake all test --trace 2>&1',
  parser: 'msb-mruby',
  specVersion: '1',
};

/** Go, C and C++ repositories' specs, in lookup order. */
export const NATIVE_SPECS: EnvSpec[] = [...NATIVE_BASE, JQ_SPEC, MRUBY_SPEC];
