import { expect, test } from 'bun:test';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MSB_PARSERS } from '../parsers/select.ts';
import { testInstance } from '../run/test-instance.ts';
import { FMT_TARGETS, JSON_TARGETS } from './repo-specs-cpp.ts';
import { installSteps, specFor, testCommand } from './specs.ts';

const testPatch = (files: string[]) =>
  files.map((f) => `diff --git a/${f} b/${f}\n--- a/${f}\n+++ b/${f}\n@@ -1 +1 @@\n-a\n+b\n`).join('');

const fmt = testInstance({
  repo: 'fmtlib/fmt',
  language: 'cpp',
  test_patch: testPatch(['test/format-test.cc', 'test/util.cc', 'test/CMakeLists.txt']),
});

test("fmt gets its own spec: Multi-SWE-bench's ctest parser, only the touched test targets", () => {
  const s = specFor(fmt)!;
  expect(s.name).toBe('fmtlib/fmt');
  expect(s.parser).toBe(MSB_PARSERS['fmtlib/fmt']!);
  const cmd = testCommand(s, fmt);
  expect(cmd).toContain('for f in test/format-test.cc test/util.cc;');
  expect(cmd).toContain('ctest --output-on-failure -R');
  // testFiles keeps test modules only (CMakeLists.txt is not one); the instance layer builds the same targets.
  expect(installSteps(s, fmt)[0]).toContain('for f in test/format-test.cc test/util.cc;');
  expect(installSteps(s, fmt)[0]).not.toContain('{test_files}');
});

/**
 * A folder whose bin/make prints `targets` (printf's format) and then many more lines: a reader that stops
 * early breaks make's pipe, as CMake's long help does.
 */
function fakeMake(prefix: string, targets: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, 'bin'));
  writeFileSync(
    join(dir, 'bin/make'),
    `#!/bin/sh\nprintf "${targets}"\nseq 200000 | sed "s/^/... target-/"\n`,
  );
  chmodSync(join(dir, 'bin/make'), 0o755);
  return dir;
}

/** `script` as test scripts run it (scripts.ts): bash with `set -uo pipefail`, `dir/bin` first on PATH. */
function runWithStubs(dir: string, script: string): string {
  const p = Bun.spawnSync(['bash', '-c', `set -uo pipefail; ${script}`], {
    env: { PATH: `${dir}/bin:${process.env.PATH}` },
  });
  return p.stdout.toString();
}

test('FMT_TARGETS keeps the test/*.cc files that are targets of the configured build', () => {
  const dir = fakeMake(
    'faun-fmt-',
    'The following are some of the valid targets:\\n... all\\n... format-test\\n... chrono-test\\n... test-main\\n',
  );
  const script = `${FMT_TARGETS.replace('{test_files}', 'test/format-test.cc test/util.cc test/CMakeLists.txt test/chrono-test.cc')}; echo "$T"`;
  expect(runWithStubs(dir, script)).toBe('format-test\nchrono-test\n');
});

test('fmt: a test target that fails to build runs no test (no stale binary from the instance layer)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'faun-fmt-'));
  mkdirSync(join(dir, 'bin'));
  const stub = (name: string, body: string) => {
    writeFileSync(join(dir, 'bin', name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(dir, 'bin', name), 0o755);
  };
  stub('make', 'printf "... all\\n... format-test\\n"');
  stub('ctest', 'echo "1/1 Test #1: format-test ....   Passed    0.01 sec"');
  const run = (build: 'ok' | 'fails') => {
    stub(
      'cmake',
      build === 'ok' ? 'exit 0' : 'case "$*" in *--build*) echo "error: no matching function"; exit 2;; esac',
    );
    const cmd = testCommand(specFor(fmt)!, fmt).replaceAll('/opt/faun-build', dir);
    return runWithStubs(dir, cmd);
  };
  expect(run('ok')).toContain('Test #1: format-test');
  const failed = run('fails');
  expect(failed).toContain('error: no matching function');
  expect(failed).not.toContain('Test #1');
});

test("nlohmann/json: a touched unit test file's targets, one per C++ standard, and no other file's", () => {
  const dir = fakeMake(
    'faun-json-',
    '... all\\n... test_main\\n... test-udt_cpp11\\n... test-udt_macro_cpp11\\n' +
      '... test-conversions_cpp11\\n... test-conversions_cpp17\\n... test-comparison_legacy_cpp11\\n',
  );
  const files =
    'tests/src/unit-udt.cpp test/src/unit-conversions.cpp tests/src/unit.cpp tests/CMakeLists.txt';
  const script = `${JSON_TARGETS.replace('{test_files}', files)}; echo "$T"`;
  expect(runWithStubs(dir, script)).toBe('test-udt_cpp11\ntest-conversions_cpp11\ntest-conversions_cpp17\n');
  const json = testInstance({
    repo: 'nlohmann/json',
    language: 'cpp',
    test_patch: testPatch(['tests/src/unit-udt.cpp']),
  });
  const s = specFor(json)!;
  expect(s.name).toBe('nlohmann/json');
  expect(s.parser).toBe(MSB_PARSERS['nlohmann/json']!);
  expect(testCommand(s, json)).toContain('-DJSON_TestDataDirectory=');
});
