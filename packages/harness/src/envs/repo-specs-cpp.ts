/**
 * Environment specs of real C++ repositories from Multi-SWE-bench's lists, built with Debian's g++ and
 * CMake (the cpp toolchain image). The parser is Multi-SWE-bench's `parse_log` for the repository
 * (parsers/select.ts MSB_PARSERS).
 *
 * Multi-SWE-bench configures, builds every target and runs the whole ctest suite. Here only the test
 * targets of the files the test patch touches are built and run (`ctest -R`): a full test build takes tens
 * of minutes on a shared 2-core machine. The instance layer builds those targets at the base commit, so a
 * run recompiles only what the patches change. Grading (ctest lines, Multi-SWE-bench's parser) is unchanged.
 * As Multi-SWE-bench's script (`set -e`), a failed configure or build runs no test: ctest would otherwise
 * run the instance layer's binary of a target the patches broke, built at the base commit.
 */
import type { EnvSpec } from './specs.ts';

const BUILD = '/opt/faun-build';

/**
 * Shell: `T` = the CMake targets of the configured build in BUILD that match `pattern` (grep -x, after
 * `names` has set its variables from `$f`) for each file `$f` of `{test_files}` that matches the `case`
 * pattern `files`. grep reads all of `make help` (no `-q`): test scripts run under `set -o pipefail`, where make's
 * broken pipe after an early `grep -q` match fails the check.
 */
const touchedTargets = (files: string, names: string, pattern: string) =>
  `T=$(for f in {test_files}; do case "$f" in ${files}) ${names} ` +
  `make -C ${BUILD} help 2>/dev/null | grep -x "${pattern}" | cut -c5-;; esac; done)`;

/**
 * fmt: `test/<name>.cc` → the target `<name>`. Spelled out rather than through `touchedTargets`: its text is
 * part of fmt's environment hash, and a new spelling would rebuild fmt's images and validate it again.
 */
export const FMT_TARGETS =
  `T=$(for f in {test_files}; do case "$f" in test/*.cc) b=\${f##*/}; t=\${b%.cc}; ` +
  `make -C ${BUILD} help 2>/dev/null | grep -x "\\.\\.\\. $t" >/dev/null && echo $t;; esac; done)`;

/**
 * nlohmann/json: `tests/src/unit-<name>.cpp` (`test/src/` before 3.11) → its targets `test-<name>_cpp<std>`,
 * one per C++ standard the build tests that file with.
 */
export const JSON_TARGETS = touchedTargets(
  'tests/src/unit-*.cpp|test/src/unit-*.cpp',
  `b=\${f##*/}; n=\${b#unit-}; n=\${n%.cpp};`,
  `\\.\\.\\. test-\${n}_cpp[0-9]*`,
);

/** The spec of a repository whose touched test targets `targets` (a shell snippet setting T) name. */
function touchedCtestSpec(name: string, configure: string, targets: string, specVersion: string): EnvSpec {
  return {
    name,
    versions: null,
    toolchain: 'cpp',
    apt: [],
    envSetup: [],
    install: [
      `${configure} && ${targets} && cmake --build ${BUILD} -j 2 --target $T >/dev/null 2>&1 || true`,
    ],
    testCmd:
      `${configure} && { ${targets}; true; } && cmake --build ${BUILD} -j 2 --target $T 2>&1 && ` +
      `cd ${BUILD} && ctest --output-on-failure -R "^($(echo $T | tr ' ' '|'))$" 2>&1`,
    parser: 'msb-ctest',
    // the instance layer's build tree, rebuilt by every test run: writable in the read-only sandbox
    writable: [BUILD],
    specVersion,
  };
}

export const CPP_SPECS: EnvSpec[] = [
  touchedCtestSpec(
    'fmtlib/fmt',
    `cmake -S . -B ${BUILD} -DCMAKE_BUILD_TYPE=Debug -DFMT_DOC=OFF -DFMT_WERROR=OFF >/dev/null`,
    FMT_TARGETS,
    '3',
  ),
  // The test data (nlohmann/json_test_data) comes from GitHub at build time in Multi-SWE-bench's image;
  // here the data directory is empty, so a test that reads it fails in every stage and is neither
  // FAIL_TO_PASS nor PASS_TO_PASS. ctest adds the `download_test_data` fixture to every run, as upstream.
  touchedCtestSpec(
    'nlohmann/json',
    `cmake -S . -B ${BUILD} -DJSON_BuildTests=ON -DJSON_TestDataDirectory=/opt/faun-json-test-data >/dev/null`,
    JSON_TARGETS,
    '1',
  ),
];
