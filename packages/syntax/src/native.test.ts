import { beforeAll, describe, expect, test } from 'bun:test';
import type { SyntaxLang } from './languages.ts';
import { isNative, nativeStatus, parseFlat } from './native.ts';
import { initSyntax, parseCode } from './parsers.ts';
import { TREE_CASES } from './tree-cases.ts';
import { type FlatSyntaxTree, MAX_READ_DEPTH, readTree } from './tree-reader.ts';

const LANGS: SyntaxLang[] = ['python', 'java', 'javascript', 'typescript', 'tsx', 'go'];
/** A C compiler is on this machine (as on the project's machines): the native path must then be built. */
const hasCc = Bun.which(process.env.FAUN_CC || 'cc') !== null;

beforeAll(async () => {
  await initSyntax(LANGS, { native: 'wait' });
}, 600_000);

function snapshot(t: FlatSyntaxTree) {
  const hasChild = new Uint8Array(t.count);
  for (let i = 1; i < t.count; i++) hasChild[t.parent[i] as number] = 1;
  const rows: string[] = [];
  const strings: string[] = [];
  for (let i = 0; i < t.count; i++) {
    rows.push(
      [
        t.type[i],
        t.named[i],
        t.missing[i],
        t.fieldNames[t.field[i] as number] ?? null,
        t.start[i],
        t.end[i],
        t.parent[i],
      ].join('|'),
    );
    if (hasChild[i] || t.named[i] || t.missing[i]) strings.push(t.nodeString(i));
  }
  return { rows, strings, depth: t.depth, rootString: t.rootString };
}

function wasm(code: string, lang: SyntaxLang) {
  const p = parseCode(code, lang);
  try {
    return snapshot(readTree(p));
  } finally {
    p.delete();
  }
}

/** Broken variants of a snippet: every prefix at a few cut points, and with one character dropped. */
function variants(code: string): string[] {
  const out = [code];
  for (let k = 1; k < 6; k++) {
    const at = Math.floor((code.length * k) / 6);
    out.push(code.slice(0, at), code.slice(0, at) + code.slice(at + 1));
  }
  return out;
}

describe('native parser', () => {
  test('is built where a C compiler is present, else reports why not', () => {
    const status = nativeStatus();
    if (hasCc && process.env.FAUN_SYNTAX_NATIVE !== '0') {
      expect(status.wasm).toEqual({});
      for (const l of LANGS) expect(isNative(l)).toBe(true);
    } else {
      for (const l of LANGS) expect(typeof status.wasm[l]).toBe('string');
      expect(parseFlat('x = 1\n', 'python')).toBeNull();
    }
  });

  for (const [lang, code] of TREE_CASES) {
    test(`gives the WASM reader's tree: ${lang} ${JSON.stringify(code.slice(0, 30))}`, () => {
      if (!isNative(lang)) return expect(parseFlat(code, lang)).toBeNull();
      for (const v of variants(code)) {
        const got = parseFlat(v, lang);
        expect(got).not.toBeNull();
        const snap = snapshot((got as NonNullable<typeof got>).tree);
        expect(new TextDecoder().decode((got as NonNullable<typeof got>).bytes)).toBe(v);
        expect(snap).toEqual(wasm(v, lang));
      }
    });
  }

  test('prints MISSING tokens and UNEXPECTED characters like the WASM reader', () => {
    for (const [lang, code, part] of [
      ['python', 'x = 1 $ 2\n', "(UNEXPECTED '$')"],
      ['java', 'class A { int x = 1 # ; }', "(UNEXPECTED '#')"],
      ['python', 'def f(:\n  pass', '(MISSING ")")'],
    ] as const) {
      if (!isNative(lang)) continue;
      const got = parseFlat(code, lang);
      expect(got?.tree.rootString).toContain(part);
      expect(snapshot((got as NonNullable<typeof got>).tree)).toEqual(wasm(code, lang));
    }
  });

  test('declines trees deeper than MAX_READ_DEPTH (the WASM path takes them) and stays usable', () => {
    if (!isNative('python')) return;
    expect(parseFlat(`x = ${'('.repeat(MAX_READ_DEPTH)}1${')'.repeat(MAX_READ_DEPTH)}`, 'python')).toBeNull();
    expect(parseFlat('x = 1\n', 'python')?.tree.rootString).toBe(
      '(module (expression_statement (assignment left: (identifier) right: (integer))))',
    );
  });

  test('a larger tree after a small one (the node arrays grow) reads the same', () => {
    if (!isNative('go')) return;
    const big = `package main\n${Array.from({ length: 400 }, (_, i) => `func f${i}(a int) int { return a + ${i} }`).join('\n')}\n`;
    parseFlat('package main\n', 'go');
    expect(snapshot((parseFlat(big, 'go') as NonNullable<ReturnType<typeof parseFlat>>).tree)).toEqual(
      wasm(big, 'go'),
    );
  });

  test('an S-expression past the print buffer (printed again into a larger one) equals ts_node_string', () => {
    if (!isNative('java')) return;
    // ~250 KB of S-expression: more than the 64 KB the one-pass printer starts with
    const body = Array.from({ length: 1500 }, (_, i) => `int f${i}(int a) { return a * ${i} + g(a); }`);
    const big = `class A {\n${body.join('\n')}\n}\n`;
    const small = 'class B { int x = 1 # ; }';
    for (const code of [small, big, small, `${big}}`]) {
      const got = parseFlat(code, 'java') as NonNullable<ReturnType<typeof parseFlat>>;
      const want = wasm(code, 'java');
      expect(got.tree.rootString.length).toBe(want.rootString.length);
      expect(snapshot(got.tree)).toEqual(want);
    }
    expect(wasm(big, 'java').rootString.length).toBeGreaterThan(200_000);
  });
});
