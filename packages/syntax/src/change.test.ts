import { beforeAll, describe, expect, test } from 'bun:test';
import { isCommentOrStringOnlyChange, isCommentOrStringOnlyDiff } from './change.ts';
import type { SyntaxLang } from './languages.ts';
import { initSyntax } from './parsers.ts';

beforeAll(async () => {
  await initSyntax(['python', 'java', 'javascript', 'typescript', 'tsx', 'go']);
});

interface Case {
  lang: SyntaxLang;
  before: string;
  comment: string;
  string: string;
  code: string;
  mixed: string;
}

const CASES: Case[] = [
  {
    lang: 'python',
    before: 'def area(r):\n    """Area of a circle."""\n    # pi r squared\n    return 3.14 * r * r, "cm2"\n',
    comment:
      'def area(r):\n    """Area of a circle."""\n    # pi times r squared\n    return 3.14 * r * r, "cm2"\n',
    string: 'def area(r):\n    """Circle area."""\n    # pi r squared\n    return 3.14 * r * r, "m2"\n',
    code: 'def area(r):\n    """Area of a circle."""\n    # pi r squared\n    return 3.1416 * r * r, "cm2"\n',
    mixed: 'def area(r):\n    """Area of a circle."""\n    # pi r r\n    return 3.14 * r ** 2, "cm2"\n',
  },
  {
    lang: 'java',
    before: 'class A {\n  // greet\n  String hi(String n) { return "Hello " + n; }\n}\n',
    comment: 'class A {\n  /* greet someone */\n  String hi(String n) { return "Hello " + n; }\n}\n',
    string: 'class A {\n  // greet\n  String hi(String n) { return "Hi " + n; }\n}\n',
    code: 'class A {\n  // greet\n  String hi(String m) { return "Hello " + m; }\n}\n',
    mixed: 'class A {\n  // say hello\n  String hi(String n) { return "Hello " + n.trim(); }\n}\n',
  },
  {
    lang: 'javascript',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text
    before: 'function url(id) {\n  // build the path\n  return `/items/${id}?v=1`;\n}\n',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text
    comment: 'function url(id) {\n  /* path */\n  return `/items/${id}?v=1`;\n}\n',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text
    string: 'function url(id) {\n  // build the path\n  return `/things/${id}?v=2`;\n}\n',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text
    code: 'function url(id) {\n  // build the path\n  return `/items/${id + 1}?v=1`;\n}\n',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source text
    mixed: 'function url(id) {\n  // path\n  return `/items/${id}?v=1` + x;\n}\n',
  },
  {
    lang: 'typescript',
    before:
      'export function label(n: number): string {\n  // plural\n  return n === 1 ? "item" : "items";\n}\n',
    comment:
      'export function label(n: number): string {\n  // singular or plural\n  return n === 1 ? "item" : "items";\n}\n',
    string:
      "export function label(n: number): string {\n  // plural\n  return n === 1 ? 'entry' : 'entries';\n}\n",
    code: 'export function label(n: number): string {\n  // plural\n  return n == 1 ? "item" : "items";\n}\n',
    mixed:
      'export function label(n: bigint): string {\n  /* plural */\n  return n === 1 ? "item" : "items";\n}\n',
  },
  {
    lang: 'go',
    before: 'package main\n\n// Greet says hello.\nfunc Greet(n string) string {\n\treturn "hello " + n\n}\n',
    comment:
      'package main\n\n// Greet says hello to n.\nfunc Greet(n string) string {\n\treturn "hello " + n\n}\n',
    string: 'package main\n\n// Greet says hello.\nfunc Greet(n string) string {\n\treturn `hi ` + n\n}\n',
    code: 'package main\n\n// Greet says hello.\nfunc Greet(n string) string {\n\treturn "hello " + n + "!"\n}\n',
    mixed:
      'package main\n\n// Greet greets.\nfunc Greet(name string) string {\n\treturn "hello " + name\n}\n',
  },
];

describe('isCommentOrStringOnlyChange', () => {
  for (const c of CASES) {
    test(`${c.lang}: comment-only and string-only changes are true, code and mixed are false`, () => {
      expect(isCommentOrStringOnlyChange(c.before, c.comment, c.lang)).toBe(true);
      expect(isCommentOrStringOnlyChange(c.before, c.string, c.lang)).toBe(true);
      expect(isCommentOrStringOnlyChange(c.before, c.code, c.lang)).toBe(false);
      expect(isCommentOrStringOnlyChange(c.before, c.mixed, c.lang)).toBe(false);
    });
  }

  test('python: moving a statement out of a block is a code change', () => {
    expect(isCommentOrStringOnlyChange('if x:\n    a()\n    b()\n', 'if x:\n    a()\nb()\n', 'python')).toBe(
      false,
    );
  });

  test('python: a change inside an f-string interpolation is a code change', () => {
    expect(isCommentOrStringOnlyChange('s = f"{a} items"\n', 's = f"{b} items"\n', 'python')).toBe(false);
    expect(isCommentOrStringOnlyChange('s = f"{a} items"\n', 's = f"{a} things"\n', 'python')).toBe(true);
  });

  test('tsx grammar parses JSX text as code', () => {
    const before = 'const A = () => <div title="a">{n}</div>;\n';
    expect(isCommentOrStringOnlyChange(before, 'const A = () => <div title="b">{n}</div>;\n', 'tsx')).toBe(
      true,
    );
    expect(isCommentOrStringOnlyChange(before, 'const A = () => <div title="a">{m}</div>;\n', 'tsx')).toBe(
      false,
    );
  });
});

describe('isCommentOrStringOnlyDiff', () => {
  const before = 'def f(x):\n    # add one\n    return x + 1\n';
  test('applies the diff and compares', () => {
    const commentDiff =
      '--- a/f.py\n+++ b/f.py\n@@ -1,3 +1,3 @@\n def f(x):\n-    # add one\n+    # increment\n     return x + 1\n';
    const codeDiff =
      '--- a/f.py\n+++ b/f.py\n@@ -1,3 +1,3 @@\n def f(x):\n     # add one\n-    return x + 1\n+    return x + 2\n';
    expect(isCommentOrStringOnlyDiff(commentDiff, before, 'python')).toBe(true);
    expect(isCommentOrStringOnlyDiff(codeDiff, before, 'python')).toBe(false);
  });
  test('throws when the diff does not apply', () => {
    const bad = '--- a/f.py\n+++ b/f.py\n@@ -1,1 +1,1 @@\n-nothing here\n+x\n';
    expect(() => isCommentOrStringOnlyDiff(bad, before, 'python')).toThrow(/does not apply/);
  });
});

describe('deep inputs', () => {
  test('thousands of nesting levels neither crash nor overflow', () => {
    const deep = (inner: string) => `x = ${'('.repeat(20_000)}${inner}${')'.repeat(20_000)}\n`;
    expect(isCommentOrStringOnlyChange(deep('"a"'), deep('"b"'), 'python')).toBe(true);
    expect(isCommentOrStringOnlyChange(deep('a'), deep('b'), 'python')).toBe(false);
    // the runtime stays usable afterwards
    expect(isCommentOrStringOnlyChange('x = 1  # a\n', 'x = 1  # b\n', 'python')).toBe(true);
  });
});
