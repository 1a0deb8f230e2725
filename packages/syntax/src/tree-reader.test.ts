import { beforeAll, describe, expect, test } from 'bun:test';
import { fastCursor, TreeTooDeepError } from './fast-cursor.ts';
import type { SyntaxLang } from './languages.ts';
import { initSyntax, parseCode } from './parsers.ts';
import { TREE_CASES } from './tree-cases.ts';
import { MAX_READ_DEPTH, readTree } from './tree-reader.ts';

beforeAll(async () => {
  await initSyntax(['python', 'java', 'javascript', 'typescript', 'tsx', 'go']);
});

/** The runtime's own view: a cursor walk (type, named, missing, field, offsets, parent) and node strings. */
function byCursor(code: string, lang: SyntaxLang) {
  const p = parseCode(code, lang);
  const language = p.tree.getLanguage();
  const fields = (language as unknown as { fields: (string | null)[] }).fields;
  const c = fastCursor(p);
  const rows: string[] = [];
  const strings: string[] = [];
  const parents: number[] = [-1];
  try {
    for (;;) {
      const i = rows.length;
      rows.push(
        [
          language.nodeTypeForId(c.typeId()) ?? 'ERROR',
          language.nodeTypeIsNamed(c.typeId()),
          c.isMissing(),
          fields[c.fieldId()] ?? null,
          c.startByte(),
          c.endByte(),
          parents[parents.length - 1],
        ].join('|'),
      );
      strings.push(c.nodeString());
      if (c.gotoFirstChild()) {
        parents.push(i);
        continue;
      }
      while (!c.gotoNextSibling()) {
        if (!c.gotoParent()) return { rows, strings };
        parents.pop();
      }
    }
  } finally {
    c.delete();
    p.delete();
  }
}

function byReader(code: string, lang: SyntaxLang) {
  const p = parseCode(code, lang);
  try {
    const t = readTree(p);
    const rows: string[] = [];
    const strings: string[] = [];
    for (let i = 0; i < t.count; i++) {
      rows.push(
        [
          t.type[i],
          t.named[i] === 1,
          t.missing[i] === 1,
          t.fieldNames[t.field[i] as number] ?? null,
          t.start[i],
          t.end[i],
          t.parent[i],
        ].join('|'),
      );
      let s: string;
      try {
        s = t.nodeString(i);
      } catch {
        s = '(anonymous leaf)';
      }
      strings.push(s);
    }
    return { rows, strings, rootString: t.rootString };
  } finally {
    p.delete();
  }
}

describe('readTree', () => {
  for (const [lang, code] of TREE_CASES) {
    test(`matches the cursor walk and the runtime's printer: ${lang} ${JSON.stringify(code.slice(0, 30))}`, () => {
      const want = byCursor(code, lang);
      const got = byReader(code, lang);
      expect(got.rows).toEqual(want.rows);
      expect(got.rootString).toBe(want.strings[0] as string);
      want.strings.forEach((s, i) => {
        if (got.strings[i] !== '(anonymous leaf)') expect(got.strings[i]).toBe(s);
      });
    });
  }

  test('prints MISSING tokens and UNEXPECTED characters as the runtime does', () => {
    for (const [lang, code, part] of [
      ['python', 'x = 1 $ 2\n', "(UNEXPECTED '$')"],
      ['java', 'class A { int x = 1 # ; }', "(UNEXPECTED '#')"],
      ['javascript', 'let x = 1 # 2;', "(UNEXPECTED ' ')"],
      ['python', 'def f(:\n  pass', '(MISSING ")")'],
    ] as const) {
      const s = byReader(code, lang).rootString;
      expect(s).toContain(part);
      expect(s).toBe(byCursor(code, lang).strings[0] as string);
    }
  });

  test('throws TreeTooDeepError past MAX_READ_DEPTH and leaves the runtime usable', () => {
    const p = parseCode(`x = ${'('.repeat(MAX_READ_DEPTH)}1${')'.repeat(MAX_READ_DEPTH)}`, 'python');
    expect(() => readTree(p)).toThrow(TreeTooDeepError);
    p.delete();
    expect(byReader('x = 1\n', 'python').rootString).toBe(
      '(module (expression_statement (assignment left: (identifier) right: (integer))))',
    );
  });
});
