/**
 * How Multi-SWE-bench runs each repository of `bench real-exec`, and every way faun's run differs (pure
 * data). The upstream commands are re-expressed from the `fix-run.sh` of Multi-SWE-bench's per-repository
 * definitions (multi_swe_bench/harness/repos/<lang>/<org>/<repo>.py); faun's are its environment specs'
 * (packages/harness/src/envs/repo-specs-*.ts). A deviation that can change which tests run makes the
 * instances of that repository count apart from the others (`counted` in the figures).
 */
import { JACKSON_XML_ASKS, xmlVersionName } from '@faun/harness';
import {
  type Deviation,
  JACKSON_XML_STANDIN,
  jacksonXmlForDeps,
  mavenDeviations,
} from '../msb-published/upstream.ts';

export interface RepoUpstream {
  /** Multi-SWE-bench's commands in each stage, after the patches are applied (null: not one of its repositories). */
  upstream: string | null;
  /** Multi-SWE-bench's base image. */
  image: string | null;
  deviations: Deviation[];
  /** Further deviations of an environment version (the row's `version`). */
  byVersion?: Record<string, Deviation[]>;
}

const GO_OFFLINE: Deviation = {
  what: 'rewritten go.mod',
  upstream: "the repository's go.mod and go.sum; modules from the Go module proxy",
  faun:
    "faun-go-offline points every required module at Debian's golang-*-dev sources (replace directives), " +
    'GOPROXY=off, GOFLAGS=-mod=mod: the dependency versions are Debian bookworm’s',
  may_change_tests_run: false,
};
/** The toolchain: upstream's base image against Debian bookworm's packages (never changes which tests run). */
const toolchain = (upstream: string, faun: string): Deviation => ({
  what: 'toolchain',
  upstream,
  faun,
  may_change_tests_run: false,
});
const GO_TOOLCHAIN = toolchain(
  'golang:latest (the Go release of the day the image was built)',
  "Debian bookworm's Go 1.19, CGO_ENABLED=0, GOTOOLCHAIN=local",
);
const CARGO_OFFLINE: Deviation = {
  what: 'regenerated lockfile',
  upstream: "the repository's Cargo.lock (when present); crates from crates.io",
  faun:
    "faun-cargo-offline resolves the lockfile again against Debian's crate registry (/usr/share/cargo/registry); " +
    '`--offline --ignore-rust-version`: the dependency versions are Debian bookworm’s',
  may_change_tests_run: false,
};
const RUST_TOOLCHAIN = toolchain('rust:latest', "Debian bookworm's rustc / cargo 1.63");
const MAVEN: Deviation[] = [
  {
    what: 'narrowed test scope',
    upstream: 'the whole suite',
    faun: 'only the test classes the test patch touches (`-Dtest=`)',
    may_change_tests_run: true,
  },
  {
    what: 'stand-in POM',
    upstream: "the project's pom.xml and its parent's plugins",
    faun: 'compiler 3.10.1, resources 3.3.0, surefire 2.22.3, JUnit 4.13.2 + Jupiter/vintage 5.9.2',
    may_change_tests_run: true,
  },
  {
    what: 'offline Maven',
    upstream: 'mvn with Maven Central; `mvn clean`',
    faun: "`mvn -o -B` against Debian's /usr/share/maven-repo; `rm -rf target` (Debian has no clean plugin)",
    may_change_tests_run: false,
  },
  {
    what: 'toolchain',
    upstream: 'Ubuntu 22.04: openjdk-8-jdk, maven',
    faun: 'Debian bookworm: OpenJDK 17 compiling with --release 8, Maven 3.8',
    may_change_tests_run: false,
  },
];
const NODE_DEPS = (what: string): Deviation => ({
  what: 'dependencies',
  upstream: "the repository's lockfile, installed in the image (npm / yarn, network)",
  faun: `${what}, from the npm registry at image build time, pinned (repo-specs-node.ts); tests run offline`,
  may_change_tests_run: false,
});
const CMAKE_TARGETS: Deviation = {
  what: 'narrowed test scope',
  upstream: '`cmake --build .` (every target) and `ctest` (the whole suite)',
  faun: 'only the test targets of the files the test patch touches are built, and `ctest -R` runs those',
  may_change_tests_run: true,
};

/** jackson-dataformat-xml's deviations per environment version (what its bases ask for: jackson-xml-envs.ts). */
function xmlByVersion(): Record<string, Deviation[]> {
  return Object.fromEntries(
    JACKSON_XML_ASKS.map((a) => {
      const r = jacksonXmlForDeps({ ...a, parentVersion: `${a.line}.x` });
      if ('unsupported' in r) throw new Error(r.unsupported);
      return [xmlVersionName(a), r.deviations];
    }),
  );
}

export const REAL_EXEC_UPSTREAM: Record<string, RepoUpstream> = {
  'google/uuid': {
    upstream: null,
    image: null,
    deviations: [
      {
        what: 'no upstream definition',
        upstream: 'not one of Multi-SWE-bench’s repositories',
        faun: "faun's Go default: `go test -v -count=1 ./...` (Multi-SWE-bench's Go command)",
        may_change_tests_run: false,
      },
      GO_OFFLINE,
      GO_TOOLCHAIN,
    ],
  },
  'gin-gonic/gin': {
    upstream: 'go test -v -count=1 ./...',
    image: 'golang:latest',
    deviations: [GO_OFFLINE, GO_TOOLCHAIN],
    byVersion: {
      '1.7-golang-protobuf': [
        {
          what: 'dependency substituted',
          upstream: 'github.com/golang/protobuf at the version go.mod asks for',
          faun: "Debian's golang/protobuf 1.5 (the API over google.golang.org/protobuf)",
          may_change_tests_run: false,
        },
      ],
    },
  },
  'labstack/echo': {
    upstream: 'go test -v -count=1 ./...',
    image: 'golang:latest',
    deviations: [GO_OFFLINE, GO_TOOLCHAIN],
    byVersion: {
      '4.5-golang-jwt': [
        {
          what: 'dependency substituted',
          upstream: 'github.com/golang-jwt/jwt 3.2',
          faun: "Debian's dgrijalva/jwt-go (the same API) under golang-jwt/jwt's module path; empty golang.org/x/mod and x/tools modules",
          may_change_tests_run: false,
        },
      ],
    },
  },
  'jqlang/jq': {
    upstream:
      'autoreconf -i; ./configure --with-oniguruma=builtin; make clean; make -j8; make check (set -e)',
    image: 'ubuntu:22.04',
    deviations: [
      {
        what: 'dependency substituted',
        upstream: 'the bundled oniguruma (a git submodule), `--with-oniguruma=builtin`',
        faun: "Debian's libonig-dev, `--with-oniguruma=yes`",
        may_change_tests_run: false,
      },
      {
        what: 'changed flags',
        upstream: 'make clean; autoreconf and configure in every stage; make -j8',
        faun:
          'no make clean: the instance layer built the base, autoreconf / configure run again only when a patch ' +
          'touches the build system; `--disable-docs --disable-valgrind --disable-maintainer-mode`; make -j2',
        may_change_tests_run: false,
      },
    ],
  },
  'mruby/mruby': {
    upstream: 'rake; rake all test --trace (set -e)',
    image: 'gcc:11',
    deviations: [
      {
        what: 'changed flags',
        upstream: '`rake` (serial build)',
        faun: '`rake -m -j2 all` (parallel build); the tests run serially as upstream',
        may_change_tests_run: false,
      },
      toolchain('gcc:11 with Ubuntu’s ruby-full, rake, bison', "Debian bookworm's gcc 12, ruby, rake, bison"),
    ],
  },
  'fmtlib/fmt': {
    upstream: 'cd build; cmake ..; cmake --build .; ctest (set -e)',
    image: 'gcc:latest',
    deviations: [
      CMAKE_TARGETS,
      {
        what: 'changed flags',
        upstream: 'cmake with the project defaults',
        faun: '-DCMAKE_BUILD_TYPE=Debug -DFMT_DOC=OFF -DFMT_WERROR=OFF',
        may_change_tests_run: false,
      },
    ],
  },
  'nlohmann/json': {
    upstream: 'cd build; cmake ..; cmake --build .; ctest (set -e)',
    image: 'gcc:latest',
    deviations: [
      CMAKE_TARGETS,
      {
        what: 'missing test data',
        upstream: 'nlohmann/json_test_data, downloaded at configure time',
        faun: 'an empty test data directory (no network): a test that reads it fails in every stage',
        may_change_tests_run: true,
      },
    ],
  },
  'tokio-rs/bytes': {
    upstream: 'cargo test (set -e)',
    image: 'rust:latest',
    deviations: [
      {
        what: 'narrowed test scope',
        upstream: '`cargo test`: unit, integration and doc tests',
        faun: '`--tests`: no doctests (about 130, 7 minutes per stage run here)',
        may_change_tests_run: true,
      },
      CARGO_OFFLINE,
      {
        what: 'dependency substituted',
        upstream: 'loom (a `cfg(loom)` test dependency) from crates.io',
        faun: 'empty loom 0.5 / 0.7 stand-ins in the registry (never compiled without `--cfg loom`)',
        may_change_tests_run: false,
      },
      RUST_TOOLCHAIN,
    ],
  },
  'BurntSushi/ripgrep': {
    upstream: 'cargo test (set -e)',
    image: 'rust:latest',
    deviations: [CARGO_OFFLINE, RUST_TOOLCHAIN],
  },
  'sharkdp/fd': {
    upstream: 'cargo test (set -e)',
    image: 'rust:latest',
    deviations: [
      CARGO_OFFLINE,
      {
        what: 'relaxed requirements',
        upstream: "the versions fd's Cargo.toml asks for",
        faun:
          'faun-cargo-offline sets requirements no Debian version meets to Debian’s (e.g. lscolors 0.7–0.12 → 0.13, ' +
          'nix 0.23–0.24 → 0.26, test-case 1 → 2.2, users 0.10 → 0.11, normpath 0.3.2 → 0.3.1, num_cpus 1.15 → 1.14): ' +
          'the same tests, built against those versions',
        may_change_tests_run: false,
      },
      {
        what: 'dependency substituted',
        upstream:
          'jemallocator 0.3 / 0.5 (the global allocator on Linux) and tempdir 0.3 (the tests’ work folders) from crates.io',
        faun:
          'stand-in crates (Debian ships neither): the system allocator under jemallocator’s name; a tempdir whose ' +
          '`TempDir` creates and removes `<prefix>.<unique>` under the temporary directory',
        may_change_tests_run: false,
      },
      toolchain(
        'rust:latest',
        "Debian bookworm's rustc / cargo 1.63; its std mpsc `recv_timeout` can panic (rust-lang/rust#39364, fixed in " +
          'Rust 1.67), so no pointer has a base whose walker calls it (2021-11-27 … 2022-11-01)',
      ),
    ],
  },
  'FasterXML/jackson-core': {
    upstream: 'mvn clean test -Dmaven.test.skip=false -DfailIfNoTests=false',
    image: 'ubuntu:22.04',
    deviations: MAVEN,
  },
  'FasterXML/jackson-databind': {
    upstream: 'mvn clean test -Dmaven.test.skip=false -DfailIfNoTests=false',
    image: 'ubuntu:22.04',
    deviations: [
      ...MAVEN,
      {
        what: 'excluded sources',
        upstream: 'every test source compiles and runs',
        faun:
          'MapperFootprintTest, NoClassDefFoundWorkaroundTest, TestTypeFactoryWithClassLoader, CLHMTestlibTests and ' +
          'MapTestFactory left out (test libraries Debian does not ship: jol, jsr-275, powermock, guava-testlib)',
        may_change_tests_run: true,
      },
      {
        what: 'dependency built from source',
        upstream: 'jackson-core 2.14.x from Maven Central',
        faun: "jackson-core 2.14.1 compiled from Debian's source package (Debian's binary carries 2.15's read constraints)",
        may_change_tests_run: false,
      },
    ],
  },
  // the whole suite, as msb-published runs the published rows; the environment follows the base's POM
  'FasterXML/jackson-dataformat-xml': {
    upstream: 'mvn clean test -Dmaven.test.skip=false -DfailIfNoTests=false',
    image: 'ubuntu:22.04',
    deviations: mavenDeviations(JACKSON_XML_STANDIN.pom, JACKSON_XML_STANDIN.standin),
    byVersion: xmlByVersion(),
  },
  'anuraghazra/github-readme-stats': {
    upstream: 'npm run test -- --verbose (set -e)',
    image: 'ubuntu:latest',
    deviations: [
      NODE_DEPS(
        'jest 29.7.0, jest-environment-jsdom, @testing-library/*, axios 1.6.1 and the modules src/ and tests/ import, ' +
          'at #3453’s lockfile versions; Debian’s Node 18 and npm',
      ),
    ],
  },
  'reduxjs/redux': {
    upstream: 'yarn install || true; yarn test (set -e)',
    image: 'node:20',
    deviations: [],
    byVersion: {
      'jest22-babel6': [
        NODE_DEPS(
          'jest 22.3.0, babel-jest 22.2.2, jsdom 11.6.2, babel 6 with the plugins and preset its .babelrc names, rollup 0.56 and its plugins, TypeScript 2.7.1 and ' +
            'both type-test runners, at #2673’s and #2919’s lockfile versions; Debian’s Node 18 and yarn 1 (yarnpkg)',
        ),
      ],
      'jest24-babel7': [
        NODE_DEPS(
          'jest 24.8.0, babel 7.5 with the preset and plugins its .babelrc.js names, rollup 1.16.7 and its plugins, TypeScript 3.5.3, ' +
            'typings-tester and the @types packages, at #3490’s parent’s lockfile versions; Debian’s Node 18 and yarn 1 (yarnpkg)',
        ),
      ],
      'jest25-ts': [
        NODE_DEPS(
          'jest 25.4.0, babel 7.9 with its TypeScript preset, rollup 2.7.2 with rollup-plugin-typescript2 0.27.0 and both generations of its plugins, ' +
            'TypeScript 3.8.3, typings-tester and the @types packages, at #4055’s parent’s lockfile versions (picomatch 2.2.2); Debian’s Node 18 and yarn 1 (yarnpkg)',
        ),
      ],
    },
  },
  'colinhacks/zod': {
    upstream: 'yarn build; yarn test (set -e)',
    image: 'node:20',
    deviations: [
      {
        what: 'narrowed test scope',
        upstream: '`yarn test`: every test file',
        faun: '`yarn test <the test patch’s files>`: only those files run',
        may_change_tests_run: true,
      },
      {
        what: 'changed flags',
        upstream: '`yarn build` before the tests',
        faun: 'no build (it writes lib/ and deno/lib/, which the tests do not import)',
        may_change_tests_run: false,
      },
      NODE_DEPS(
        'jest 29.7.0, ts-jest 29.1.1, typescript 4.5.5, @types/jest, @types/node; Debian’s Node 18 and yarn',
      ),
    ],
  },
  'expressjs/express': {
    upstream: 'npm run test-ci -- --reporter json (nyc, then npm test: the flag never reaches mocha)',
    image: 'ubuntu:latest',
    deviations: [
      {
        what: 'changed flags',
        upstream: '`npm run test-ci -- --reporter json` (nyc around `npm test`)',
        faun: 'mocha itself with its JSON reporter over the same files and options as `npm test` (no nyc)',
        may_change_tests_run: false,
      },
      NODE_DEPS(
        'express 5.1’s or 5.2’s dependencies as the registry resolved them (2026-12), by the base’s package.json',
      ),
    ],
  },
  'iamkun/dayjs': {
    upstream: 'npm test -- --verbose && codecov',
    image: 'ubuntu:latest',
    deviations: [
      {
        what: 'changed flags',
        upstream: '`&& codecov` after the tests (uploads coverage)',
        faun: 'no codecov (no network)',
        may_change_tests_run: false,
      },
      NODE_DEPS('jest 22.4.4, babel 7 and the test utilities dayjs’s package.json names; Debian’s Node 18'),
    ],
  },
  'markedjs/marked': {
    upstream: 'npm run build; npm run test:unit; npm run test:specs; npm run test:umd (set -e)',
    image: 'node:20',
    deviations: [
      {
        what: 'changed flags',
        upstream: '`npm run build`: rollup, build:types and build:man',
        faun:
          'rollup only: build:types and build:man write lib/*.d.ts and man/marked.1, which no test reads ' +
          '(a patch that breaks only the type build would stop upstream’s run before the tests)',
        may_change_tests_run: false,
      },
      NODE_DEPS('rollup 4, typescript 5.8, @markedjs/testutils 14.1.1-0 …; Node 20.19.5 and npm 10.8.2'),
    ],
  },
};

/** An instance of a repository this table does not describe: counted apart until it is described. */
const UNDESCRIBED: Deviation = {
  what: 'undescribed',
  upstream: 'unknown',
  faun: 'no record of how faun runs this repository differs from Multi-SWE-bench',
  may_change_tests_run: true,
};

/**
 * Every row `bench real-exec` builds starts from its pointer's fix commit: the base is that commit's first
 * parent, where Multi-SWE-bench's rows take the PR's `base.sha`.
 */
export const BASE_COMMIT: Deviation = {
  what: 'base commit',
  upstream: "the PR's base.sha (the target branch as the PR's data recorded it)",
  faun:
    "the fix commit's first parent (the target branch just before the merge), so that the fix and test patches, " +
    'split from that commit, apply as merged',
  may_change_tests_run: false,
};

/** Every deviation of an instance of `repo` in environment version `version`. */
export function deviationsOf(repo: string, version: string | null): Deviation[] {
  const r = REAL_EXEC_UPSTREAM[repo];
  if (!r) return [UNDESCRIBED];
  return [BASE_COMMIT, ...r.deviations, ...((version && r.byVersion?.[version]) || [])];
}

/** Whether any deviation can change which tests run (then the instance is not counted with the others). */
export const changesTestsRun = (ds: readonly Deviation[]): boolean => ds.some((d) => d.may_change_tests_run);
