/**
 * Test infrastructure belongs to the benchmark (pure). By default (`--test-infra drop`) the files of a
 * prediction that change what the test runner loads besides the code under test are dropped before the run —
 * whole files, every hunk of them — and recorded in the result (`dropped_files`) and the reports. The rule is
 * by path only, the same for every prediction (gold and empty included), and deliberately wide: a file it
 * names is dropped entirely even when only part of it configures tests (a `pyproject.toml` that also lists
 * dependencies, a `package.json`, a `pom.xml`), because a partial reading of those formats is a place to hide.
 *
 * - any file the row's `test_patch` touches (the benchmark's tests, restored before the test patch anyway);
 * - runner configuration in every language: `conftest.py`, `pytest.ini`, `tox.ini`, `setup.cfg`,
 *   `pyproject.toml`, `noxfile.py`; `package.json`, `jest.config.*`, `jest.setup.*`, `vitest.config.*`,
 *   `vitest.workspace.*`, `.mocharc*`, `karma.conf.*`, `ava.config.*`; `pom.xml`, `.mvn/…`, `build.gradle*`,
 *   `settings.gradle*`, `gradle.properties`; `Cargo.toml`, `.cargo/config*`; `CMakeLists.txt`, `*.cmake`,
 *   `CTestTestfile.*`, `CTestCustom.*`;
 * - test sources the row's runner picks up by itself: Go `_test.go` files (every language: `go test` reads
 *   them wherever they are), Java `src/test/…`, JavaScript/TypeScript `__tests__/`, `__mocks__/`,
 *   `*.test.*` and `*.spec.*`, Rust `tests/…/*.rs`, Python `test_*.py` and `*_test.py`.
 *
 * A file the row's own fix (its gold `patch`) touches is code under test for that instance, not infrastructure,
 * unless the test patch touches it too: when an issue's fix needs `package.json` or `Cargo.toml`, a prediction
 * may change it as well.
 *
 * `--test-infra keep` turns this off (research on agents that write tests).
 */
import type { Language } from '@faun/schema';
import { patchChunks, patchFiles } from '../files/patch.ts';

export type TestInfraMode = 'drop' | 'keep';
export const TEST_INFRA_MODES: TestInfraMode[] = ['drop', 'keep'];

export interface DroppedFile {
  path: string;
  /** Which rule named it (one short phrase). */
  reason: string;
}

export interface TestInfraSplit {
  /** The prediction without the dropped files (byte for byte what remains). */
  patch: string;
  dropped: DroppedFile[];
}

const base = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** Configuration every runner of that kind reads, by file name (any directory). */
const CONFIG: Array<[RegExp, string]> = [
  [/^conftest\.py$/, 'pytest conftest'],
  [/^(pytest\.ini|tox\.ini|setup\.cfg|pyproject\.toml|noxfile\.py)$/, 'Python test configuration'],
  [/^package\.json$/, 'package.json (test scripts, runner configuration)'],
  [
    /^(jest\.(config|setup)|vitest\.(config|workspace)|karma\.conf|ava\.config)\.[\w.]+$|^\.mocharc/,
    'JavaScript test runner configuration',
  ],
  [/^(pom\.xml|build\.gradle(\.kts)?|settings\.gradle(\.kts)?|gradle\.properties)$/, 'Maven/Gradle build'],
  [/^Cargo\.toml$/, 'Cargo manifest'],
  [/^(CMakeLists\.txt|.*\.cmake|CTestTestfile\..*|CTestCustom\..*)$/, 'CMake/CTest test definitions'],
  [/_test\.go$/, 'Go test file'],
];

/** Directories whose files configure a runner. */
const CONFIG_DIRS: Array<[RegExp, string]> = [
  [/(^|\/)\.mvn\//, 'Maven configuration'],
  [/(^|\/)\.cargo\/config(\.toml)?$/, 'Cargo configuration'],
];

/** Test sources the language's runner loads by itself. */
function runnerTest(path: string, language: Language): string | null {
  const name = base(path);
  switch (language) {
    case 'java':
      return /(^|\/)src\/test\//.test(path) ? 'Java test source' : null;
    case 'javascript':
    case 'typescript':
      if (/(^|\/)(__tests__|__mocks__)\//.test(path)) return 'JavaScript test directory';
      return /\.(test|spec)\.[cm]?[jt]sx?$/.test(name) ? 'JavaScript test file' : null;
    case 'rust':
      return /(^|\/)tests\/.*\.rs$/.test(path) ? 'Rust integration test' : null;
    case 'python':
      return /^test_.*\.py$|_test\.py$/.test(name) ? 'Python test module' : null;
    default:
      return null;
  }
}

/** Why `path` is test infrastructure for a row of `language` whose test patch touches `testPaths`, or null. */
export function infraReason(path: string, language: Language, testPaths: ReadonlySet<string>): string | null {
  if (testPaths.has(path)) return 'touched by the test patch';
  const name = base(path);
  for (const [re, why] of CONFIG) if (re.test(name)) return why;
  for (const [re, why] of CONFIG_DIRS) if (re.test(path)) return why;
  return runnerTest(path, language);
}

/** Every path a patch names (before and after renames). */
function pathsOf(patch: string): Set<string> {
  const out = new Set<string>();
  for (const f of patchFiles(patch)) for (const p of [f.from, f.to]) if (p) out.add(p);
  return out;
}

/**
 * The prediction without its test-infrastructure files: a chunk is dropped when any path it names (before or
 * after a rename, copy or deletion) is test infrastructure.
 */
export function testInfrastructure(
  patch: string,
  testPatch: string,
  language: Language,
  goldPatch = '',
): TestInfraSplit {
  const testPaths = pathsOf(testPatch);
  const fixPaths = pathsOf(goldPatch);
  let kept = '';
  const dropped: DroppedFile[] = [];
  const chunks = patchChunks(patch);
  if (!chunks.length) return { patch, dropped };
  for (const c of chunks) {
    const paths = [...new Set([c.from, c.to].filter((p): p is string => p !== null))];
    const hit = paths
      .map((path) => ({
        path,
        reason: fixPaths.has(path) && !testPaths.has(path) ? null : infraReason(path, language, testPaths),
      }))
      .find((d) => d.reason !== null);
    if (hit) dropped.push({ path: hit.path, reason: hit.reason! });
    else kept += c.text;
  }
  return { patch: kept, dropped };
}
