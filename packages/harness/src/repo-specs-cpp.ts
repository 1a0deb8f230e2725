/**
 * Environment specs of real C++ repositories from Multi-SWE-bench's lists, built with Debian's g++ and
 * CMake (the cpp toolchain image). The parser is Multi-SWE-bench's `parse_log` for the repository
 * (parsers/select.ts MSB_PARSERS).
 */
import type { EnvSpec } from './specs.ts';

const FMT_BUILD = '/opt/faun-build';

/**
 * Shell: `T` = the CMake test targets named by the files `{test_files}` (`test/<name>.cc` → `<name>`)
 * that the configured build in FMT_BUILD defines. grep reads all of `make help` (no `-q`): test scripts run
 * under `set -o pipefail`, where make's broken pipe after an early `grep -q` match fails the check.
 */
export const FMT_TARGETS =
  `T=$(for f in {test_files}; do case "$f" in test/*.cc) b=\${f##*/}; t=\${b%.cc}; ` +
  `make -C ${FMT_BUILD} help 2>/dev/null | grep -x "\\.\\.\\. $t" >/dev/null && echo $t;; esac; done)`;

const FMT_CONFIGURE = `cmake -S . -B ${FMT_BUILD} -DCMAKE_BUILD_TYPE=Debug -DFMT_DOC=OFF -DFMT_WERROR=OFF >/dev/null`;

export const CPP_SPECS: EnvSpec[] = [
  {
    // Multi-SWE-bench configures, builds every target and runs the whole ctest suite. Here only the test
    // targets of the files the test patch touches are built and run (`ctest -R`): a full test build takes
    // tens of minutes on a shared 2-core machine. The instance layer builds those targets at the base
    // commit, so a run recompiles only what the patches change. Grading (ctest lines, Multi-SWE-bench's
    // parser) is unchanged. As Multi-SWE-bench's script (`set -e`), a failed configure or build runs no test:
    // ctest would otherwise run the instance layer's binary of a target the patches broke, built at the base.
    name: 'fmtlib/fmt',
    versions: null,
    toolchain: 'cpp',
    apt: [],
    envSetup: [],
    install: [
      `${FMT_CONFIGURE} && ${FMT_TARGETS} && cmake --build ${FMT_BUILD} -j 2 --target $T >/dev/null 2>&1 || true`,
    ],
    testCmd:
      `${FMT_CONFIGURE} && { ${FMT_TARGETS}; true; } && cmake --build ${FMT_BUILD} -j 2 --target $T 2>&1 && ` +
      `cd ${FMT_BUILD} && ctest --output-on-failure -R "^($(echo $T | tr ' ' '|'))$" 2>&1`,
    parser: 'msb-ctest',
    specVersion: '3',
  },
];
