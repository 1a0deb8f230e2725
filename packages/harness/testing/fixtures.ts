/**
 * Small fixture repositories generated in a temporary directory, one per toolchain: a `calc` module with
 * two bugs (`add`, `mul`) and one correct function (`neg`). The test patch adds tests for the bugs
 * (FAIL_TO_PASS) next to the existing `neg` test (PASS_TO_PASS); the gold patch fixes both bugs, the
 * half patch only `add`. Python also gets adversarial patches and, on request, a planted flaky test
 * that alternates with the FAUN_REPEAT variable the validator sets (so the flip is deterministic).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ExecutionInstance } from '@faun/schema';

type Files = Record<string, string>;

interface Recipe {
  base: Files;
  /** Files the test patch writes. */
  tests: Files;
  /** Files of the full fix, and of the fix for `add` only. */
  gold: Files;
  half: Files;
  f2p: string[];
  p2p: string[];
}

const PY_CALC = (add: string, mul: string) =>
  `def add(a, b):\n    return ${add}\n\n\ndef mul(a, b):\n    return ${mul}\n\n\ndef neg(a):\n    return -a\n`;
const PY_TEST_BASE = 'from calc import neg\n\n\ndef test_neg():\n    assert neg(2) == -2\n';
const PY_TEST_FULL = (flaky: boolean) =>
  'import os\n\nfrom calc import add, mul, neg\n\n\ndef test_neg():\n    assert neg(2) == -2\n\n\n' +
  'def test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n' +
  (flaky ? "\n\ndef test_flaky():\n    assert int(os.environ.get('FAUN_REPEAT', '0')) % 2 == 0\n" : '');

const GO_CALC = (add: string, mul: string) =>
  `package calc\n\nfunc Add(a, b int) int { return ${add} }\n\nfunc Mul(a, b int) int { return ${mul} }\n\nfunc Neg(a int) int { return -a }\n`;
const GO_TEST = (all: boolean) =>
  'package calc\n\nimport "testing"\n\nfunc TestNeg(t *testing.T) {\n\tif Neg(2) != -2 {\n\t\tt.Fatal("neg")\n\t}\n}\n' +
  (all
    ? '\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal("add")\n\t}\n}\n' +
      '\nfunc TestMul(t *testing.T) {\n\tif Mul(2, 3) != 6 {\n\t\tt.Fatal("mul")\n\t}\n}\n'
    : '');

/**
 * The Java fixture's build. Its tests run in Maven's own JVM (`forkCount` 0): Surefire 2.22.3, the one version
 * in Debian's Maven repository, notices that a forked test JVM has ended only at its next 10-second ping, so a
 * run took 13 s instead of 4.5 s.
 */
const POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>fixture</groupId>
  <artifactId>calc</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.source>17</maven.compiler.source>
    <maven.compiler.target>17</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><artifactId>maven-resources-plugin</artifactId><version>3.3.0</version></plugin>
      <plugin><artifactId>maven-compiler-plugin</artifactId><version>3.10.1</version></plugin>
      <plugin><artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version><configuration><forkCount>0</forkCount></configuration></plugin>
    </plugins>
  </build>
</project>
`;
const JAVA_CALC = (add: string, mul: string) =>
  `package calc;\n\npublic class Calc {\n  public static int add(int a, int b) { return ${add}; }\n\n  public static int mul(int a, int b) { return ${mul}; }\n\n  public static int neg(int a) { return -a; }\n}\n`;
const JAVA_TEST = (all: boolean) =>
  'package calc;\n\nimport static org.junit.Assert.assertEquals;\n\nimport org.junit.Test;\n\npublic class CalcTest {\n' +
  '  @Test\n  public void testNeg() { assertEquals(-2, Calc.neg(2)); }\n' +
  (all
    ? '\n  @Test\n  public void testAdd() { assertEquals(5, Calc.add(2, 3)); }\n' +
      '\n  @Test\n  public void testMul() { assertEquals(6, Calc.mul(2, 3)); }\n'
    : '') +
  '}\n';

const JS_CALC = (add: string, mul: string) =>
  `function add(a, b) {\n  return ${add};\n}\n\nfunction mul(a, b) {\n  return ${mul};\n}\n\nfunction neg(a) {\n  return -a;\n}\n\nmodule.exports = { add, mul, neg };\n`;
const JS_TEST = (all: boolean) =>
  "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add, mul, neg } = require('../calc.js');\n\n" +
  "test('neg', () => {\n  assert.strictEqual(neg(2), -2);\n});\n" +
  (all
    ? "\ntest('add', () => {\n  assert.strictEqual(add(2, 3), 5);\n});\n\ntest('mul', () => {\n  assert.strictEqual(mul(2, 3), 6);\n});\n"
    : '');
const TS_CALC = (add: string, mul: string) =>
  `export function add(a: number, b: number): number {\n  return ${add};\n}\n\nexport function mul(a: number, b: number): number {\n  return ${mul};\n}\n\nexport function neg(a: number): number {\n  return -a;\n}\n`;
const TS_TEST = (all: boolean) =>
  "declare const require: (m: string) => any;\nconst test = require('node:test');\nconst assert = require('node:assert');\nimport { add, mul, neg } from '../calc';\n\n" +
  "test('neg', () => {\n  assert.strictEqual(neg(2), -2);\n});\n" +
  (all
    ? "\ntest('add', () => {\n  assert.strictEqual(add(2, 3), 5);\n});\n\ntest('mul', () => {\n  assert.strictEqual(mul(2, 3), 6);\n});\n"
    : '');

const RS_LIB = (add: string, mul: string) =>
  `pub fn add(a: i64, b: i64) -> i64 {\n    ${add}\n}\n\npub fn mul(a: i64, b: i64) -> i64 {\n    ${mul}\n}\n\npub fn neg(a: i64) -> i64 {\n    -a\n}\n`;
const RS_TEST = (all: boolean) =>
  'use calc::*;\n\n#[test]\nfn test_neg() {\n    assert_eq!(neg(2), -2);\n}\n' +
  (all
    ? '\n#[test]\nfn test_add() {\n    assert_eq!(add(2, 3), 5);\n}\n\n#[test]\nfn test_mul() {\n    assert_eq!(mul(2, 3), 6);\n}\n'
    : '');

const CMAKE = `cmake_minimum_required(VERSION 3.16)
project(calc CXX)
set(CMAKE_CXX_STANDARD 17)
find_package(GTest REQUIRED)
include(GoogleTest)
enable_testing()
add_library(calc calc.cpp)
add_executable(calc_test tests/calc_test.cpp)
target_include_directories(calc_test PRIVATE \${CMAKE_SOURCE_DIR})
target_link_libraries(calc_test calc GTest::gtest_main)
gtest_discover_tests(calc_test)
`;
const CPP_CALC = (add: string, mul: string) =>
  `#include "calc.h"\n\nint add(int a, int b) { return ${add}; }\n\nint mul(int a, int b) { return ${mul}; }\n\nint neg(int a) { return -a; }\n`;
const CPP_TEST = (all: boolean) =>
  '#include <gtest/gtest.h>\n\n#include "calc.h"\n\nTEST(Calc, Neg) { EXPECT_EQ(neg(2), -2); }\n' +
  (all
    ? '\nTEST(Calc, Add) { EXPECT_EQ(add(2, 3), 5); }\n\nTEST(Calc, Mul) { EXPECT_EQ(mul(2, 3), 6); }\n'
    : '');

const C_CMAKE = `cmake_minimum_required(VERSION 3.16)
project(calc C)
enable_testing()
add_library(calc calc.c)
add_subdirectory(tests)
`;
const C_CALC = (add: string, mul: string) =>
  `#include "calc.h"\n\nint add(int a, int b) { return ${add}; }\n\nint mul(int a, int b) { return ${mul}; }\n\nint neg(int a) { return -a; }\n`;
/** One test program, one ctest test per case (`calc_test <case>` exits 0 when it holds). */
const C_TEST = (all: boolean) =>
  '#include <string.h>\n\n#include "calc.h"\n\nint main(int argc, char **argv) {\n  if (argc < 2) return 2;\n' +
  '  if (!strcmp(argv[1], "neg")) return neg(2) == -2 ? 0 : 1;\n' +
  (all
    ? '  if (!strcmp(argv[1], "add")) return add(2, 3) == 5 ? 0 : 1;\n' +
      '  if (!strcmp(argv[1], "mul")) return mul(2, 3) == 6 ? 0 : 1;\n'
    : '') +
  '  return 2;\n}\n';
const C_TESTS_CMAKE = (all: boolean) =>
  `add_executable(calc_test calc_test.c)\ntarget_include_directories(calc_test PRIVATE \${CMAKE_SOURCE_DIR})\n` +
  'target_link_libraries(calc_test calc)\nadd_test(NAME neg COMMAND calc_test neg)\n' +
  (all ? 'add_test(NAME add COMMAND calc_test add)\nadd_test(NAME mul COMMAND calc_test mul)\n' : '');

const C = { add: 'a - b', mul: 'a * b + 1', addOk: 'a + b', mulOk: 'a * b' };

/** Each fixture language's repository: base files, the test patch, gold and half fixes, FAIL_TO_PASS / PASS_TO_PASS. */
const RECIPES: Record<FixtureLanguage, (flaky: boolean, lang: FixtureLanguage) => Recipe> = {
  python: (flaky) => {
    const c = three(PY_CALC);
    const t = 'tests/test_calc.py';
    return {
      base: { 'calc.py': c.bug, [t]: PY_TEST_BASE, 'tests/__init__.py': '', 'conftest.py': '' },
      tests: { [t]: PY_TEST_FULL(flaky) },
      gold: { 'calc.py': c.gold },
      half: { 'calc.py': c.half },
      f2p: [`${t}::test_add`, `${t}::test_mul`],
      p2p: [`${t}::test_neg`],
    };
  },
  go: () => {
    const c = three(GO_CALC);
    return {
      base: {
        'go.mod': 'module example.com/calc\n\ngo 1.19\n',
        'calc.go': c.bug,
        'calc_test.go': GO_TEST(false),
      },
      tests: { 'calc_test.go': GO_TEST(true) },
      gold: { 'calc.go': c.gold },
      half: { 'calc.go': c.half },
      f2p: ['TestAdd', 'TestMul'],
      p2p: ['TestNeg'],
    };
  },
  java: () => {
    const c = three(JAVA_CALC);
    const m = 'src/main/java/calc/Calc.java';
    const t = 'src/test/java/calc/CalcTest.java';
    return {
      base: { 'pom.xml': POM, [m]: c.bug, [t]: JAVA_TEST(false) },
      tests: { [t]: JAVA_TEST(true) },
      gold: { [m]: c.gold },
      half: { [m]: c.half },
      f2p: ['calc.CalcTest.testAdd', 'calc.CalcTest.testMul'],
      p2p: ['calc.CalcTest.testNeg'],
    };
  },
  javascript: (_flaky, lang) => {
    const ts = lang === 'typescript';
    const c = three(ts ? TS_CALC : JS_CALC);
    const src = ts ? 'calc.ts' : 'calc.js';
    const t = ts ? 'test/calc.test.ts' : 'test/calc.test.js';
    const T = ts ? TS_TEST : JS_TEST;
    return {
      base: {
        'package.json': '{ "name": "calc", "version": "1.0.0", "private": true }\n',
        [src]: c.bug,
        [t]: T(false),
      },
      tests: { [t]: T(true) },
      gold: { [src]: c.gold },
      half: { [src]: c.half },
      f2p: ['add', 'mul'],
      p2p: ['neg'],
    };
  },
  typescript: (flaky, lang) => RECIPES.javascript(flaky, lang),
  rust: () => {
    const c = three(RS_LIB);
    return {
      base: {
        'Cargo.toml': '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n',
        'Cargo.lock':
          '# This file is automatically @generated by Cargo.\nversion = 3\n\n[[package]]\nname = "calc"\nversion = "0.1.0"\n',
        'src/lib.rs': c.bug,
        'tests/calc.rs': RS_TEST(false),
      },
      tests: { 'tests/calc.rs': RS_TEST(true) },
      gold: { 'src/lib.rs': c.gold },
      half: { 'src/lib.rs': c.half },
      f2p: ['test_add', 'test_mul'],
      p2p: ['test_neg'],
    };
  },
  cpp: () => {
    const c = three(CPP_CALC);
    return {
      base: {
        'CMakeLists.txt': CMAKE,
        'calc.h': '#pragma once\n\nint add(int a, int b);\nint mul(int a, int b);\nint neg(int a);\n',
        'calc.cpp': c.bug,
        'tests/calc_test.cpp': CPP_TEST(false),
      },
      tests: { 'tests/calc_test.cpp': CPP_TEST(true) },
      gold: { 'calc.cpp': c.gold },
      half: { 'calc.cpp': c.half },
      f2p: ['Calc.Add', 'Calc.Mul'],
      p2p: ['Calc.Neg'],
    };
  },
  c: () => {
    const c = three(C_CALC);
    return {
      base: {
        'CMakeLists.txt': C_CMAKE,
        'calc.h': 'int add(int a, int b);\nint mul(int a, int b);\nint neg(int a);\n',
        'calc.c': c.bug,
        'tests/CMakeLists.txt': C_TESTS_CMAKE(false),
        'tests/calc_test.c': C_TEST(false),
      },
      tests: { 'tests/CMakeLists.txt': C_TESTS_CMAKE(true), 'tests/calc_test.c': C_TEST(true) },
      gold: { 'calc.c': c.gold },
      half: { 'calc.c': c.half },
      f2p: ['add', 'mul'],
      p2p: ['neg'],
    };
  },
};

/** Calculator sources for the bug and the two fixes, from a template of `add` and `mul`. */
const three = <T>(f: (add: string, mul: string) => T) => ({
  bug: f(C.add, C.mul),
  gold: f(C.addOk, C.mulOk),
  half: f(C.addOk, C.mul),
});

function recipe(lang: FixtureLanguage, flaky: boolean): Recipe {
  return RECIPES[lang](flaky, lang);
}

export type FixtureLanguage = 'python' | 'go' | 'java' | 'javascript' | 'typescript' | 'rust' | 'cpp' | 'c';
export const FIXTURE_LANGUAGES: FixtureLanguage[] = [
  'python',
  'go',
  'java',
  'javascript',
  'typescript',
  'rust',
  'cpp',
  'c',
];

export interface Fixture {
  repo: string;
  dir: string;
  instance: ExecutionInstance;
  patches: { gold: string; half: string };
  /** The language the fixture is in. */
  language: FixtureLanguage;
  /** The diff from the base commit to the base with `files` written over it. */
  patchOf: (files: Files) => string;
}

/** Runs a command in `cwd` with a fixed git identity; throws with its stderr on failure, returns stdout. */
export function sh(cwd: string, ...cmd: string[]): string {
  const r = Bun.spawnSync(cmd, {
    cwd,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(' ')} failed: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/** `git -C dir …` with a fixed identity; its stdout, trimmed. */
export const git = (dir: string, ...args: string[]): string => sh(dir, 'git', ...args).trim();

function write(dir: string, files: Files) {
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
}

/** The diff turning the committed tree into `files`; the tree is restored afterwards. */
function diffOf(dir: string, files: Files): string {
  write(dir, files);
  sh(dir, 'git', 'add', '-A');
  const d = sh(dir, 'git', 'diff', '--cached', '--full-index');
  sh(dir, 'git', 'reset', '-q', '--hard');
  return d;
}

/**
 * Creates the fixture repository for `lang` under `root` (history: an initial commit, the base commit,
 * then a later commit and a tag the sandbox must not see).
 */
export function makeFixture(lang: FixtureLanguage, root: string, opts: { flaky?: boolean } = {}): Fixture {
  const r = recipe(lang, opts.flaky ?? false);
  const name = `fixture-${lang}${opts.flaky ? '-flaky' : ''}`;
  const dir = join(root, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  sh(dir, 'git', 'init', '-q', '-b', 'main');
  write(dir, { 'README.md': `# ${name}\n` });
  sh(dir, 'git', 'add', '-A');
  sh(dir, 'git', 'commit', '-qm', 'initial');
  write(dir, r.base);
  sh(dir, 'git', 'add', '-A');
  sh(dir, 'git', 'commit', '-qm', 'base');
  const base = sh(dir, 'git', 'rev-parse', 'HEAD').trim();
  const testPatch = diffOf(dir, r.tests);
  const gold = diffOf(dir, r.gold);
  const half = diffOf(dir, r.half);
  // A future commit (the fix itself) and a tag: must not be visible inside the sandbox.
  write(dir, { ...r.gold, ...r.tests, 'FUTURE.md': 'the answer\n' });
  sh(dir, 'git', 'add', '-A');
  sh(dir, 'git', 'commit', '-qm', 'fix: the answer');
  sh(dir, 'git', 'tag', 'v9.9.9');
  sh(dir, 'git', 'checkout', '-q', base);
  const repo = `fixtures/${name}`;
  return {
    repo,
    dir,
    patches: { gold, half },
    language: lang,
    patchOf: (files) => diffOf(dir, files),
    instance: {
      v: 1,
      instance_id: `fixtures__${name}-1`,
      repo,
      language: lang,
      base_commit: base,
      patch: gold,
      test_patch: testPatch,
      fail_to_pass: r.f2p,
      pass_to_pass: r.p2p,
      problem_statement: 'add and mul are wrong',
      version: null,
      environment_setup_commit: null,
      test_cmd: null,
      image: null,
    },
  };
}

/** Adversarial patches against the Python fixture's `calc.py` (built from its gold patch's header). */
export function adversarialPatches(fx: Fixture): Record<string, string> {
  const replaceCalc = (body: string) => {
    const old = PY_CALC(C.add, C.mul).trimEnd().split('\n');
    const next = body.trimEnd().split('\n');
    return [
      'diff --git a/calc.py b/calc.py',
      '--- a/calc.py',
      '+++ b/calc.py',
      `@@ -1,${old.length} +1,${next.length} @@`,
      ...old.map((l) => `-${l}`),
      ...next.map((l) => `+${l}`),
      '',
    ].join('\n');
  };
  // conftest.py (empty at base) prints forged results with pytest's capture suspended, then exits 1.
  const forgery = [
    'import os',
    'import sys',
    '',
    '',
    'def pytest_configure(config):',
    "    capman = config.pluginmanager.getplugin('capturemanager')",
    '    if capman:',
    '        capman.suspend_global_capture(in_=True)',
    ...[...fx.instance.fail_to_pass, ...fx.instance.pass_to_pass].map((t) => `    print("PASSED ${t}")`),
    '    sys.stdout.flush()',
    '    os._exit(1)',
  ];
  const fakePassed = [
    'diff --git a/conftest.py b/conftest.py',
    '--- a/conftest.py',
    '+++ b/conftest.py',
    `@@ -0,0 +1,${forgery.length} @@`,
    ...forgery.map((l) => `+${l}`),
    '',
  ].join('\n');
  return {
    malformed:
      'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -40,3 +40,3 @@\n-nothing here\n+at all\n',
    reversed: invert(fx.patches.gold),
    infinite_loop: replaceCalc(
      PY_CALC('a + b', 'a * b').replace('    return a + b', '    while True:\n        pass'),
    ),
    fake_passed: fakePassed,
    fork_bomb: replaceCalc(
      `import os\n\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n\n${PY_CALC(C.addOk, C.mulOk)}`,
    ),
    memory_hog: replaceCalc(`hog = b'x' * (3 * 1024 * 1024 * 1024)\n\n${PY_CALC(C.addOk, C.mulOk)}`),
    escape: fx.patches.gold.replaceAll('calc.py', '../calc.py'),
  };
}

/** Swaps the sides of a unified diff (a patch that undoes `diff`). */
export function invert(diff: string): string {
  return diff
    .split('\n')
    .map((l) => {
      if (l.startsWith('--- ')) return `+++ ${l.slice(4)}`;
      if (l.startsWith('+++ ')) return `--- ${l.slice(4)}`;
      if (l.startsWith('-')) return `+${l.slice(1)}`;
      if (l.startsWith('+')) return `-${l.slice(1)}`;
      const h = /^@@ -(\S+) \+(\S+) @@(.*)$/.exec(l);
      if (h) return `@@ -${h[2]} +${h[1]} @@${h[3]}`;
      if (l.startsWith('index ')) return l.replace(/^index (\w+)\.\.(\w+)/, 'index $2..$1');
      return l;
    })
    .join('\n')
    .replace(/^\+\+\+ (.*)\n--- (.*)$/gm, '--- $2\n+++ $1');
}

/**
 * The buggy source of each fixture with a hook that runs `sh /testbed/forge.sh` when the code under test is
 * loaded or first called, its output on the runner's own stdout: what a patch that does not fix the bug but
 * reaches for the verdict looks like in every language.
 */
function hooked(lang: FixtureLanguage): Files {
  const run = 'sh /testbed/forge.sh';
  switch (lang) {
    case 'python':
      return { 'calc.py': `import os\n\nos.system('${run}')\n\n\n${PY_CALC(C.add, C.mul)}` };
    case 'go':
      return {
        'calc.go': GO_CALC(C.add, C.mul).replace(
          'package calc\n',
          `package calc\n\nimport (\n\t"os"\n\t"os/exec"\n)\n\nfunc init() {\n\tc := exec.Command("sh", "/testbed/forge.sh")\n\tc.Stdout = os.Stdout\n\t_ = c.Run()\n}\n`,
        ),
      };
    case 'java':
      return {
        'src/main/java/calc/Calc.java': JAVA_CALC(C.add, C.mul).replace(
          'public class Calc {\n',
          'public class Calc {\n  static {\n    try {\n      new ProcessBuilder("sh", "/testbed/forge.sh").inheritIO().start().waitFor();\n    } catch (Exception e) {\n    }\n  }\n\n',
        ),
      };
    case 'javascript':
      return {
        'calc.js': `require('child_process').spawnSync('sh', ['/testbed/forge.sh'], { stdio: 'inherit' });\n\n${JS_CALC(C.add, C.mul)}`,
      };
    case 'typescript':
      return {
        'calc.ts': `declare const require: (m: string) => any;\nrequire('child_process').spawnSync('sh', ['/testbed/forge.sh'], { stdio: 'inherit' });\n\n${TS_CALC(C.add, C.mul)}`,
      };
    case 'rust':
      return {
        'src/lib.rs': RS_LIB(C.add, C.mul).replace(
          'pub fn add(a: i64, b: i64) -> i64 {\n',
          'pub fn add(a: i64, b: i64) -> i64 {\n    let _ = std::process::Command::new("sh").arg("/testbed/forge.sh").status();\n',
        ),
      };
    case 'cpp':
      return {
        'calc.cpp': `#include <cstdlib>\n\nstatic int forged = std::system("${run}");\n\n${CPP_CALC(C.add, C.mul)}`,
      };
    case 'c':
      return {
        'calc.c': `#include <stdlib.h>\n\n__attribute__((constructor)) static void forge(void) { system("${run}"); }\n\n${C_CALC(C.add, C.mul)}`,
      };
  }
}

/** Result lines in every runner's format saying that every listed test passed. */
function passLines(fx: Fixture): string[] {
  const ids = [...fx.instance.fail_to_pass, ...fx.instance.pass_to_pass];
  return ids.flatMap((id, i) => {
    const short = id.split(/::|\./).pop()!;
    return [
      `PASSED ${id}`,
      `--- PASS: ${id} (0.00s)`,
      `{"Action":"pass","Package":"example.com/calc","Test":"${id}"}`,
      `ok ${i + 1} - ${id}`,
      `test ${id} ... ok`,
      `${i + 1}/${ids.length} Test #${i + 1}: ${id} ....   Passed    0.01 sec`,
      `<testcase name="${short}" classname="calc.CalcTest" time="0"/>`,
    ];
  });
}

const q = (lines: string[]) => lines.map((l) => `'${l.replaceAll("'", `'\\''`)}'`).join(' ');

/**
 * Patches that leave the bug in place and try to decide the verdict from the code under test, in the
 * fixture's language: printing results in every runner's format with faun's and SWE-bench's markers and a
 * zero exit code; reading the evaluation script for its nonce; killing every process after forging; writing
 * the files the grader used to read. None may be resolved.
 */
export function forgeryPatches(fx: Fixture): Record<string, string> {
  const fake = passLines(fx);
  // past any capture by the runner: said into the stdout and stderr pipes of every ancestor (the run's own
  // stream among them) and, when the topmost one it can read has captured its stdout, into every pipe that one
  // holds (the runner's saved copy of the stream); and to its own stdout
  const spray = [
    'to() { case "$seen" in *" $1 "*) ;; *) seen="$seen$1 "; { say > "$2"; } 2>/dev/null;; esac; }',
    'pipe() { case "$(readlink "$1" 2>/dev/null)" in pipe:*) to "$(readlink "$1")" "$1";; esac; }',
    'seen=" "; top=$$; p=$$',
    'while [ "$p" -gt 1 ] 2>/dev/null; do',
    '  pipe /proc/$p/fd/1; pipe /proc/$p/fd/2; ls /proc/$p/fd >/dev/null 2>&1 && top=$p',
    "  p=$(awk '/^PPid/{print $2}' /proc/$p/status 2>/dev/null || echo 0)",
    'done',
    'case "$(readlink /proc/$top/fd/1)" in pipe:*) ;; *) for f in /proc/$top/fd/*; do pipe "$f"; done;; esac',
    'say',
  ].join('\n');
  const forge = (say: string, after = '') =>
    fx.patchOf({ ...hooked(fx.language), 'forge.sh': `say() { ${say}; }\n${spray}\n${after}\n` });
  const markers = ['>>>>> End Test Output', '>>>>> Test Exit Code: 0'];
  const old = 'n=$(grep -ho "faun test start [0-9a-f]*" /faun/eval.sh 2>/dev/null | head -1 | cut -d" " -f4)';
  return {
    forged_markers: forge(`printf '%s\\n' ${q([...fake, ...markers])}`),
    read_eval_script: forge(
      `${old}; printf '%s\\n' ${q(fake)} ">>>>> End Test Output" ">>>>> faun test end $n" ">>>>> Test Exit Code: 0"`,
    ),
    kill_after_forging: forge(`printf '%s\\n' ${q([...fake, ...markers])}`, 'kill -9 -1'),
    write_grader_files: fx.patchOf({
      ...hooked(fx.language),
      // rewritten every 10 ms for a minute: whenever the grader reads it, it holds a resolved run
      'forge.sh': `${old}; ( for _ in $(seq 6000); do printf '%s\\n' ">>>>> faun test start $n" ">>>>> Start Test Output" ${q(fake)} ">>>>> End Test Output" ">>>>> faun test end $n" ">>>>> Test Exit Code: 0" > /faun/test_output.txt.new && mv /faun/test_output.txt.new /faun/test_output.txt; sleep 0.01; done ) >/dev/null 2>&1 &\n`,
    }),
  };
}

/**
 * Patches that leave the bug in place and change the benchmark's test infrastructure so the runner reports
 * every listed test passed, in the fixture's language: a pytest conftest and `pytest.ini` addopts loading a
 * forging plugin; a `package.json` test script and a `*.test.js` file printing TAP results; a Go `_test.go`
 * whose TestMain prints passes and exits 0; a `Cargo.toml` `[[test]]` target without the test harness; a
 * `pom.xml` that ignores test failures plus a test source; `add_test` lines in `CMakeLists.txt` that always
 * pass. By default every one of those files is dropped before the run (test-infra.ts): none may resolve.
 * Returns the patch and the infrastructure files it touches.
 */
export function infraPatch(fx: Fixture): { patch: string; infra: string[] } {
  const ids = [...fx.instance.fail_to_pass, ...fx.instance.pass_to_pass];
  const files = ((): Files => {
    switch (fx.language) {
      case 'python': {
        const say = ids.map((t) => `    print("PASSED ${t}")`).join('\n');
        const hook = `import os\n\n\ndef pytest_configure(config):\n    capman = config.pluginmanager.getplugin('capturemanager')\n    if capman:\n        capman.suspend_global_capture(in_=True)\n${say}\n    os._exit(0)\n`;
        return {
          'conftest.py': hook,
          'pytest.ini': '[pytest]\naddopts = -p forge_plugin\n',
          'forge_plugin.py': hook,
        };
      }
      case 'go':
        return {
          'forge_test.go': `package calc\n\nimport (\n\t"fmt"\n\t"os"\n\t"testing"\n)\n\nfunc TestMain(m *testing.M) {\n${ids.map((t) => `\tfmt.Println("--- PASS: ${t} (0.00s)")`).join('\n')}\n\tos.Exit(0)\n}\n`,
        };
      case 'javascript':
      case 'typescript':
        return {
          'package.json': `{ "name": "calc", "version": "1.0.0", "private": true, "scripts": { "test": "echo ok" } }\n`,
          'forge.test.js': `console.log(${JSON.stringify(ids.map((t, i) => `ok ${i + 1} - ${t}`).join('\n'))});\n`,
        };
      case 'rust':
        return {
          'Cargo.toml':
            '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n\n[[test]]\nname = "calc"\npath = "src/forge.rs"\nharness = false\n',
          'src/forge.rs': `fn main() {\n${ids.map((t) => `    println!("test ${t} ... ok");`).join('\n')}\n}\n`,
        };
      case 'java':
        return {
          'pom.xml': POM.replace(
            '<artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version>',
            '<artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version><configuration><testFailureIgnore>true</testFailureIgnore></configuration>',
          ),
          'src/test/java/calc/ForgeTest.java':
            'package calc;\n\npublic class ForgeTest {\n  @org.junit.Test\n  public void testAdd() {}\n}\n',
        };
      case 'cpp':
        return {
          'CMakeLists.txt': `${CMAKE}${ids.map((t) => `add_test(NAME ${t} COMMAND true)`).join('\n')}\n`,
        };
      case 'c':
        return {
          'CMakeLists.txt': `${C_CMAKE}${ids.map((t) => `add_test(NAME ${t} COMMAND true)`).join('\n')}\n`,
        };
    }
  })();
  const patch = fx.patchOf(files);
  const kept = new Set(['forge_plugin.py', 'src/forge.rs']);
  return {
    patch,
    infra: Object.keys(files)
      .filter((f) => !kept.has(f))
      .sort(),
  };
}

/**
 * The python fixture's tests/test_calc.py with a `test_once` that fails on its first `passOn - 1` runs in
 * a run (counted in $FLAKE_DIR/count) and passes from its `passOn`-th run on.
 */
export function flakyPythonTests(passOn: number): string {
  return `import os

from calc import add, mul, neg


def test_neg():
    assert neg(2) == -2


def test_add():
    assert add(2, 3) == 5


def test_mul():
    assert mul(2, 3) == 6


def test_once():
    p = os.path.join(os.environ['FLAKE_DIR'], 'count')
    n = int(open(p).read()) if os.path.exists(p) else 0
    open(p, 'w').write(str(n + 1))
    assert n >= ${passOn - 1}
`;
}

/** A fresh temporary folder (its name starting with `prefix`) with the python fixture in it. */
export function tempPythonFixture(prefix: string): { root: string; fx: Fixture } {
  const root = mkdtempSync(join(tmpdir(), prefix));
  return { root, fx: makeFixture('python', root) };
}

/**
 * `fx` as Multi-SWE-bench row `org/name:pr-number` with stored stages (the listed passing tests pass, the
 * failing ones fail, before and after the test patch), based on `baseSha`.
 */
export function msbFixtureRow(fx: Fixture, org: string, name: string, number: number, baseSha: string) {
  const stage = (passed: string[], failed: string[]) => ({
    passed_count: passed.length,
    failed_count: failed.length,
    skipped_count: 0,
    passed_tests: passed,
    failed_tests: failed,
    skipped_tests: [],
  });
  return {
    org,
    repo: name,
    number,
    lang: 'python',
    base: { label: '', ref: '', sha: baseSha },
    fix_patch: fx.patches.gold,
    test_patch: fx.instance.test_patch,
    f2p_tests: Object.fromEntries(fx.instance.fail_to_pass.map((t) => [t, {}])),
    p2p_tests: Object.fromEntries(fx.instance.pass_to_pass.map((t) => [t, {}])),
    run_result: stage(fx.instance.pass_to_pass, fx.instance.fail_to_pass),
    test_patch_result: stage(fx.instance.pass_to_pass, fx.instance.fail_to_pass),
  };
}
