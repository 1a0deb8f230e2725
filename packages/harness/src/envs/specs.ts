/**
 * Environment specs: per repository (and version set) the base toolchain, the Debian packages and setup
 * steps of the repo-env layer, the install steps of the instance layer, the test command and the log
 * parser. Languages have defaults for repositories without a spec of their own.
 */

import { sha256 } from '@faun/kit';
import { type ExecutionInstance, type Language, stableStringify } from '@faun/schema';
import type { Toolchain } from '@faun/services';
import type { EvalType } from '../grading/grading.ts';
import type { ParserName } from '../parsers/index.ts';
import type { SandboxNetwork } from '../sandbox/sandbox.ts';
import { REPO_SPECS } from './repo-specs.ts';

export { REPO_SPECS } from './repo-specs.ts';

import { patchFiles } from '../files/patch.ts';
import { sh, shellWord } from './shell.ts';

export interface EnvSpec {
  /** `owner/repo`, or `default:<language>`. */
  name: string;
  /** Instance `version` values this spec covers (null: all). */
  versions: string[] | null;
  toolchain: Toolchain;
  /** Debian suite of the toolchain image (default bookworm = Python 3.11; bullseye 3.9, trixie 3.13). */
  suite?: DebianSuite;
  /** Extra Debian packages for the repo-env layer. */
  apt: string[];
  /** Shell steps of the repo-env layer (run as root, no repository yet). */
  envSetup: string[];
  /**
   * Other repositories' trees copied into the repo-env layer before `envSetup` runs: a dependency at
   * the version the repository pins when Debian has none that fits (its mirror, or a clone).
   */
  sources?: EnvSource[];
  /**
   * The env steps download from a package registry (npm): the build copies the host's CA bundle to
   * BUILD_CA_PATH first, so a registry reached through a TLS-inspecting proxy the host trusts works too.
   */
  registryBuild?: boolean;
  /** Shell steps of the instance layer, run in the repository at base_commit. */
  install: string[];
  /**
   * Shell steps of eval.sh after the model patch is applied and before the test patch: SWE-bench's
   * `eval_commands` and its re-run of the install step (C extensions rebuilt from the patched tree).
   */
  preTest?: string[];
  /**
   * Test command template; `{test_files}` = files the test patch touches, `{test_modules}` = the same as
   * dotted module names relative to `tests/` (django), `{test_classes}` = the Java test classes among
   * them as Surefire's `-Dtest` list (simple names, comma-separated).
   */
  testCmd: string;
  /**
   * SWE-bench's Java harness: the command that runs one test (`{test}` = its id as `-Dtest` takes it),
   * once per FAIL_TO_PASS / PASS_TO_PASS test, read by `parse_log_maven` (each `-Dtest=` line matched to
   * the next BUILD SUCCESS / FAILURE). `--swebench-out` rows of such a spec carry it (`perTestCommand`).
   */
  perTestCmd?: string;
  /** Run once before the per-test commands (a clean build directory). */
  perTestPrelude?: string;
  parser: ParserName;
  evalType?: EvalType;
  /**
   * CPUs the tests need at least (tests that skip on one core): the sandbox's CPU limit is raised to it.
   */
  minCpus?: number;
  /** The sandbox's network during tests (default `none`). */
  network?: SandboxNetwork;
  /**
   * Host names that resolve to 127.0.0.1 in the sandbox, for test servers the spec starts on loopback (the
   * sandbox's root file system is read-only: /etc/hosts is written when it starts, not by the tests).
   */
  localHosts?: string[];
  /**
   * Folders outside the work tree that the test command writes (a build tree the instance layer filled,
   * e.g. a CMake build folder): in the sandbox, whose root file system is read-only, each is a size-limited
   * memory file system filled from the image at start, as the work tree is. Absolute paths.
   */
  writable?: string[];
  /** Environment variables for install and tests. */
  env?: Record<string, string>;
  /** Bump when a change to the spec must invalidate stored results. */
  specVersion: string;
  /** What this environment does differently from SWE-bench's spec for the same versions (documentation). */
  swebench?: SwebenchDelta;
}

export type DebianSuite = 'bookworm' | 'bullseye' | 'trixie';

/** A repository's tree at `commit`, copied to `dest` in the image. */
export interface EnvSource {
  repo: string;
  commit: string;
  dest: string;
}

/** SWE-bench's Python and pins for the versions of a spec, and how faun's Debian environment differs. */
export interface SwebenchDelta {
  /** SWE-bench's Python version. */
  python: string;
  /** Each difference from SWE-bench's pins (package: SWE-bench's pin → what Debian gives here). */
  differs: string[];
  /** Set when the spec has not been run on this machine, with the reason. */
  notRunHere?: string;
}

const PY_ENV = { PYTHONDONTWRITEBYTECODE: '1', PYTHONWARNINGS: 'ignore' };

/** Defaults by language: whole-suite commands for small repositories. */
export const LANGUAGE_DEFAULTS: Record<Language, EnvSpec | null> = {
  python: {
    name: 'default:python',
    versions: null,
    toolchain: 'python',
    apt: [],
    envSetup: [],
    install: [],
    // SWE-bench's form: the `-rA` short summary is what the parser reads (no `-v`).
    testCmd: 'python3 -m pytest -rA -p no:cacheprovider',
    parser: 'pytest',
    env: PY_ENV,
    specVersion: '2',
  },
  go: {
    name: 'default:go',
    versions: null,
    toolchain: 'go',
    apt: [],
    envSetup: [],
    install: ['go vet ./... >/dev/null 2>&1 || true'],
    testCmd: 'go test -json -count=1 ./...',
    parser: 'go',
    // The go image has no C compiler: packages that would pick cgo (net, os/user) build pure-Go instead.
    env: {
      CGO_ENABLED: '0',
      GOFLAGS: '-mod=mod',
      GOPROXY: 'off',
      GOTOOLCHAIN: 'local',
      GOCACHE: '/root/.cache/go-build',
    },
    specVersion: '2',
  },
  java: {
    name: 'default:java',
    versions: null,
    toolchain: 'java',
    apt: ['libmaven-resources-plugin-java'],
    envSetup: [],
    install: ['mvn -o -q -B -Dmaven.repo.local=/usr/share/maven-repo test-compile >/dev/null 2>&1 || true'],
    testCmd:
      'mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo -Dsurefire.printSummary=true test; rc=$?; ' +
      'cat target/surefire-reports/TEST-*.xml 2>/dev/null; exit $rc',
    parser: 'junit',
    env: { MAVEN_OPTS: '-Xmx512m' },
    specVersion: '1',
  },
  javascript: {
    name: 'default:javascript',
    versions: null,
    toolchain: 'node',
    apt: [],
    envSetup: [],
    install: [],
    testCmd: 'node --test --test-reporter=tap',
    parser: 'node-test',
    specVersion: '1',
  },
  typescript: {
    name: 'default:typescript',
    versions: null,
    toolchain: 'node',
    apt: ['node-typescript'],
    envSetup: [],
    install: [],
    testCmd:
      // Transpile (type errors are reported, not fatal — like ts-node --transpile-only), then run the JS.
      'rm -rf /tmp/faun-ts; tsc --outDir /tmp/faun-ts --rootDir . --module commonjs --target es2020 --skipLibCheck ' +
      '$(find . -name "*.ts" -not -name "*.d.ts" -not -path "./node_modules/*") || echo "tsc: type errors (tests run on the emitted JS)"; ' +
      'node --test --test-reporter=tap /tmp/faun-ts',
    parser: 'node-test',
    specVersion: '1',
  },
  rust: {
    name: 'default:rust',
    versions: null,
    toolchain: 'rust',
    apt: [],
    envSetup: [],
    install: ['cargo build --offline --tests -q >/dev/null 2>&1 || true'],
    testCmd: 'cargo test --offline --no-fail-fast 2>&1',
    parser: 'cargo',
    env: { CARGO_TERM_COLOR: 'never' },
    specVersion: '1',
  },
  cpp: {
    name: 'default:cpp',
    versions: null,
    toolchain: 'cpp',
    apt: [],
    envSetup: [],
    install: [],
    testCmd:
      'cmake -S . -B /tmp/faun-build -DCMAKE_BUILD_TYPE=Debug >/dev/null && cmake --build /tmp/faun-build -j 2 ' +
      '&& cd /tmp/faun-build && ctest --output-on-failure',
    parser: 'ctest-gtest',
    specVersion: '1',
  },
  c: null,
  other: null,
};
LANGUAGE_DEFAULTS.c = { ...LANGUAGE_DEFAULTS.cpp!, name: 'default:c' };

/** The sandbox limits for a spec: `limits` with the CPU limit raised to the spec's `minCpus`. */
export function specLimits<L extends { cpus: number }>(limits: L, spec: EnvSpec): L {
  return spec.minCpus && spec.minCpus > limits.cpus ? { ...limits, cpus: spec.minCpus } : limits;
}

/** The spec for an instance: the repository's own (matching version) or its language's default. */
export function specFor(inst: ExecutionInstance, extra: EnvSpec[] = []): EnvSpec | null {
  for (const s of [...extra, ...REPO_SPECS]) {
    if (s.name !== inst.repo) continue;
    if (s.versions === null || (inst.version !== null && s.versions.includes(inst.version))) return s;
  }
  return LANGUAGE_DEFAULTS[inst.language];
}

/** Data files a test patch may carry that are not test modules (SWE-bench's NON_TEST_EXTS). */
const NON_TEST_EXTS = [
  '.json',
  '.png',
  '.csv',
  '.txt',
  '.md',
  '.jpg',
  '.jpeg',
  '.pkl',
  '.yml',
  '.yaml',
  '.toml',
  '.cfg',
  '.ini',
];

/** Test files the test patch adds or changes (the SWE-bench convention: run only those). */
export function testFiles(testPatch: string): string[] {
  const files = new Set<string>();
  for (const f of patchFiles(testPatch))
    if (f.to && !NON_TEST_EXTS.some((e) => f.to!.toLowerCase().endsWith(e))) files.add(f.to);
  return [...files].sort();
}

/** django: `tests/foo/test_bar.py` → `foo.test_bar`. */
export function djangoModules(files: string[]): string[] {
  return files
    .filter((f) => f.startsWith('tests/') && f.endsWith('.py'))
    .map((f) => f.slice(6, -3).replaceAll('/', '.'));
}

/**
 * Java test sources under `src/test/java/` → their class names (`…/FooTest.java` → `FooTest`), sorted, unique;
 * only names that are plain identifiers (they are filled into a shell line as they are).
 */
export function javaTestClasses(files: string[]): string[] {
  const names = files
    .filter((f) => /(^|\/)src\/test\/java\/.+\.java$/.test(f))
    .map((f) => f.slice(f.lastIndexOf('/') + 1, -'.java'.length))
    .filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
  return [...new Set(names)].sort();
}

/** The test command for an instance: the row's override, else the spec's template filled in. */
export function testCommand(spec: EnvSpec, inst: ExecutionInstance): string {
  if (inst.test_cmd) return inst.test_cmd;
  const files = testFiles(inst.test_patch);
  return spec.testCmd
    .replaceAll('{test_files}', files.map(shellWord).join(' '))
    .replaceAll('{test_modules}', djangoModules(files).map(shellWord).join(' '))
    .replaceAll('{test_classes}', javaTestClasses(files).join(','));
}

/**
 * SWE-bench's Java path as one test command: the prelude, then per test a trace line naming it
 * (`+ <command>`, as its `set -x` eval script prints) and the command, whatever the previous one gave.
 * Ids must be single words (class names, `Class#method`).
 */
export function perTestCommand(spec: EnvSpec, tests: string[]): string | null {
  if (!spec.perTestCmd) return null;
  const bad = tests.find((t) => !/^[\w.$#*+-]+$/.test(t));
  if (bad !== undefined) throw new Error(`test id '${bad}' cannot be passed to -Dtest (one word expected)`);
  const q = sh;
  const steps = [...new Set(tests)].map((t) => {
    const cmd = spec.perTestCmd!.replaceAll('{test}', t);
    return `echo ${q(`+ ${cmd}`)}; ${spec.perTestCmd!.replaceAll('{test}', q(t))}`;
  });
  return [...(spec.perTestPrelude ? [spec.perTestPrelude] : []), ...steps].join('\n');
}

/** The instance-layer install steps with `{version}` and `{test_files}` filled in. */
export function installSteps(spec: EnvSpec, inst: ExecutionInstance): string[] {
  const files = testFiles(inst.test_patch).map(shellWord).join(' ');
  return spec.install.map((s) =>
    s.replaceAll('{version}', inst.version ?? '0').replaceAll('{test_files}', files),
  );
}

/** The spec identity stored with results: name, declared version and a hash of its content. */
export function specId(spec: EnvSpec): string {
  return `${spec.name}@${spec.specVersion}+${sha256(stableStringify(spec)).slice(0, 8)}`;
}
