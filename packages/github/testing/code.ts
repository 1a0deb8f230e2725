/**
 * Source files of the fake repositories, in five languages, and the edits fake pull requests make to
 * them. Every file is a pure function of (repo key, language, module index); an edit replaces exactly
 * one line, so `before`, `after` and the unified `patch` are always consistent.
 */
import type { FakeLanguage } from './corpus-types.ts';

/** Functions per source module. */
export const FUNCS = 6;
/** Source modules per repository. */
export const MODULES = 4;

const WORDS = ['total', 'offset', 'width', 'count', 'index', 'weight', 'margin', 'limit', 'scale', 'depth'];

/** Which line of a function an edit touches. */
export type EditKind = 'code' | 'comment' | 'string';

interface Layout {
  lines: string[];
  /** Line index (0-based) of each function's comment, string and code lines. */
  spots: { comment: number; string: number; code: number }[];
}

const EXT: Record<FakeLanguage, string> = {
  python: 'py',
  java: 'java',
  javascript: 'js',
  typescript: 'ts',
  go: 'go',
};

/** Path of source module `k`. */
export function sourcePath(lang: FakeLanguage, k: number): string {
  switch (lang) {
    case 'python':
      return `src/module${k}.py`;
    case 'java':
      return `src/main/java/org/fake/Module${k}.java`;
    case 'go':
      return `pkg/module${k}.go`;
    default:
      return `src/module${k}.${EXT[lang]}`;
  }
}

/** Path of the test file for module `k`. */
export function testPath(lang: FakeLanguage, k: number): string {
  switch (lang) {
    case 'python':
      return `tests/test_module${k}.py`;
    case 'java':
      return `src/test/java/org/fake/Module${k}Test.java`;
    case 'go':
      return `pkg/module${k}_test.go`;
    default:
      return `test/module${k}.test.${EXT[lang]}`;
  }
}

/** Documentation files every fake repository has. */
export const DOC_PATHS = ['README.md', 'docs/guide.md'] as const;

/** Every path of a fake repository, sorted. */
export function allPaths(lang: FakeLanguage): string[] {
  const out: string[] = [...DOC_PATHS];
  for (let k = 0; k < MODULES; k++) out.push(sourcePath(lang, k), testPath(lang, k));
  return out.sort();
}

function word(key: number, j: number): string {
  return WORDS[(key + j * 3) % WORDS.length] ?? 'value';
}

function sourceLayout(lang: FakeLanguage, repoKey: number, k: number): Layout {
  const lines: string[] = [];
  const spots: Layout['spots'] = [];
  const c = (j: number) => ((repoKey + k * 7 + j) % 9) + 2;
  const push = (...l: string[]) => lines.push(...l);
  const fn = (j: number, header: string[], comment: string, str: string, code: string, close: string[]) => {
    for (const h of header) push(h);
    spots.push({ comment: lines.length, string: lines.length + 1, code: lines.length + 2 });
    push(comment);
    push(str);
    push(code);
    for (const l of close) push(l);
    void j;
  };
  switch (lang) {
    case 'python':
      push(`"""Module ${k}: helpers for ${word(repoKey, k)} arithmetic."""`);
      for (let j = 0; j < FUNCS; j++)
        fn(
          j,
          ['', '', `def func_${j}(a, b):`],
          `    # compute the ${word(repoKey, j)} value`,
          `    label = "value ${j}"`,
          `    return a + b * ${c(j)}`,
          [],
        );
      break;
    case 'java':
      push('package org.fake;', '', `/** Module ${k}: helpers for ${word(repoKey, k)} arithmetic. */`);
      push(`public class Module${k} {`);
      for (let j = 0; j < FUNCS; j++)
        fn(
          j,
          [`    static int func${j}(int a, int b) {`],
          `        // compute the ${word(repoKey, j)} value`,
          `        String label = "value ${j}";`,
          `        return a + b * ${c(j)};`,
          ['    }', ''],
        );
      push('}');
      break;
    case 'go':
      push('package fake', '', `// Module ${k}: helpers for ${word(repoKey, k)} arithmetic.`);
      for (let j = 0; j < FUNCS; j++)
        fn(
          j,
          ['', `// Func${j} combines a and b.`, `func Func${j}(a int, b int) int {`],
          `\t// compute the ${word(repoKey, j)} value`,
          `\tlabel := "value ${j}"`,
          `\treturn a + b*${c(j)} + len(label)*0`,
          ['}'],
        );
      break;
    default: {
      const ts = lang === 'typescript';
      push(`/** Module ${k}: helpers for ${word(repoKey, k)} arithmetic. */`);
      for (let j = 0; j < FUNCS; j++)
        fn(
          j,
          [
            '',
            ts
              ? `export function func${j}(a: number, b: number): number {`
              : `export function func${j}(a, b) {`,
          ],
          `  // compute the ${word(repoKey, j)} value`,
          `  const label = 'value ${j}';`,
          `  return a + b * ${c(j)} + label.length * 0;`,
          ['}'],
        );
    }
  }
  return { lines, spots };
}

/** Pristine content of source module `k`. */
export function sourceFile(lang: FakeLanguage, repoKey: number, k: number): string {
  return `${sourceLayout(lang, repoKey, k).lines.join('\n')}\n`;
}

function testLines(lang: FakeLanguage, k: number): string[] {
  switch (lang) {
    case 'python':
      return [
        `from src.module${k} import func_0`,
        '',
        '',
        'def test_func_0():',
        '    assert func_0(1, 0) == 1',
      ];
    case 'java':
      return [
        'package org.fake;',
        '',
        `public class Module${k}Test {`,
        '    void testFunc0() {',
        `        assert Module${k}.func0(1, 0) == 1;`,
        '    }',
        '}',
      ];
    case 'go':
      return [
        'package fake',
        '',
        'import "testing"',
        '',
        'func TestFunc0(t *testing.T) {',
        '\tif Func0(1, 0) != 1 {',
        '\t\tt.Fatal("func0")',
        '\t}',
        '}',
      ];
    default:
      return [
        `import { func0 } from '../src/module${k}';`,
        '',
        "test('func0', () => {",
        '  expect(func0(1, 0)).toBe(1);',
        '});',
      ];
  }
}

function docLines(path: string, repo: string): string[] {
  return path === 'README.md'
    ? [`# ${repo}`, '', 'A small arithmetic library.', '', 'Install it and call the helpers.']
    : ['# Guide', '', 'Each module exposes six helpers.', '', 'They combine two integers.'];
}

/** Pristine content of any path (null if the repository has no such file). */
export function pristineFile(lang: FakeLanguage, repo: string, repoKey: number, path: string): string | null {
  for (let k = 0; k < MODULES; k++) {
    if (path === sourcePath(lang, k)) return sourceFile(lang, repoKey, k);
    if (path === testPath(lang, k)) return `${testLines(lang, k).join('\n')}\n`;
  }
  if ((DOC_PATHS as readonly string[]).includes(path)) return `${docLines(path, repo).join('\n')}\n`;
  return null;
}

/** One edit a fake PR makes: replace line `line` of `path` with `text`. */
export interface FileEdit {
  path: string;
  line: number;
  text: string;
}

/** The edit of kind `kind` on function `j` of module `k`. */
export function sourceEdit(
  lang: FakeLanguage,
  repoKey: number,
  k: number,
  j: number,
  kind: EditKind,
): FileEdit {
  const { lines, spots } = sourceLayout(lang, repoKey, k);
  const spot = spots[j % FUNCS];
  if (!spot) throw new Error('bad function index');
  const line = spot[kind];
  const old = lines[line] ?? '';
  const text =
    kind === 'code'
      ? old.replace('a + b', 'a - b')
      : kind === 'comment'
        ? old.replace(/value$/, 'value (rounded down)')
        : old.replace(/value (\d+)/, 'result $1');
  return { path: sourcePath(lang, k), line, text };
}

/** An edit of a documentation file or a test file (docs/test-only PRs). */
export function docOrTestEdit(lang: FakeLanguage, which: 'docs' | 'test', k: number): FileEdit {
  if (which === 'docs')
    return {
      path: DOC_PATHS[k % 2] ?? 'README.md',
      line: 2,
      text: 'A small, well-tested arithmetic library.',
    };
  const lines = testLines(lang, k);
  const idx = lang === 'java' ? 4 : lang === 'go' ? 5 : lang === 'python' ? 4 : 3;
  return {
    path: testPath(lang, k),
    line: idx,
    text: (lines[idx] ?? '')
      .replace('(1, 0)', '(2, 0)')
      .replace('== 1', '== 2')
      .replace('!= 1', '!= 2')
      .replace('toBe(1)', 'toBe(2)'),
  };
}

/** Applies an edit to a file's content. */
export function applyEdit(content: string, edit: FileEdit): string {
  const lines = content.split('\n');
  lines[edit.line] = edit.text;
  return lines.join('\n');
}

/** GitHub-style `patch` (hunks only, no file header) for a one-line replacement, 3 lines of context. */
export function patchFor(before: string, edit: FileEdit): string {
  const lines = before.endsWith('\n') ? before.slice(0, -1).split('\n') : before.split('\n');
  const lo = Math.max(0, edit.line - 3);
  const hi = Math.min(lines.length - 1, edit.line + 3);
  const count = hi - lo + 1;
  const out = [`@@ -${lo + 1},${count} +${lo + 1},${count} @@`];
  for (let i = lo; i <= hi; i++) {
    if (i === edit.line) out.push(`-${lines[i]}`, `+${edit.text}`);
    else out.push(` ${lines[i]}`);
  }
  return out.join('\n');
}
